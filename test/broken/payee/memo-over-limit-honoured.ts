import type { ServerResponse } from 'node:http';
import {
  type CprDocument,
  type CreateRequestParams,
  DocumentBuilder,
  ReferencePayee,
  type ReferencePayeeOptions,
  type ValidityWindow,
} from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenPayee } from './_start.js';

/** Puts a stashed over-long memo back into the document (and its remittance text). */
class StashedMemoBuilder extends DocumentBuilder {
  stashed: string | undefined;
  override build(params: CreateRequestParams, requestId: string, window: ValidityWindow): CprDocument {
    const memo = this.stashed;
    if (memo === undefined) return super.build(params, requestId, window);
    const doc = super.build({ ...params, memo }, requestId, window);
    return doc;
  }
}

/**
 * Profile 2 broken (a request it cannot honour is refused or honoured conformantly): a memo over
 * 140 code points is carried as asked, so the CPR breaks the 140 code point limit.
 */
class LongMemoPayee extends ReferencePayee {
  constructor(options: ReferencePayeeOptions) {
    super({ ...options, documentBuilder: new StashedMemoBuilder() });
  }
  protected override createRequest(body: unknown, res: ServerResponse): Promise<void> {
    const builder = this.documents as StashedMemoBuilder;
    const memo = (body as { memo?: unknown } | null)?.memo;
    if (typeof memo !== 'string' || [...memo].length <= 140) return super.createRequest(body, res);
    // the reference refuses the memo while parsing: hide it from the parser, give it to the builder
    const { memo: _hidden, ...rest } = body as Record<string, unknown>;
    builder.stashed = memo;
    try {
      return super.createRequest(rest, res); // the document is built before the first await
    } finally {
      builder.stashed = undefined;
    }
  }
}

/** A memo over 140 code points is honoured as asked: a non-conformant CPR. */
export const memoOverLimitHonoured: BrokenImplementation = {
  id: 'payee-memo-over-limit-honoured',
  target: 'payee',
  fault: 'a harness memo over 140 code points is carried as asked, so the CPR breaks the memo limit',
  expected: ['PRF-2-HARNESS-UNSERVICEABLE'],
  start: ({ workDir }) => startBrokenPayee(workDir, {}, LongMemoPayee),
};
