/**
 * A hostile target of our own: an HTTPS server on 127.0.0.1 that stands in front of a real
 * implementation (the reference payee, wallet or Operator) and misbehaves on every answer in one
 * chosen way (one mode per misbehaviour a real staging system can show). The preflight probes
 * (GET of the configured base and harness URLs) pass through untouched, so every mode reaches the
 * checks themselves; `healthyRequests` lets the first answers through too (a target that dies
 * mid-run).
 */

import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, type Server } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { Agent, request } from 'undici';

/** Every misbehaviour the double can show. */
export const MODES = [
  'hang',
  'drip-body',
  'slow-headers',
  'reset',
  'half-close',
  'huge-body',
  'invalid-json',
  'truncated-json',
  'wrong-content-type',
  'redirect-to-http',
  'redirect-loop',
  'server-error',
  'giant-headers',
  'duplicate-headers',
  'http-1.0',
  'gzip-bomb',
  'deep-json',
  'html-script',
  'unicode-garbage',
  'echo-secrets',
  'dies-mid-run',
] as const;

/** One misbehaviour. */
export type Mode = (typeof MODES)[number];

/** What the double appends to every string of a JSON answer in `html-script` mode. */
export const SCRIPT_TEXT = `</pre></code><script>document.title='pwned'</script><img src=x onerror="alert(1)"><a href="javascript:alert(2)">x</a>`;
/**
 * What the double appends to every string in `unicode-garbage` mode: noncharacters, two lone
 * surrogates (low before high: no pair), bidi overrides and isolates, U+2028/2029, C1 controls
 * (NEL, CSI), an ANSI escape sequence, BEL and NUL.
 */
export const UNICODE_TEXT =
  '\uFFFE\uFFFF\uDFFF\uD800\u202E\u2066gnp.exe\u2069\u2028\u2029\u0085\u009B31m\u001B[2J\u001B]0;x\u0007\u0000';

/** Depth of the JSON answered in `deep-json` mode. */
export const DEEP = 100_000;
/** Size of the body answered in `huge-body` mode (200 MiB). */
export const HUGE_BYTES = 200 * 1024 * 1024;

/** Options of {@link startHostileDouble}. */
export interface HostileDoubleOptions {
  /** Certificate and key of the HTTPS listener. */
  tls: { certPem: string; keyPem: string };
  /** Origin of the real implementation behind the double (`https://127.0.0.1:port`). */
  upstream: string;
  /** CA that signed the upstream's certificate. */
  upstreamCa: string;
  /** The misbehaviour. */
  mode: Mode;
  /** Paths whose GET passes through untouched (the configured base and harness URLs: preflight). */
  passPaths: string[];
  /** In `dies-mid-run`: answers passed through before the double stops answering (default 30). */
  healthyRequests?: number;
}

/** A running double. */
export interface HostileDouble {
  /** `https://127.0.0.1:port` of the double. */
  url: string;
  /** `http://127.0.0.1:port` of its plain-HTTP twin (target of `redirect-to-http`). */
  plainUrl: string;
  /** Requests received (preflight included). */
  requests: number;
  /** Answers it misbehaved on. */
  hostile: number;
  /** When it stopped answering (`dies-mid-run`), as `Date.now()`. */
  diedAt?: number;
  close(): Promise<void>;
}

interface Upstream {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

const HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host', 'upgrade']);

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Appends `suffix` to every string (member names left alone) of a JSON value. */
function poisonStrings(value: unknown, suffix: string): unknown {
  if (typeof value === 'string') return value + suffix;
  if (Array.isArray(value)) return value.map((v) => poisonStrings(v, suffix));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = poisonStrings(v, suffix);
    return out;
  }
  return value;
}

let bomb: Buffer | undefined;
/** 64 MiB of zeros, gzipped (about 64 KiB on the wire). */
function gzipBomb(): Buffer {
  bomb ??= gzipSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 });
  return bomb;
}

/**
 * Starts a hostile double in front of `upstream`.
 * @example
 * ```ts
 * const d = await startHostileDouble({ tls, upstream, upstreamCa, mode: 'hang', passPaths: ['/'] });
 * ```
 */
export async function startHostileDouble(options: HostileDoubleOptions): Promise<HostileDouble> {
  const agent = new Agent({ connect: { ca: options.upstreamCa } });
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const pass = new Set(options.passPaths.map((p) => p.replace(/\/+$/, '') || '/'));
  const healthy = options.healthyRequests ?? 30;

  const forward = async (req: IncomingMessage, body: Buffer): Promise<Upstream> => {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) {
      if (!HOP.has(k) && typeof v === 'string') headers[k] = v;
    }
    const r = await request(`${options.upstream}${req.url ?? '/'}`, {
      method: (req.method ?? 'GET') as 'GET',
      headers,
      ...(body.length > 0 ? { body } : {}),
      dispatcher: agent,
    });
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(r.headers)) {
      if (!HOP.has(k) && v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
    }
    // the upstream names itself in answers (reference URIs): it names the double instead, so
    // every later request comes back through the double
    let text = Buffer.from(await r.body.arrayBuffer()).toString('utf8');
    for (const [from, to] of [
      [options.upstream, state.url],
      [encodeURIComponent(options.upstream), encodeURIComponent(state.url)],
    ] as const) {
      text = text.split(from).join(to);
    }
    return { status: r.statusCode, headers: out, body: Buffer.from(text, 'utf8') };
  };
  const send = (res: ServerResponse, up: Upstream, override: Partial<Upstream> = {}): void => {
    const a = { ...up, ...override };
    res.writeHead(a.status, { ...a.headers, 'content-length': String(a.body.length) });
    res.end(a.body);
  };
  const later = (ms: number, fn: () => void): void => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };
  const poisonJson = (up: Upstream, suffix: string): Upstream => {
    try {
      const json = JSON.parse(up.body.toString('utf8')) as unknown;
      return { ...up, body: Buffer.from(JSON.stringify(poisonStrings(json, suffix)), 'utf8') };
    } catch {
      return { ...up, body: Buffer.concat([up.body, Buffer.from(suffix, 'utf8')]) };
    }
  };

  const state: HostileDouble = {
    url: '',
    plainUrl: '',
    requests: 0,
    hostile: 0,
    close: async () => undefined,
  };

  const hostile = async (req: IncomingMessage, body: Buffer, res: ServerResponse): Promise<void> => {
    const socket = req.socket;
    const raw = (text: string | Buffer): void => {
      socket.write(text);
    };
    switch (options.mode) {
      case 'hang':
        return; // never answers
      case 'dies-mid-run':
        if (state.requests > healthy) {
          state.diedAt ??= Date.now();
          return; // stopped answering
        }
        return send(res, await forward(req, body));
      case 'drip-body': {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"cpr_version":"');
        const drip = (): void => {
          if (res.destroyed || res.writableEnded) return;
          res.write('x');
          later(100, drip);
        };
        drip();
        return;
      }
      case 'slow-headers': {
        const head = 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Slow: ';
        let i = 0;
        const step = (): void => {
          if (socket.destroyed) return;
          raw(head[i] ?? 'a');
          i++;
          later(200, step);
        };
        step();
        return;
      }
      case 'reset': {
        // a TCP RST: on a TLS socket the reset goes to the TCP socket beneath it
        const tcp = (socket as Socket & { _parent?: Socket })._parent ?? socket;
        tcp.resetAndDestroy();
        socket.destroy();
        return;
      }
      case 'half-close':
        // FIN without an answer; the socket stays open for reading
        socket.end();
        return;
      case 'huge-body': {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"pad":"');
        const chunk = Buffer.alloc(1024 * 1024, 0x61);
        let sent = 0;
        const pump = (): void => {
          while (sent < HUGE_BYTES && !res.destroyed) {
            sent += chunk.length;
            if (!res.write(chunk)) {
              res.once('drain', pump);
              return;
            }
          }
          if (!res.destroyed) res.end('"}');
        };
        res.on('close', () => {
          sent = HUGE_BYTES;
        });
        pump();
        return;
      }
      case 'invalid-json':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('this is { not: json, ]');
        return;
      case 'truncated-json': {
        const up = await forward(req, body);
        const text = up.body.toString('utf8');
        const cut = Buffer.from(text.slice(0, Math.max(1, Math.floor(text.length / 2))), 'utf8');
        return send(res, up, { body: cut });
      }
      case 'wrong-content-type':
        return send(res, await forward(req, body), {
          headers: { 'content-type': 'text/html; charset=utf-8' },
        });
      case 'redirect-to-http':
        res.writeHead(302, { location: `${state.plainUrl}${req.url ?? '/'}`, 'content-length': '0' });
        res.end();
        return;
      case 'redirect-loop':
        res.writeHead(307, { location: `${state.url}${req.url ?? '/'}`, 'content-type': 'application/json' });
        res.end('{"error":{"code":"TOKEN_CONSUMED","message":"see elsewhere"}}');
        return;
      case 'server-error': {
        // the upstream's own (profile-looking) body, with a 5xx status
        const up = await forward(req, body);
        return send(res, up, { status: up.status < 300 ? 500 : 503 });
      }
      case 'giant-headers': {
        const up = await forward(req, body);
        res.setHeader('x-giant', 'g'.repeat(64 * 1024));
        return send(res, up);
      }
      case 'duplicate-headers': {
        const up = await forward(req, body);
        res.writeHead(up.status, [
          ['content-type', 'application/json'],
          ['content-type', 'text/html'],
          ['content-length', String(up.body.length)],
          ['x-dup', 'a'],
          ['x-dup', 'b'],
        ]);
        res.end(up.body);
        return;
      }
      case 'http-1.0': {
        // an HTTP/1.0 answer without a length, ended by closing the connection; the body is the
        // upstream's but its status line claims 200 whatever the upstream said
        const up = await forward(req, body);
        raw(`HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n\r\n`);
        raw(up.body);
        socket.end();
        return;
      }
      case 'gzip-bomb':
        res.writeHead(200, {
          'content-type': 'application/json',
          'content-encoding': 'gzip',
          'content-length': String(gzipBomb().length),
        });
        res.end(gzipBomb());
        return;
      case 'deep-json': {
        const text = `${'['.repeat(DEEP)}${']'.repeat(DEEP)}`;
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(text.length) });
        res.end(text);
        return;
      }
      case 'html-script':
        return send(res, poisonJson(await forward(req, body), SCRIPT_TEXT));
      case 'unicode-garbage':
        return send(res, poisonJson(await forward(req, body), UNICODE_TEXT));
      case 'echo-secrets': {
        // echoes what it was sent (Authorization, identity tokens in bodies) into the answer
        const up = await forward(req, body);
        let json: unknown;
        try {
          json = JSON.parse(up.body.toString('utf8'));
        } catch {
          json = up.body.toString('utf8');
        }
        const echoed = {
          ...(json !== null && typeof json === 'object' && !Array.isArray(json) ? json : { answer: json }),
          echo: { authorization: req.headers.authorization ?? null, request: body.toString('utf8') },
        };
        const auth = req.headers.authorization;
        return send(res, up, {
          headers: { ...up.headers, ...(auth ? { 'x-echo-authorization': auth } : {}) },
          body: Buffer.from(JSON.stringify(echoed), 'utf8'),
        });
      }
    }
  };

  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    state.requests++;
    readBody(req)
      .then(async (body) => {
        const path = (req.url ?? '/').split('?')[0]?.replace(/\/+$/, '') || '/';
        if (req.method === 'GET' && pass.has(path) && options.mode !== 'dies-mid-run') {
          return send(res, await forward(req, body));
        }
        if (options.mode !== 'dies-mid-run') state.hostile++;
        return hostile(req, body, res);
      })
      .catch(() => {
        if (!res.headersSent) res.writeHead(502).end();
        else res.destroy();
      });
  };
  const server: Server = createHttpsServer(
    { cert: options.tls.certPem, key: options.tls.keyPem, maxHeaderSize: 64 * 1024 },
    listener,
  );
  const plain = createHttpServer(listener);
  for (const s of [server, plain]) {
    s.on('connection', (sock: Socket) => {
      sockets.add(sock);
      sock.on('close', () => sockets.delete(sock));
    });
    s.on('secureConnection', (sock: Socket) => {
      sockets.add(sock);
      sock.on('close', () => sockets.delete(sock));
    });
  }
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  await new Promise<void>((r) => plain.listen(0, '127.0.0.1', r));
  state.url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.plainUrl = `http://127.0.0.1:${(plain.address() as AddressInfo).port}`;
  state.close = async () => {
    for (const t of timers) clearTimeout(t);
    for (const s of sockets) s.destroy();
    await Promise.all(
      [server, plain].map(
        (s) =>
          new Promise<void>((r) => {
            try {
              s.close(() => r());
            } catch {
              // Node 20 trips over a connection reset under it (closeIdleConnections): it is closed
              r();
            }
          }),
      ),
    );
    await agent.close();
  };
  return state;
}
