// A small HTTP(S) server frame shared by the three targets: routing, body
// reading, JSON parsing and the profile's error body.

import http from 'node:http';
import https from 'node:https';
import { JsonSyntaxError, parseJson } from './json.mjs';

const MAX_BODY_BYTES = 1024 * 1024;

/** An error answered with the profile's error body. */
export class HttpError extends Error {
  constructor(status, code, message, extra = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.extra = extra;
  }
}

export const badRequest = (message) => new HttpError(400, 'INVALID_REQUEST', message);

/** The profile's error body; `extra` members go beside `code` and `message` (used by one fault only). */
export function errorBody(code, message, extra = {}) {
  return { error: { code, message, ...extra } };
}

function send(res, status, body, headers = {}) {
  if (body === undefined) {
    res.writeHead(status, { 'Content-Length': 0, ...headers });
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(text);
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new HttpError(413, 'PAYLOAD_TOO_LARGE', 'request body over 1 MiB'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * Parse a request body as a JSON object. Malformed JSON, duplicate member
 * names, or a top level that is not an object: 400 INVALID_REQUEST.
 */
export function jsonObjectBody(raw) {
  const text = raw.toString('utf8');
  let parsed;
  try {
    parsed = parseJson(text);
  } catch (err) {
    if (err instanceof JsonSyntaxError) throw badRequest(`body is not JSON: ${err.message}`);
    throw err;
  }
  if (parsed.duplicates.length > 0) throw badRequest('body repeats a member name');
  const v = parsed.value;
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw badRequest('body is not a JSON object');
  return v;
}

/**
 * Start a server on 127.0.0.1, port 0.
 * routes: [{ method, path: RegExp (matched against the raw path), handler }]
 * handler(ctx) -> { status, body, headers? }; ctx = { req, params, query, rawBody() , json() }.
 * options.errorContentType overrides the Content-Type of error answers (one fault).
 * options.unmatched(req) may answer a request no route matches (used by faults).
 */
export async function startServer({ tls = null, routes, name, errorContentType = null, unmatched = null }) {
  const handle = async (req, res) => {
    const rawUrl = req.url ?? '/';
    const q = rawUrl.indexOf('?');
    const path = q === -1 ? rawUrl : rawUrl.slice(0, q);
    const query = q === -1 ? '' : rawUrl.slice(q + 1);
    const fail = (err) => {
      const status = err instanceof HttpError ? err.status : 500;
      const code = err instanceof HttpError ? err.code : 'INTERNAL_ERROR';
      const message = err instanceof HttpError ? err.message : 'internal error';
      const extraHeaders = err instanceof HttpError && err.extra.headers ? err.extra.headers : {};
      const body = errorBody(code, message, err instanceof HttpError ? (err.extra.body ?? {}) : {});
      if (!(err instanceof HttpError)) console.error(`[${name}]`, err);
      send(res, status, body, {
        ...extraHeaders,
        ...(errorContentType ? { 'Content-Type': errorContentType } : {}),
      });
    };
    try {
      const matching = [];
      let params = null;
      for (const route of routes) {
        const m = route.path.exec(path);
        if (!m) continue;
        matching.push(route);
        if (route.method === req.method && params === null) params = { route, groups: m.slice(1) };
      }
      if (params === null) {
        req.resume();
        if (unmatched) {
          const answer = await unmatched({ req, path, query });
          if (answer) {
            send(res, answer.status, answer.body, answer.headers);
            return;
          }
        }
        if (matching.length === 0) throw new HttpError(404, 'NOT_FOUND', 'no such endpoint');
        const allow = [...new Set(matching.map((r) => r.method))].join(', ');
        throw new HttpError(405, 'METHOD_NOT_ALLOWED', `this endpoint takes ${allow}`, {
          headers: { Allow: allow },
        });
      }
      let bodyPromise = null;
      const rawBody = () => {
        bodyPromise ??= readBody(req);
        return bodyPromise;
      };
      const ctx = {
        req,
        path,
        query,
        params: params.groups,
        rawBody,
        json: async () => jsonObjectBody(await rawBody()),
      };
      const answer = await params.route.handler(ctx);
      if (!bodyPromise) req.resume();
      send(res, answer.status, answer.body, answer.headers);
    } catch (err) {
      fail(err);
    }
  };

  const server = tls
    ? https.createServer({ key: tls.key, cert: tls.cert }, (req, res) => void handle(req, res))
    : http.createServer((req, res) => void handle(req, res));
  server.keepAliveTimeout = 1000;
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address();
  const origin = `${tls ? 'https' : 'http'}://127.0.0.1:${port}`;
  return {
    server,
    port,
    origin,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
