import { randomBytes } from 'node:crypto';
import { base32Lower, TOKEN_RANDOM_BYTES, TokenStore } from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenPayee } from './_start.js';

/**
 * Profile 2 (128 bits of randomness) broken: tokens are a 160-bit counter from a random start,
 * written in lowercase base32 with the reference's length, so format and length still pass.
 */
class SequentialTokenStore extends TokenStore {
  #next = BigInt(`0x${randomBytes(TOKEN_RANDOM_BYTES).toString('hex')}`) >> 1n;
  override generateToken(): string {
    const value = this.#next;
    this.#next += 1n;
    return base32Lower(Buffer.from(value.toString(16).padStart(TOKEN_RANDOM_BYTES * 2, '0'), 'hex'));
  }
}

/** Predictable tokens. */
export const sequentialTokens: BrokenImplementation = {
  id: 'payee-sequential-tokens',
  target: 'payee',
  fault: 'tokens are consecutive values of a 160-bit counter (right length and alphabet, no randomness)',
  expected: ['PRF-2-TOKEN-ENTROPY'],
  start: ({ workDir }) => startBrokenPayee(workDir, { tokenStore: new SequentialTokenStore() }),
};
