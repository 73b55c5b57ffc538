/**
 * Error codes of a derivation (profile section 3). `INVALID_REQUEST` is not a derivation
 * outcome: it reports a call that is not in the harness shape (profile section 1, status 400).
 */
export type DerivationErrorCode =
  | 'EXPIRED'
  | 'INVALID_VERSION'
  | 'INVALID_STRUCTURE'
  | 'UNSUPPORTED_RAIL'
  | 'AMOUNT_REQUIRED'
  | 'TOKEN_REJECTED'
  | 'INVALID_REQUEST';

/** The error member of a failed derivation: `{code, message}` with a message for a person. */
export interface DerivationError {
  /** Stable code (profile section 3). */
  code: DerivationErrorCode;
  /** Non-empty text for a person: what is wrong and, where it helps, what to do. */
  message: string;
}

/**
 * Thrown by a derivation step (or by an injected `fetchCpr`) to stop the derivation with a
 * given code; `derivePayment` turns it into `{ ok: false, error }`. Never escapes `derivePayment`.
 *
 * @example
 * ```ts
 * throw new DerivationFailure('TOKEN_REJECTED', 'the payee answered 410 for the token; ask the payee for a new request');
 * ```
 */
export class DerivationFailure extends Error {
  /** Stable code (profile section 3). */
  readonly code: DerivationErrorCode;

  constructor(code: DerivationErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }

  /** The `{code, message}` body of this failure. */
  toError(): DerivationError {
    return { code: this.code, message: this.message };
  }
}
