/**
 * The reference wallet's core (profile section 3) independent of its transport: the spec 4.4
 * derivation ({@link derivePayment}, `derive.ts`, HTTP-free) with an HTTPS fetcher of reference
 * URIs, the configured rails and clock. `server.ts` serves it over the HTTPS harness and stdio.
 *
 * @packageDocumentation
 */

import type { Rail } from '../../model/cpr.js';
import { type DerivationOptions, type DerivationResult, derivePayment } from './derive.js';
import { createHttpsCprFetcher } from './fetch.js';
import { DEFAULT_SUPPORTED_RAILS } from './rails.js';

/** Options shared by both forms of the wallet harness (profile section 3). */
export interface WalletCoreOptions {
  /** PEM certificates of the CAs trusted when retrieving reference URIs (the suite CA among them). */
  trustedCaPems: string[];
  /** Rails the wallet executes (default: every rail but SWIFT). */
  supportedRails?: readonly Rail[];
  /** The wallet's clock (default: the system clock). */
  clock?: () => Date;
  /** Timeout of a CPR retrieval, in milliseconds (default 10 000). */
  fetchTimeoutMs?: number;
  /** Which validator errors are not refused (default none; see {@link DerivationOptions}). */
  tolerates?: DerivationOptions['tolerates'];
}

/** A derivation endpoint independent of its transport: the body in, `{payment}` or `{error}` out. */
export interface WalletCore {
  /** Derives from one harness body (already parsed). */
  derive(body: unknown): Promise<DerivationResult>;
  /** Releases the CPR fetcher's connections. */
  close(): Promise<void>;
}

/**
 * The derivation behind both harness forms: {@link derivePayment} with an HTTPS fetcher that
 * trusts `trustedCaPems`, the configured rails and clock.
 *
 * @example
 * ```ts
 * const core = createWalletCore({ trustedCaPems: [caPem] });
 * const result = await core.derive({ uri, context });
 * await core.close();
 * ```
 */
export function createWalletCore(options: WalletCoreOptions): WalletCore {
  // The timeout's default is the fetcher's; the rails' and the clock's are set here.
  const fetcher = createHttpsCprFetcher({
    trustedCaPems: options.trustedCaPems,
    timeoutMs: options.fetchTimeoutMs,
  });
  return {
    derive: (body) =>
      derivePayment(body as Parameters<typeof derivePayment>[0], {
        now: options.clock?.() ?? new Date(),
        supportedRails: options.supportedRails ?? DEFAULT_SUPPORTED_RAILS,
        fetchCpr: fetcher.fetchCpr,
        tolerates: options.tolerates,
      }),
    close: () => fetcher.close(),
  };
}
