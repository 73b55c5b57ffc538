/**
 * Errors of the tool itself (never of the implementation under test: those are findings or
 * test results). One class, stable `code`s, lower-case messages that name the member or file
 * and say what to do.
 *
 * @example
 * ```ts
 * throw new CprcError('CPRC_CONFIG_INVALID', 'config.json: "payee.base_url" must be an https URL; fix it and run again');
 * ```
 */
export type CprcErrorCode =
  | 'CPRC_USAGE'
  | 'CPRC_IO'
  | 'CPRC_CONFIG_INVALID'
  | 'CPRC_TARGET_UNREACHABLE'
  | 'CPRC_INPUT_INVALID'
  | 'CPRC_TIMEOUT'
  | 'CPRC_RESPONSE_TOO_LARGE'
  | 'CPRC_DRIVER'
  | 'CPRC_INTERNAL';

/** An error raised by cpr-conformance itself, with a stable machine-readable `code`. */
export class CprcError extends Error {
  /** Stable code, safe to match on. */
  readonly code: CprcErrorCode;

  constructor(code: CprcErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CprcError';
    this.code = code;
  }
}

/** True when `value` is a {@link CprcError}, optionally of the given code. */
export function isCprcError(value: unknown, code?: CprcErrorCode): value is CprcError {
  return value instanceof CprcError && (code === undefined || value.code === code);
}
