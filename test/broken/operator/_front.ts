/**
 * Starts the reference Operator behind a front: an HTTPS server on 127.0.0.1 (same throwaway CA)
 * that hands every request to the reference unchanged, except those a fault answers itself. For
 * faults of the HTTP layer (routing, methods, body limits) that no Operator subclass reaches.
 */
import { once } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { createServer, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createLoopbackPki, writeCaFile } from '../../../src/loopback/tls.js';
import { ReferenceOperator, startReferenceOperator } from '../../../src/reference/operator/index.js';
import type { StartedBroken } from '../types.js';

/** What the front's fault answers instead of the reference (status, content type, body text). */
export interface FrontAnswer {
  status: number;
  contentType: string;
  body: string;
  /** More headers of the answer (e.g. `allow`). */
  headers?: Record<string, string>;
}

/**
 * The fault: sees each request (method, path, whole body) and returns its own answer, or
 * undefined to pass the request to the reference.
 */
export type FrontFault = (req: IncomingMessage, path: string, body: Buffer) => FrontAnswer | undefined;

/**
 * Starts the reference Operator (defaults) behind a front carrying `fault`, and writes the CA
 * file into `workDir`.
 * @example
 * ```ts
 * const started = await startFrontedOperator(workDir, (req) =>
 *   req.method === 'PUT' ? { status: 405, contentType: 'text/plain', body: 'no' } : undefined,
 * );
 * ```
 */
export async function startFrontedOperator(workDir: string, fault: FrontFault): Promise<StartedBroken> {
  const { ca, server } = await createLoopbackPki();
  const caFile = join(workDir, 'ca.pem');
  await writeCaFile(caFile, ca);
  const running = await startReferenceOperator({ tls: server, operatorClass: ReferenceOperator });
  const back = new URL(running.baseUrl);
  const front = createServer({ cert: server.certPem, key: server.keyPem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const path = new URL(String(req.url), 'https://front.invalid').pathname;
      const own = fault(req, path, body);
      if (own !== undefined) {
        res.writeHead(own.status, {
          ...own.headers,
          'content-type': own.contentType,
          'content-length': Buffer.byteLength(own.body),
        });
        res.end(own.body);
        return;
      }
      const headers = { ...req.headers, host: back.host, 'content-length': String(body.length) };
      const out = httpsRequest(
        { host: back.hostname, port: back.port, method: req.method, path: req.url, headers, ca: ca.certPem },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      out.on('error', () => res.destroy());
      out.end(body);
    });
  });
  front.listen(0, '127.0.0.1');
  await once(front, 'listening');
  const baseUrl = `https://127.0.0.1:${(front.address() as AddressInfo).port}`;
  return {
    config: {
      tls: { ca_file: caFile },
      timeouts: { request_ms: 10_000 },
      operator: {
        base_url: baseUrl,
        harness_url: `${baseUrl}/harness`,
        ...structuredClone(running.identities),
      },
    },
    close: async () => {
      front.closeAllConnections();
      await new Promise<void>((resolve) => front.close(() => resolve()));
      await running.close();
    },
  };
}
