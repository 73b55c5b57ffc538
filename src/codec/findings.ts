/**
 * Findings of the codec, in the shape of docs/conventions.md (the same shape the validator uses).
 * @packageDocumentation
 */
import type { Finding } from '../model/finding.js';

/**
 * A finding of the `cpr://` and QR codec: the shared {@link Finding} shape of `src/model`
 * (`{ requirement, level, severity, path, message }`, docs/conventions.md). `path` is `''` for
 * the URI or image as a whole.
 */
export type CodecFinding = Finding;

/** The outcome of a codec operation that never throws: a value (with non-blocking findings) or findings. */
export type CodecResult<T> =
  | { ok: true; value: T; findings: CodecFinding[] }
  | { ok: false; findings: CodecFinding[] };

/** Builds a finding. */
export function codecFinding(
  requirement: string,
  level: CodecFinding['level'],
  severity: CodecFinding['severity'],
  message: string,
  path = '',
): CodecFinding {
  return { requirement, level, severity, path, message };
}
