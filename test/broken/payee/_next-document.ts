/**
 * A document builder that rewrites the next document it builds when a broken payee asks it to:
 * the tool of the broken payees whose fault is in the CPR a harness request gets (the build
 * follows the parse in the same tick, so the rewrite lands on that request's document).
 */
import {
  type CprDocument,
  type CreateRequestParams,
  DocumentBuilder,
  type ValidityWindow,
} from '../../../src/reference/payee/index.js';

/** The reference builder, with a one-shot rewrite of the next document. */
export class NextDocumentRewriter extends DocumentBuilder {
  /** Applied to the next document built, then cleared. */
  rewriteNext: ((doc: CprDocument) => CprDocument) | undefined;

  override build(params: CreateRequestParams, requestId: string, window: ValidityWindow): CprDocument {
    const rewrite = this.rewriteNext;
    this.rewriteNext = undefined;
    const doc = super.build(params, requestId, window);
    return rewrite ? rewrite(doc) : doc;
  }
}
