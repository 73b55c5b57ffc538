import type { ServerResponse } from 'node:http';
import { ReferencePayee } from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenPayee } from './_start.js';

/** Profile 2 broken (token lifetime capped at the payee's maximum): one second over is granted. */
class OffByOneTtlPayee extends ReferencePayee {
  protected override createRequest(body: unknown, res: ServerResponse): Promise<void> {
    const asked = (body as { token_ttl_seconds?: unknown } | null)?.token_ttl_seconds;
    if (asked !== this.maxTokenTtlSeconds + 1) return super.createRequest(body, res);
    // the fault: the cap applies only from two seconds over it
    const cap = this.maxTokenTtlSeconds;
    Object.defineProperty(this, 'maxTokenTtlSeconds', { value: asked, configurable: true });
    try {
      return super.createRequest(body, res); // the token is issued before the first await
    } finally {
      Object.defineProperty(this, 'maxTokenTtlSeconds', { value: cap, configurable: true });
    }
  }
}

/** token_ttl_seconds one over the cap is granted. */
export const tokenTtlCapOffByOne: BrokenImplementation = {
  id: 'payee-token-ttl-cap-off-by-one',
  target: 'payee',
  fault: 'token_ttl_seconds one second over the payee’s cap is granted instead of capped',
  expected: ['PRF-2-HARNESS-TOKEN-TTL'],
  start: ({ workDir }) => startBrokenPayee(workDir, {}, OffByOneTtlPayee),
};
