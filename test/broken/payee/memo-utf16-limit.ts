import { type CreateRequestParams, ReferencePayee } from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenPayee } from './_start.js';

/** Profile 2 broken (lengths count code points): the memo limit counts UTF-16 code units. */
class Utf16MemoPayee extends ReferencePayee {
  protected override refusal(params: CreateRequestParams): string | undefined {
    if (params.memo !== undefined && params.memo.length > 140)
      return `"memo" has ${params.memo.length} characters; at most 140 are allowed`;
    return super.refusal(params);
  }
}

/** A memo of 140 astral code points (280 UTF-16 units) is refused as too long. */
export const memoUtf16Limit: BrokenImplementation = {
  id: 'payee-memo-utf16-limit',
  target: 'payee',
  fault: 'the harness counts a memo in UTF-16 code units: 140 astral code points are refused as over 140',
  expected: ['PRF-2-HARNESS-REQUESTS', 'PRF-2-LENGTH-CODE-POINTS'],
  start: ({ workDir }) => startBrokenPayee(workDir, {}, Utf16MemoPayee),
};
