// The reference wallet's HTTPS harness (profile section 3) over real TLS, with a mock payee for
// reference URIs (spec 4.1, 5). Every answer is validated against its schema.

import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLoopbackPki, type LoopbackPki } from '../../src/loopback/tls.js';
import { type ReferenceWallet, startReferenceWallet } from '../../src/reference/wallet/index.js';
import { getSchemaValidator } from '../../src/schemas/registry.js';
import { context, cprFor, NOW } from '../derivation/fixtures.js';
import { type MockPayee, startMockPayee } from './wallet-helpers.js';

let pki: LoopbackPki;
let wallet: ReferenceWallet;
let payee: MockPayee;
let strangerPayee: MockPayee; // its certificate comes from a CA the wallet does not trust
let client: Agent;

/** An answer of the harness, loosely typed (each test validates it against its schema). */
interface HarnessBody {
  payment?: { value: { amount: string }; payee: Record<string, unknown> };
  error?: { code: string; message: string };
}

beforeAll(async () => {
  pki = await createLoopbackPki();
  const stranger = await createLoopbackPki();
  wallet = await startReferenceWallet({ tls: pki.server, trustedCaPems: [pki.ca.certPem], clock: () => NOW });
  payee = await startMockPayee(pki.server);
  strangerPayee = await startMockPayee(stranger.server);
  client = new Agent({ connect: { ca: pki.ca.certPem } });
});

afterAll(async () => {
  await wallet?.close();
  await payee?.close();
  await strangerPayee?.close();
  await client?.close();
});

async function post(body: string | object, path = '/derive') {
  const res = await request(`${wallet.harnessUrl}${path}`, {
    method: 'POST',
    dispatcher: client,
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  expect(res.headers['content-type']).toContain('application/json');
  return { status: res.statusCode, body: (await res.body.json()) as HarnessBody };
}

function expectSchema(id: string, body: unknown) {
  const validate = getSchemaValidator(id);
  expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
}

async function expectRefusal(body: object, code: string) {
  const res = await post(body);
  expect(res.status).toBe(422);
  expectSchema('harness/derive-error', res.body);
  expect(res.body.error?.code).toBe(code);
  return res.body.error as { code: string; message: string };
}

describe('POST {harness}/derive over HTTPS (profile section 3)', () => {
  it('listens on 127.0.0.1 over https', () => {
    expect(wallet.harnessUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/harness$/);
  });

  it('answers 200 {payment} for a valid CPR of every supported rail', async () => {
    for (const rail of ['ON_CHAIN', 'SEPA_CT', 'SEPA_INST', 'ACH', 'PIX', 'UPI'] as const) {
      const res = await post({ cpr: cprFor(rail), context: context() });
      expect(res.status, rail).toBe(200);
      expectSchema('harness/derive-response', res.body);
      expect(res.body.payment?.value.amount).toBe((cprFor(rail).value as { amount: string }).amount);
    }
  });

  it('answers 422 EXPIRED for an expired request', async () => {
    await expectRefusal(
      { cpr: cprFor('SEPA_CT', { expires_at: '2026-06-01T11:00:00Z' }), context: context() },
      'EXPIRED',
    );
  });

  it('answers 422 UNSUPPORTED_RAIL for SWIFT, with a message for a person', async () => {
    const error = await expectRefusal({ cpr: cprFor('SWIFT'), context: context() }, 'UNSUPPORTED_RAIL');
    expect(error.message).toMatch(/SWIFT/);
  });

  it('answers 422 AMOUNT_REQUIRED for an open amount without payer_amount', async () => {
    const cpr = cprFor('PIX', { value: { asset: { type: 'fiat', code: 'BRL' } } });
    await expectRefusal({ cpr, context: context() }, 'AMOUNT_REQUIRED');
  });

  it('answers 400 INVALID_REQUEST for a body that is not JSON', async () => {
    const res = await post('{"cpr": ');
    expect(res.status).toBe(400);
    expect(res.body.error?.code).toBe('INVALID_REQUEST');
    expect(res.body.error?.message).not.toBe('');
  });

  it('answers 400 INVALID_REQUEST for a body not in the harness shape', async () => {
    const body = { cpr: cprFor('SEPA_CT') };
    expect(getSchemaValidator('harness/derive-request')(body)).toBe(false);
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(res.body.error?.code).toBe('INVALID_REQUEST');
    expect(res.body.error?.message).toContain('context');
  });
});

describe('reference URIs (spec 4.1, 4.2, 5; profile section 2)', () => {
  it('retrieves the CPR over https from a payee signed by a trusted CA and derives', async () => {
    const uri = payee.offer(cprFor('ACH'));
    const res = await post({ uri, context: context() });
    expect(res.status).toBe(200);
    expectSchema('harness/derive-response', res.body);
    expect(res.body.payment?.payee.account_number).toBe('000123456789');
  });

  it('reports a consumed token (the payee answers 410) as TOKEN_REJECTED', async () => {
    const uri = payee.offer(cprFor('ACH'));
    expect((await post({ uri, context: context() })).status).toBe(200);
    const error = await expectRefusal({ uri, context: context() }, 'TOKEN_REJECTED');
    expect(error.message).toContain('410');
  });

  it('reports an unknown token (the payee answers 404) as TOKEN_REJECTED', async () => {
    const uri = `cpr://${'c'.repeat(32)}?endpoint=${encodeURIComponent(payee.baseUrl)}`;
    const error = await expectRefusal({ uri, context: context() }, 'TOKEN_REJECTED');
    expect(error.message).toContain('404');
  });

  it('refuses an http endpoint without contacting it (TOKEN_REJECTED)', async () => {
    const uri = payee
      .offer(cprFor('ACH'))
      .replace(encodeURIComponent('https://'), encodeURIComponent('http://'));
    await expectRefusal({ uri, context: context() }, 'TOKEN_REJECTED');
    const token = /^cpr:\/\/([0-9a-f]+)\?/.exec(uri)?.[1] ?? '';
    expect(payee.hits.get(token)).toBe(0);
  });

  it('refuses a payee whose certificate no trusted CA signed (TOKEN_REJECTED)', async () => {
    const uri = strangerPayee.offer(cprFor('ACH'));
    await expectRefusal({ uri, context: context() }, 'TOKEN_REJECTED');
  });

  it('validates a retrieved CPR like any other (EXPIRED)', async () => {
    const uri = payee.offer(cprFor('UPI', { expires_at: '2026-06-01T11:00:00Z' }));
    await expectRefusal({ uri, context: context() }, 'EXPIRED');
  });
});
