import type { BrokenImplementation } from '../types.js';
import { refusingPayee } from './_json.js';
import { startBrokenPayee } from './_start.js';

/** Profile 2 broken (lengths count code points): the memo limit counts UTF-16 code units. */
const Utf16MemoPayee = refusingPayee((params) =>
  params.memo !== undefined && params.memo.length > 140
    ? `"memo" has ${params.memo.length} characters; at most 140 are allowed`
    : undefined,
);

/** A memo of 140 astral code points (280 UTF-16 units) is refused as too long. */
export const memoUtf16Limit: BrokenImplementation = {
  id: 'payee-memo-utf16-limit',
  target: 'payee',
  fault: 'the harness counts a memo in UTF-16 code units: 140 astral code points are refused as over 140',
  expected: ['PRF-2-HARNESS-REQUESTS', 'PRF-2-LENGTH-CODE-POINTS'],
  start: ({ workDir }) => startBrokenPayee(workDir, {}, Utf16MemoPayee),
};
