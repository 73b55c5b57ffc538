/**
 * Named limits of input loading (issue: every input capped, a flag to raise each).
 *
 * @packageDocumentation
 */
import { CprcError } from '../../errors.js';

/**
 * `max-bytes`: the largest single input read, in bytes: a file, stdin, one NDJSON line, one
 * fetched response body. A CPR is a few kilobytes; 1 MiB leaves room for large extensions.
 * Raised with `--max-bytes`.
 */
export const DEFAULT_MAX_BYTES = 1024 * 1024;

/** Default total time of one reference retrieval or one stalled stream read, in milliseconds (`--timeout`). */
export const DEFAULT_TIMEOUT_MS = 10_000;

/** The error for an input above the `max-bytes` limit: one line, naming the limit and the flag. */
export function tooLarge(what: string, max: number): CprcError {
  return new CprcError(
    'CPRC_RESPONSE_TOO_LARGE',
    `${what} is larger than the max-bytes limit of ${max} bytes; a cpr is far smaller (raise it with --max-bytes)`,
  );
}
