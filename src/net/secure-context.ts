/**
 * One TLS client context per trusted CA, shared by every connection the suite opens that trusts
 * it. `tls.connect` given `ca` builds a new context (the CA parsed again) for each connection;
 * a run opens hundreds (the drivers' pools, every race's burst).
 *
 * @packageDocumentation
 */
import { createSecureContext, type SecureContext } from 'node:tls';

/** By CA text; a run trusts one or two CAs, so a handful at most (dropped whole past 64). */
const contexts = new Map<string, SecureContext>();

/**
 * The client context that trusts `ca` (PEM), or Node's default trust store when `ca` is absent,
 * as `tls.connect({ ca })` would build it; built once per CA and process.
 * @example
 * ```ts
 * tls.connect({ host: '127.0.0.1', port: 8443, secureContext: clientSecureContext(caPem) });
 * ```
 */
export function clientSecureContext(ca: string | Buffer | undefined): SecureContext {
  const key = ca === undefined ? '' : `ca:${ca.toString()}`;
  let context = contexts.get(key);
  if (context === undefined) {
    context = createSecureContext(ca === undefined ? {} : { ca });
    if (contexts.size >= 64) contexts.clear();
    contexts.set(key, context);
  }
  return context;
}
