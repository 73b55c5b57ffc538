import { type TokenRecord, TokenStore } from '../../../src/reference/payee/index.js';

/**
 * The reference token store with a read-only look at a record (no behaviour change), for broken
 * payees whose one fault is in how they answer a known or unknown token.
 */
export class PeekableTokenStore extends TokenStore {
  /** The record of `token`, if issued. */
  peek(token: string): Readonly<TokenRecord> | undefined {
    return this.records.get(token);
  }
}
