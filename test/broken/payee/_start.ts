/**
 * Starts a deliberately broken payee: the reference payee (src/reference/payee) with one
 * component injected or one class subclassed, on 127.0.0.1 behind a throwaway CA, following the
 * pattern of `src/loopback/stack.ts`. Returns the run config pointing the suite at it.
 */
import { join } from 'node:path';
import { createLoopbackPki, writeCaFile } from '../../../src/loopback/tls.js';
import { ReferencePayee, type ReferencePayeeOptions } from '../../../src/reference/payee/index.js';
import type { StartedBroken } from '../types.js';

/** The ceilings the broken payees are configured with (those of the reference stack). */
export const BROKEN_MAX_TOKEN_TTL_SECONDS = 900;
/** Validity ceiling of the broken payees: 30 days, as the reference stack. */
export const BROKEN_MAX_VALIDITY_SECONDS = 30 * 24 * 3600;

/** A payee class: the reference or a subclass carrying the fault. */
export type PayeeClass = new (options: ReferencePayeeOptions) => ReferencePayee;

/**
 * Starts `Payee` (default the reference) with `options` (e.g. a broken token store) and writes
 * the CA file into `workDir`.
 * @example
 * ```ts
 * const started = await startBrokenPayee(workDir, { tokenStore: new ReusableTokenStore() });
 * ```
 */
export async function startBrokenPayee(
  workDir: string,
  options: Partial<Omit<ReferencePayeeOptions, 'tls'>> = {},
  Payee: PayeeClass = ReferencePayee,
): Promise<StartedBroken> {
  const { ca, server } = await createLoopbackPki();
  const caFile = join(workDir, 'ca.pem');
  await writeCaFile(caFile, ca);
  const running = await new Payee({
    tls: server,
    maxTokenTtlSeconds: BROKEN_MAX_TOKEN_TTL_SECONDS,
    maxValiditySeconds: BROKEN_MAX_VALIDITY_SECONDS,
    ...options,
  }).start();
  return {
    config: {
      tls: { ca_file: caFile },
      timeouts: { request_ms: 10_000 },
      payee: {
        base_url: running.baseUrl,
        harness_url: running.harnessUrl,
        ...(running.plainHttpUrl === undefined ? {} : { plain_http_url: running.plainHttpUrl }),
        max_token_ttl_seconds: BROKEN_MAX_TOKEN_TTL_SECONDS,
        max_validity_seconds: BROKEN_MAX_VALIDITY_SECONDS,
      },
    },
    close: () => running.close(),
  };
}
