/**
 * `npm run bench` (race part): how tightly a 32-request race reaches a target on loopback.
 *
 * A loopback HTTPS server (in a worker thread, so its event loop is not the client's) stamps
 * every request with the instant it was complete there (`process.hrtime`, one clock for the
 * whole process) and answers at once. Twenty bursts of 32 requests, GET (as a token retrieval)
 * and POST (as a redeem, renew or fulfillment), each sent two ways:
 *
 * - before: the suites' way until issue 11: the driver's warm undici pool (a warm-up burst of
 *   the same width, then `Promise.all` of 32 exchanges), as `suites/payee/5-authentication.ts`
 *   and `suites/operator/cp-3-states.ts` did;
 * - after: {@link burst} over HTTP/1.1: 32 connections opened first, every request held one
 *   byte short, all last bytes released in one loop;
 * - after, h2: {@link burst} when the target speaks h2: one connection, 32 streams held before
 *   END_STREAM, all final frames in one write (single packet).
 *
 * Printed per way: the spread of the instants the requests' last bytes left the client (undici's
 * `undici:request:bodySent` diagnostics channel before; the burst's own stamps after; for h2 the
 * streams' ends, handed to the session in one tick) and the
 * spread of the instants the server had them complete, median and worst over the 20 bursts.
 * @packageDocumentation
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { createSecureServer } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { burst } from '../src/drivers/burst.js';
import { HttpClient, type HttpRequest, type HttpResponse } from '../src/drivers/http.js';
import { createLoopbackPki } from '../src/loopback/tls.js';

const WIDTH = 32;
const BURSTS = 20;

/** The server of the worker: answers `{"at": "<hrtime ns when the request was complete>"}`. */
function serve(cert: string, key: string): void {
  // HTTP/1.1 for the pool and the HTTP/1.1 burst, h2 for the single-packet burst (ALPN)
  const server = createSecureServer({ cert, key, allowHTTP1: true }, (req, res) => {
    req.resume();
    req.on('end', () => {
      const at = process.hrtime.bigint().toString();
      // answered on the next turn, as a target whose handler awaits its store: the stamps then
      // measure delivery, not this server writing one answer before reading the next request
      setImmediate(() => {
        const text = JSON.stringify({ at });
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
        res.end(text);
      });
    });
  });
  server.listen(0, '127.0.0.1', () => {
    parentPort?.postMessage((server.address() as AddressInfo).port);
  });
}

/** Max minus min, in ms, of hrtime instants (ns). */
function spreadMs(instants: readonly bigint[]): number {
  if (instants.length < 2) return 0;
  let lo = instants[0] as bigint;
  let hi = lo;
  for (const t of instants) {
    if (t < lo) lo = t;
    if (t > hi) hi = t;
  }
  return Number(hi - lo) / 1e6;
}

/** Server-side completion instants carried by the answers. */
function serverInstants(responses: readonly (HttpResponse | undefined)[]): bigint[] {
  return responses.map((r) => {
    const at = (r?.json as { at?: string } | undefined)?.at;
    if (r?.status !== 200 || typeof at !== 'string') {
      throw new Error(`bench: the loopback server gave no usable answer (${r?.status ?? 'none'})`);
    }
    return BigInt(at);
  });
}

interface Sample {
  client: number;
  server: number;
}

function summary(samples: readonly Sample[], pick: (s: Sample) => number): { median: number; worst: number } {
  const xs = samples.map(pick).sort((a, b) => a - b);
  const mid = Math.floor(xs.length / 2);
  const median = xs.length % 2 ? (xs[mid] as number) : ((xs[mid - 1] as number) + (xs[mid] as number)) / 2;
  return { median, worst: xs[xs.length - 1] as number };
}

/** One burst the suites' old way: warm the pool with a burst of the same width, then Promise.all. */
async function pooled(http: HttpClient, make: () => HttpRequest): Promise<Sample> {
  await Promise.all(Array.from({ length: WIDTH }, () => http.exchange(make())));
  const sent: bigint[] = [];
  const onSent = (): void => {
    sent.push(process.hrtime.bigint());
  };
  subscribe('undici:request:bodySent', onSent);
  try {
    const answers = await Promise.all(Array.from({ length: WIDTH }, () => http.exchange(make())));
    if (sent.length !== WIDTH) throw new Error(`bench: saw ${sent.length} requests leave, not ${WIDTH}`);
    return { client: spreadMs(sent), server: spreadMs(serverInstants(answers)) };
  } finally {
    unsubscribe('undici:request:bodySent', onSent);
  }
}

/** One last-byte-synchronised burst, over HTTP/1.1 or (single packet) h2. */
async function synced(ca: string, make: () => HttpRequest, http2: boolean): Promise<Sample> {
  const out = await burst(
    Array.from({ length: WIDTH }, () => make()),
    { ca, http2 },
  );
  if (out.protocol !== (http2 ? 'h2' : 'http/1.1')) throw new Error(`bench: the burst spoke ${out.protocol}`);
  const failed = out.results.find((r) => r.error !== undefined);
  if (failed?.error) throw failed.error;
  return { client: out.spreadMs, server: spreadMs(serverInstants(out.results.map((r) => r.response))) };
}

const fmt = (n: number): string => `${n.toFixed(3).padStart(8)} ms`;

async function main(): Promise<void> {
  const pki = await createLoopbackPki();
  const worker = new Worker(new URL(import.meta.url), {
    workerData: { cert: pki.server.certPem, key: pki.server.keyPem },
  });
  const port = await new Promise<number>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  const base = `https://127.0.0.1:${port}`;
  const ca = pki.ca.certPem;
  const kinds: Array<{ name: string; make: () => HttpRequest }> = [
    { name: 'GET (retrieval)', make: () => ({ method: 'GET', url: `${base}/cpr/race` }) },
    {
      name: 'POST (redeem, renew, fulfil)',
      make: () => ({ method: 'POST', url: `${base}/v1/cashpack/redeem`, json: { pad: 'r'.repeat(600) } }),
    },
  ];
  console.log(
    `race bench: spread of a ${WIDTH}-request burst on loopback HTTPS, median and worst of ${BURSTS} bursts`,
  );
  console.log('  client = last bytes leaving the client; server = requests complete at the server');
  try {
    for (const kind of kinds) {
      const before: Sample[] = [];
      const after: Sample[] = [];
      const afterH2: Sample[] = [];
      const http = new HttpClient({ ca, timeoutMs: 10_000 });
      try {
        // one untimed round of each to warm the JIT and the server
        await pooled(http, kind.make);
        await synced(ca, kind.make, false);
        await synced(ca, kind.make, true);
        for (let i = 0; i < BURSTS; i++) {
          // interleaved, so every way sees the same machine load
          before.push(await pooled(http, kind.make));
          after.push(await synced(ca, kind.make, false));
          afterH2.push(await synced(ca, kind.make, true));
        }
      } finally {
        await http.close();
      }
      console.log(`\n  ${kind.name}`);
      console.log(`    ${'way'.padEnd(48)} ${'median'.padStart(11)} ${'worst'.padStart(11)}`);
      for (const [way, samples] of [
        ['before: warm undici pool + Promise.all', before],
        ['after:  last-byte sync, HTTP/1.1', after],
        ['after:  single packet, h2', afterH2],
      ] as const) {
        for (const [side, pick] of [
          ['client', (s: Sample) => s.client],
          ['server', (s: Sample) => s.server],
        ] as const) {
          const { median, worst } = summary(samples, pick);
          console.log(`    ${`${way} (${side})`.padEnd(48)} ${fmt(median)} ${fmt(worst)}`);
        }
      }
    }
  } finally {
    await worker.terminate();
  }
}

if (isMainThread) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
} else {
  const { cert, key } = workerData as { cert: string; key: string };
  serve(cert, key);
}
