/**
 * The reference Operator's own configuration (`startReferenceOperator` options): the policy and
 * balance options it refuses, the defaults it documents, listening, the optional test clock and
 * the body limit. Code only the reference's configuration reaches, which the conformance suite
 * (run against the default stack) cannot observe; the mutation run judges it by these tests.
 */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CprcError } from '../../../src/errors.js';
import { createLoopbackPki, type LoopbackPki } from '../../../src/loopback/tls.js';
import {
  DEFAULT_POLICY,
  OperatorError,
  ReferenceOperator,
  startReferenceOperator,
} from '../../../src/reference/operator/index.js';
import { balance, resolvePolicy } from '../../../src/reference/operator/server.js';
import type { Policy } from '../../../src/reference/operator/types.js';
import { getSchemaValidator } from '../../../src/schemas/registry.js';
import { createRecordingClient, type RecordingClient } from '../../_support/https.js';

/** Expects `fn` to throw `CPRC_CONFIG_INVALID` with a message naming `name`. */
function expectConfigError(fn: () => unknown, name: string): void {
  let thrown: unknown;
  try {
    fn();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(CprcError);
  expect((thrown as CprcError).code).toBe('CPRC_CONFIG_INVALID');
  expect((thrown as CprcError).message).toContain(`"${name}"`);
}

describe('resolvePolicy: the policy option', () => {
  it('is the default policy without overrides', () => {
    expect(resolvePolicy(undefined)).toEqual(DEFAULT_POLICY);
  });

  const counts = [
    'min_expiry_seconds',
    'max_expiry_seconds',
    'max_chain_depth',
    'required_identity_level',
  ] as const;
  it.each(counts)('refuses a %s that is not a non-negative safe integer', (key) => {
    for (const bad of [-1, 1.5, Number.NaN, 2 ** 53, '5'] as unknown[]) {
      const overrides = { [key]: bad, ...(key === 'min_expiry_seconds' ? {} : { min_expiry_seconds: 0 }) };
      expectConfigError(() => resolvePolicy(overrides as Partial<Policy>), key);
    }
  });

  it('takes 0 for min_expiry_seconds, max_expiry_seconds and max_chain_depth', () => {
    const p = resolvePolicy({ min_expiry_seconds: 0, max_expiry_seconds: 0, max_chain_depth: 0 });
    expect([p.min_expiry_seconds, p.max_expiry_seconds, p.max_chain_depth]).toEqual([0, 0, 0]);
  });

  it('refuses a max_amount that is not a digit string without leading zero', () => {
    for (const bad of ['', '0', '0100', '100x', 'x100', '-5', ' 12', '1.5']) {
      expectConfigError(() => resolvePolicy({ max_amount: bad }), 'max_amount');
    }
    expect(resolvePolicy({ max_amount: '1' }).max_amount).toBe('1');
  });

  it('refuses min_expiry_seconds above max_expiry_seconds and takes them equal', () => {
    expectConfigError(
      () => resolvePolicy({ min_expiry_seconds: 61, max_expiry_seconds: 60 }),
      'min_expiry_seconds',
    );
    expect(resolvePolicy({ min_expiry_seconds: 60, max_expiry_seconds: 60 }).max_expiry_seconds).toBe(60);
  });

  it('refuses required_identity_level 0 and takes 1', () => {
    expectConfigError(() => resolvePolicy({ required_identity_level: 0 }), 'required_identity_level');
    expect(resolvePolicy({ required_identity_level: 1 }).required_identity_level).toBe(1);
  });

  it('refuses assets that are not a non-empty list', () => {
    expectConfigError(() => resolvePolicy({ assets: [] as unknown as Policy['assets'] }), 'assets');
    expectConfigError(() => resolvePolicy({ assets: 'EUR' as unknown as Policy['assets'] }), 'assets');
  });

  it('refuses a signature_alg other than EdDSA', () => {
    expectConfigError(() => resolvePolicy({ signature_alg: 'ES256' as 'EdDSA' }), 'signature_alg');
  });
});

describe('balance: the balances option', () => {
  it('takes digit strings without leading zero, and 0', () => {
    expect(balance('100', '5', 'funded')).toBe(100n);
    expect(balance('0', '5', 'funded')).toBe(0n);
    expect(balance(undefined, '5', 'funded')).toBe(5n);
  });

  it('refuses anything else, naming the balance', () => {
    for (const bad of ['', '01', '00', '-0', '-5', ' 12', '12 ', '12a', 'a12', '1e3', '0x10']) {
      expectConfigError(() => balance(bad, '5', 'low_balance'), 'low_balance');
    }
  });
});

describe('startReferenceOperator', () => {
  let pki: LoopbackPki;
  let client: RecordingClient;
  beforeAll(async () => {
    pki = await createLoopbackPki();
    client = createRecordingClient({ ca: pki.ca.certPem });
  });
  afterAll(async () => {
    await client.close();
  });

  it('refuses a bad balance option naming it', async () => {
    for (const name of ['funded', 'low_balance'] as const) {
      await expect(startReferenceOperator({ tls: pki.server, balances: { [name]: '01' } })).rejects.toThrow(
        `"${name}"`,
      );
    }
  });

  it('gives fresh identities a run configuration accepts: two principals, distinct secrets (run-config schema)', async () => {
    const op = await startReferenceOperator({ tls: pki.server });
    const again = await startReferenceOperator({ tls: pki.server });
    try {
      const operator = { base_url: op.baseUrl, harness_url: op.harnessUrl, ...op.identities };
      const validate = getSchemaValidator('tool/run-config');
      const config = { tls: { ca_file: 'ca.pem' }, operator };
      expect(validate(config), JSON.stringify(validate.errors)).toBe(true);
      const { principals, redeemer_identity_tokens: tokens, operator_status_credential } = op.identities;
      expect(principals.funded.principal_id).not.toBe(principals.low_balance.principal_id);
      const secrets = [
        principals.funded.status_credential,
        principals.low_balance.status_credential,
        tokens.sufficient,
        tokens.insufficient,
        operator_status_credential,
      ];
      for (const s of secrets) expect(s).toMatch(/^[A-Za-z0-9_-]{32}$/); // 24 random bytes, base64url
      expect(new Set(secrets).size).toBe(secrets.length);
      // fresh per start
      expect(again.identities.redeemer_identity_tokens.sufficient).not.toBe(tokens.sufficient);
    } finally {
      await op.close();
      await again.close();
    }
  });

  it('opens the default balances and reports them in ledger()', async () => {
    const op = await startReferenceOperator({ tls: pki.server });
    try {
      const { funded, low_balance } = op.identities.principals;
      expect(low_balance.available_balance).toBe('5000');
      // the whole snapshot: every principal, every asset, every bucket as a digit string
      expect(op.ledger()).toEqual({
        accounts: {
          [funded.principal_id]: { 'fiat:EUR:': { available: '100000000', locked: '0', redeemedOut: '0' } },
          [low_balance.principal_id]: { 'fiat:EUR:': { available: '5000', locked: '0', redeemedOut: '0' } },
        },
      });
    } finally {
      await op.close();
    }
  });

  it('listens on the port asked, and refuses a port in use', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      await expect(startReferenceOperator({ tls: pki.server, port })).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
    const op = await startReferenceOperator({ tls: pki.server, port });
    try {
      expect(op.baseUrl).toBe(`https://127.0.0.1:${port}`);
    } finally {
      await op.close();
    }
  });

  it('writes an IPv6 host in brackets in its base URL', async () => {
    const op = await startReferenceOperator({ tls: pki.server, host: '::1' });
    try {
      expect(op.baseUrl).toMatch(/^https:\/\/\[::1\]:[0-9]+$/);
      expect((await client.get(`${op.baseUrl}/.well-known/cashpack-policy.json`)).status).toBe(200);
    } finally {
      await op.close();
    }
  });

  it('offers the test clock by default and with testClock true; testClock false answers 404', async () => {
    for (const [testClock, status] of [
      [undefined, 200],
      [true, 200],
      [false, 404],
    ] as const) {
      const op = await startReferenceOperator({
        tls: pki.server,
        ...(testClock === undefined ? {} : { testClock }),
      });
      try {
        const r = await client.post(`${op.harnessUrl}/clock`, { advance_seconds: 1 });
        expect(r.status, `testClock ${testClock}`).toBe(status);
      } finally {
        await op.close();
      }
    }
  });

  it('takes a body of 65536 bytes by default and refuses one byte more', async () => {
    const op = await startReferenceOperator({ tls: pki.server });
    try {
      const url = `${op.baseUrl}/v1/cashpack/issue`;
      const at = await client.request('POST', url, { text: `{}${' '.repeat(65_534)}` });
      // read whole (a missing signature: 401), not refused for its size
      expect(at.text).not.toContain('exceeds');
      const over = await client.request('POST', url, { text: `{}${' '.repeat(65_535)}` });
      expect(over.status).toBe(400);
      expect(over.body).toEqual({
        error: { code: 'INVALID_REQUEST', message: 'request body exceeds 65536 bytes' },
      });
    } finally {
      await op.close();
    }
  });

  it('honours maxBodyBytes, counting every chunk', async () => {
    const op = await startReferenceOperator({ tls: pki.server, maxBodyBytes: 10 });
    try {
      const url = `${op.baseUrl}/v1/cashpack/issue`;
      expect((await client.request('POST', url, { text: '{}        ' })).text).not.toContain('exceeds');
      expect((await client.request('POST', url, { text: '{}         ' })).text).toContain('exceeds 10 bytes');
    } finally {
      await op.close();
    }
  });

  it('answers a defect of the Operator (an error that is no refusal of the profile table) 500 with the error body, never a crash', async () => {
    // an OperatorError whose status is not the table's, and an Error carrying an HTTP status, are
    // defects too: only an OperatorError with its table status is a refusal
    const defects: unknown[] = [
      new Error('boom'),
      Object.assign(new Error('not a refusal'), { status: 400 }),
      Object.assign(new OperatorError('INVALID_REQUEST', 'x'), { status: undefined }),
    ];
    for (const defect of defects) {
      class DefectiveOperator extends ReferenceOperator {
        override async issue(): Promise<never> {
          throw defect;
        }
      }
      const op = await startReferenceOperator({ tls: pki.server, operatorClass: DefectiveOperator });
      try {
        const r = await client.post(`${op.baseUrl}/v1/cashpack/issue`, {});
        expect(r.status).toBe(500);
        expect(r.headers['content-type']).toBe('application/json');
        expect(r.body).toEqual({
          error: { code: 'INTERNAL_ERROR', message: 'the reference operator failed unexpectedly' },
        });
        // the Operator goes on serving
        expect((await client.get(`${op.baseUrl}/.well-known/cashpack-policy.json`)).status).toBe(200);
      } finally {
        await op.close();
      }
    }
  });
});
