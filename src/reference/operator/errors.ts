/**
 * The Operator's protocol errors: spec CP 7 codes plus the profile's INVALID_REQUEST, FORBIDDEN
 * and PACK_UNKNOWN, each with the HTTP status of the profile section 1 table.
 * @packageDocumentation
 */
import type { ErrorBody } from './types.js';

/** Profile section 1: HTTP status of every error code the Operator returns. */
export const OPERATOR_ERROR_STATUS = {
  INVALID_REQUEST: 400,
  INVALID_SIGNATURE: 401,
  BEARER_MISMATCH: 403,
  REDEEMER_NOT_IDENTIFIED: 403,
  FORBIDDEN: 403,
  PACK_UNKNOWN: 404,
  DUPLICATE_ID: 409,
  CHAIN_DIGEST_MISMATCH: 409,
  INSTRUMENT_NOT_ACTIVE: 409,
  AMOUNT_EXCEEDS_LIMIT: 422,
  EXPIRY_INVALID: 422,
  INSUFFICIENT_BALANCE: 422,
  CHAIN_DEPTH_EXCEEDED: 422,
} as const;

/** An error code the Operator can return. */
export type OperatorErrorCode = keyof typeof OPERATOR_ERROR_STATUS;

/**
 * A refusal by the Operator: becomes `{"error": {"code", "message"}}` with the profile's status.
 * Messages are for a person, name the member at fault, and never contain a secret.
 *
 * @example
 * ```ts
 * throw new OperatorError('DUPLICATE_ID', 'request_id was seen before (replay)');
 * ```
 */
export class OperatorError extends Error {
  /** The wire code. */
  readonly code: OperatorErrorCode;
  /** The HTTP status (profile section 1). */
  readonly status: number;

  constructor(code: OperatorErrorCode, message: string) {
    super(message);
    this.code = code;
    this.status = OPERATOR_ERROR_STATUS[code];
  }

  /** The profile section 1 error body. */
  toBody(): ErrorBody {
    return { error: { code: this.code, message: this.message } };
  }
}
