import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLoopbackPki, type LoopbackPki } from '../../src/loopback/tls.js';
import {
  createRecordingClient,
  findRoute,
  type RecordingClient,
  type TrafficRoute,
  trafficProblems,
  validateTraffic,
} from './https.js';

const ajv = new Ajv2020({ strict: true });
const schemas: Record<string, object> = {
  thing: {
    type: 'object',
    required: ['name'],
    properties: { name: { type: 'string' } },
    additionalProperties: false,
  },
  error: {
    type: 'object',
    required: ['error'],
    properties: { error: { type: 'object', required: ['code'], properties: { code: { type: 'string' } } } },
  },
};
const resolve = (id: string) => {
  const s = schemas[id];
  if (s === undefined) throw new Error(`unknown schema ${id}`);
  return ajv.compile(s);
};

const ROUTES: TrafficRoute[] = [
  { method: 'GET', path: '/things/:id', status: 200, schema: 'thing' },
  { method: 'GET', path: '/things/:id', status: '4xx', schema: 'error' },
  { method: 'POST', path: '/echo', status: 200, schema: 'thing' },
  { method: 'GET', path: '/raw/*', status: 200, schema: null, reason: 'free text' },
];

describe('test/_support/https: recording client and traffic validation', () => {
  let pki: LoopbackPki;
  let server: Server;
  let base: string;
  let client: RecordingClient;

  beforeAll(async () => {
    pki = await createLoopbackPki();
    server = createServer({ cert: pki.server.certPem, key: pki.server.keyPem }, (req, res) => {
      let data = '';
      req.on('data', (c: Buffer) => {
        data += c.toString('utf8');
      });
      req.on('end', () => {
        const json = (status: number, body: string) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(body);
        };
        if (req.url === '/things/good') return json(200, '{"name":"a"}');
        if (req.url === '/things/extra') return json(200, '{"name":"a","payer":"x"}');
        if (req.url === '/things/notjson') return json(200, 'oops');
        if (req.url === '/things/missing') return json(404, '{"error":{"code":"NOPE","message":"no"}}');
        if (req.url === '/echo') return json(200, data);
        if (req.url?.startsWith('/raw/')) return json(200, 'text');
        return json(500, '{}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    client = createRecordingClient({ ca: pki.ca.certPem });
  });

  afterAll(async () => {
    await client.close();
    await new Promise<void>((r) => server.close(() => r()));
  });

  it('records method, url, request body, status, headers and parsed body', async () => {
    const ex = await client.post(`${base}/echo`, { name: 'ü' });
    expect(ex).toMatchObject({
      method: 'POST',
      url: `${base}/echo`,
      requestBody: { name: 'ü' },
      status: 200,
      body: { name: 'ü' },
    });
    expect(ex.headers['content-type']).toBe('application/json');
    expect(client.exchanges).toContain(ex);
    expect(client.take()).toEqual([ex]);
    expect(client.exchanges).toEqual([]);
  });

  it('passes valid traffic and counts the exchanges checked', async () => {
    await client.get(`${base}/things/good`);
    await client.get(`${base}/things/missing`);
    await client.get(`${base}/raw/a/b`);
    expect(validateTraffic(client.take(), ROUTES, resolve)).toBe(3);
  });

  it('fails listing each exchange whose body does not validate or has no route', async () => {
    await client.get(`${base}/things/good`);
    await client.get(`${base}/things/extra`);
    await client.get(`${base}/things/notjson`);
    await client.get(`${base}/unmapped`);
    const exchanges = client.take();
    const problems = trafficProblems(exchanges, ROUTES, resolve);
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(
      /GET .*\/things\/extra -> 200: body does not validate against thing: .*additional/,
    );
    expect(problems[1]).toMatch(/\/things\/notjson -> 200: body is not JSON/);
    expect(problems[2]).toMatch(/\/unmapped -> 500: no route/);
    expect(() => validateTraffic(exchanges, ROUTES, resolve)).toThrow(/3 recorded response\(s\) break/);
  });

  it('requires a reason for a route without a schema', async () => {
    await client.get(`${base}/raw/x`);
    const routes: TrafficRoute[] = [{ method: 'GET', path: '/raw/*', status: 200, schema: null }];
    expect(trafficProblems(client.take(), routes, resolve)[0]).toMatch(/schema null but no reason/);
  });

  it('matches path patterns and status classes exactly', () => {
    const ex = (url: string, status: number) => ({
      method: 'GET',
      url,
      requestHeaders: {},
      status,
      headers: {},
      text: '',
      body: undefined,
    });
    expect(findRoute(ROUTES, ex('https://h/things/1', 200))?.schema).toBe('thing');
    expect(findRoute(ROUTES, ex('https://h/things/1', 410))?.schema).toBe('error');
    expect(findRoute(ROUTES, ex('https://h/things/1', 500))).toBeUndefined();
    expect(findRoute(ROUTES, ex('https://h/things/1/more', 200))).toBeUndefined();
    expect(findRoute(ROUTES, ex('https://h/things', 200))).toBeUndefined();
  });

  it('records a transport failure and rethrows it', async () => {
    const untrusting = createRecordingClient();
    try {
      await expect(untrusting.get(`${base}/things/good`)).rejects.toThrow();
      const [ex] = untrusting.take();
      expect(ex?.status).toBeUndefined();
      expect(ex?.error).toMatch(/certificate|self[- ]signed|unable/i);
      expect(trafficProblems(ex ? [ex] : [], ROUTES, resolve)).toEqual([]);
    } finally {
      await untrusting.close();
    }
  });

  it('uses the project schema registry by default', async () => {
    await client.get(`${base}/things/good`);
    const routes: TrafficRoute[] = [
      { method: 'GET', path: '/things/:id', status: 200, schema: 'cashpack/uuid' },
    ];
    expect(trafficProblems(client.take(), routes)[0]).toMatch(/does not validate against cashpack\/uuid/);
  });
});
