// Helpers of the wallet harness tests: a mock payee serving CPRs by token (spec 4.1, profile
// section 2), and valid CPRs whose validity window is around the real clock.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { ServerCertificate } from '../../src/loopback/tls.js';

/** A mock payee: `GET /cpr/{token}` serves each offered CPR once, then 410; unknown tokens 404. */
export interface MockPayee {
  baseUrl: string;
  /** Offers a CPR under a fresh token; returns the reference URI. */
  offer(cpr: unknown): string;
  /** How many retrievals each token saw. */
  hits: Map<string, number>;
  close(): Promise<void>;
}

export async function startMockPayee(tls: ServerCertificate): Promise<MockPayee> {
  const offers = new Map<string, unknown>();
  const hits = new Map<string, number>();
  const server: Server = createServer({ cert: tls.certPem, key: tls.keyPem }, (req, res) => {
    const match = /^\/cpr\/([0-9a-f]+)$/.exec(req.url ?? '');
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (!match?.[1] || !hits.has(match[1])) {
      send(404, { error: { code: 'TOKEN_UNKNOWN', message: 'never issued' } });
      return;
    }
    const token = match[1];
    const seen = hits.get(token) ?? 0;
    hits.set(token, seen + 1);
    if (seen > 0) {
      send(410, { error: { code: 'TOKEN_CONSUMED', message: 'already used' } });
      return;
    }
    send(200, offers.get(token));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    hits,
    offer(cpr) {
      const token = randomBytes(16).toString('hex');
      offers.set(token, cpr);
      hits.set(token, 0);
      return `cpr://${token}?endpoint=${encodeURIComponent(baseUrl)}`;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Sets created_at / expires_at of a CPR around the real clock (the stdio wallet uses it). */
export function aroundNow(cpr: Record<string, unknown>, expiresInSeconds = 600): Record<string, unknown> {
  const now = Date.now();
  return {
    ...cpr,
    created_at: new Date(now - 60_000).toISOString(),
    expires_at: new Date(now + expiresInSeconds * 1000).toISOString(),
  };
}
