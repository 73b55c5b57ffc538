/**
 * The reference payee over real HTTPS: every rail and delivery form of spec 2.4 / 4.2, resolved
 * with the codec, validated by the validator in payee mode; every response checked against its
 * schema after each test.
 */
import { isValidIBAN } from 'ibantools';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { decodeCprUri, readQrPng, tokenFormatFindings } from '../../src/codec/index.js';
import { createLoopbackPki } from '../../src/loopback/tls.js';
import { eip712DomainSeparator, toChecksumAddress } from '../../src/reference/payee/documents.js';
import { RAIL_HINTS, type RunningPayee, startReferencePayee } from '../../src/reference/payee/index.js';
import { validateCpr } from '../../src/validator/index.js';
import {
  createRecordingClient,
  type Exchange,
  type RecordingClient,
  validateTraffic,
} from '../_support/https.js';
import { PAYEE_ROUTES } from '../_support/routes.js';

/** The ABA routing-number check (weights 3, 7, 1; the sum is a multiple of 10). */
function isValidAbaRouting(routing: string): boolean {
  if (!/^\d{9}$/.test(routing)) return false;
  const w = [3, 7, 1, 3, 7, 1, 3, 7, 1];
  return [...routing].reduce((s, x, i) => s + Number(x) * (w[i] ?? 0), 0) % 10 === 0;
}

let payee: RunningPayee;
let client: RecordingClient;
const clock = { offsetMs: 0 };
const now = () => new Date(Date.now() + clock.offsetMs);

beforeAll(async () => {
  const pki = await createLoopbackPki();
  payee = await startReferencePayee({ tls: pki.server, clock: now });
  client = createRecordingClient({ ca: pki.ca.certPem });
});
afterEach(() => {
  validateTraffic(client.take(), PAYEE_ROUTES);
});
afterAll(async () => {
  await client.close();
  await payee.close();
});

async function create(body: Record<string, unknown>): Promise<Exchange & { body: Record<string, unknown> }> {
  const ex = await client.post(`${payee.harnessUrl}/requests`, body);
  if (ex.status !== 201) throw new Error(`harness answered ${ex.status}: ${ex.text}`);
  return ex as Exchange & { body: Record<string, unknown> };
}

/** Resolves a harness answer to the CPR the way a wallet does: decode the URI, GET if a reference. */
async function resolve(uri: string): Promise<Record<string, unknown>> {
  const decoded = decodeCprUri(uri);
  if (!decoded.ok) throw new Error(`uri did not decode: ${JSON.stringify(decoded.findings)}`);
  expect(decoded.findings).toEqual([]);
  if (decoded.value.kind === 'inline') return decoded.value.document;
  expect(tokenFormatFindings(decoded.value.token)).toEqual([]);
  const ex = await client.get(decoded.value.retrievalUrl);
  expect(ex.status).toBe(200);
  expect(ex.headers['content-type']).toBe('application/json');
  return ex.body as Record<string, unknown>;
}

type Doc = Record<string, unknown>;

const SUB_INTERFACE_FIELD: Record<string, string> = {
  ON_CHAIN: 'receiver_address',
  SEPA_CT: 'iban',
  SEPA_INST: 'iban',
  SWIFT: 'iban',
  OPEN: 'iban',
  ACH: 'account_number',
  PIX: 'key_type',
  UPI: 'key_type',
};

describe('reference payee: generated requests (spec 2, 4.1-4.3; profile 2) [CPR-4.1-FULL-CPR PRF-2-HARNESS-REQUESTS]', () => {
  for (const rail of RAIL_HINTS) {
    for (const delivery of ['reference', 'inline'] as const) {
      it(`${rail} by ${delivery}: the CPR resolves and passes the validator in payee mode`, async () => {
        const ex = await create({ rail_hint: rail, amount: '1500', delivery });
        const answer = ex.body;
        expect(answer.request_id).toMatch(
          /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
        );
        if (delivery === 'reference') expect(answer.token_expires_at).toMatch(/Z$/);
        else expect(answer.token_expires_at).toBeUndefined();
        const doc = await resolve(answer.uri as string);
        expect(doc.request_id).toBe(answer.request_id);
        expect(doc.rail_hint).toBe(rail);
        expect(doc.cpr_version).toBe('CPR-1.0');
        expect(doc[SUB_INTERFACE_FIELD[rail] as string]).toBeDefined();
        expect((doc.value as { amount: string }).amount).toBe('1500');
        const result = validateCpr(doc, { mode: 'payee', now: now() });
        expect(result.findings).toEqual([]);
        expect(result.valid).toBe(true);
      });
    }
  }

  it('rail documents are realistic: IBAN check digits, EIP-55 addresses, ABA check digit, ISO 4217', async () => {
    const docs = await Promise.all(
      (['SEPA_CT', 'SEPA_INST', 'SWIFT', 'ON_CHAIN', 'ACH', 'PIX', 'UPI'] as const).map(async (rail) => {
        const ex = await create({ rail_hint: rail, delivery: 'inline' });
        return resolve(ex.body.uri as string);
      }),
    );
    const [sepa, inst, swift, chain, ach, pix, upi] = docs as [Doc, Doc, Doc, Doc, Doc, Doc, Doc];
    for (const d of [sepa, inst, swift]) {
      expect(isValidIBAN(d.iban as string)).toBe(true);
      expect((d.payee as { rail_address: { iban: string } }).rail_address.iban).toBe(d.iban);
    }
    expect((swift.iban as string).slice(0, 2)).toBe('GB');
    const addr = chain.receiver_address as string;
    expect(addr).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(addr).toBe(toChecksumAddress(addr.slice(2).toLowerCase()));
    expect(addr).not.toBe(addr.toLowerCase());
    expect(chain.value).toEqual({ asset: { type: 'stablecoin', code: 'USDC', chain_id: '1' } });
    expect(chain.contract_address).toBe('0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48');
    expect(chain.order_reference).toMatch(/^0x[0-9a-f]{32}$/);
    expect(isValidAbaRouting(ach.routing_code as string)).toBe(true);
    expect((ach.value as { asset: { code: string } }).asset.code).toBe('USD');
    expect(pix.key_type).toBe('EVP');
    expect(upi.key_type).toBe('UPI_ID');
    expect((upi.value as { asset: { code: string } }).asset.code).toBe('INR');
  });

  it('the EIP-55 and ABA helpers agree with published vectors', () => {
    // EIP-55 test vectors from the EIP text.
    for (const v of [
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
      '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
      '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
    ]) {
      expect(toChecksumAddress(v.slice(2).toLowerCase())).toBe(v);
    }
    expect(isValidAbaRouting('021000021')).toBe(true);
    expect(isValidAbaRouting('021000022')).toBe(false);
    // USDC on Ethereum mainnet: its DOMAIN_SEPARATOR() as the contract returns it
    expect(eip712DomainSeparator('USD Coin', '2', 1n, 'a0b86991c6218b36c1d19d4a2e9eb0ce3606eb48')).toBe(
      '0x06c37168a7db5138defc7866392bb87a741f9b3d104deb5094588ce041cae335',
    );
  });

  it('keeps amounts beyond 2^53 (up to 2^256 - 1) as exact digit strings', async () => {
    for (const amount of ['9007199254740993', (2n ** 256n - 1n).toString()]) {
      const ex = await create({ rail_hint: 'ON_CHAIN', amount, delivery: 'reference' });
      const doc = await resolve(ex.body.uri as string);
      expect((doc.value as { amount: string }).amount).toBe(amount);
      expect(validateCpr(doc, { mode: 'payee', now: now() }).valid).toBe(true);
    }
  });

  it('issues open-amount requests without an amount (spec 2.3)', async () => {
    const ex = await create({ rail_hint: 'PIX', delivery: 'reference' });
    const doc = await resolve(ex.body.uri as string);
    expect(doc.value).toEqual({ asset: { type: 'fiat', code: 'BRL' } });
    expect(validateCpr(doc, { mode: 'payee', now: now() }).valid).toBe(true);
  });

  it('carries memo (non-ASCII, 140 code points), extensions and a chosen asset unchanged', async () => {
    const memo = `Café ☕ 𝄞 ${'é'.repeat(131)}`;
    expect([...memo].length).toBe(140);
    const extensions = { 'com.example:order': { lines: [1, 2] }, 'foundation:x': 'y' };
    const asset = { type: 'stablecoin', code: 'EURC', chain_id: '8453' };
    const ex = await create({
      rail_hint: 'ON_CHAIN',
      amount: '42',
      asset,
      memo,
      extensions,
      delivery: 'inline',
    });
    const doc = await resolve(ex.body.uri as string);
    expect(doc.memo).toBe(memo);
    expect(doc.extensions).toEqual(extensions);
    expect(doc.value).toEqual({ amount: '42', asset });
    expect(doc.chain_id).toBe('8453');
    expect(validateCpr(doc, { mode: 'payee', now: now() }).findings).toEqual([]);
  });

  it('writes RFC 3339 timestamps with Z; created_at < expires_at; default window 1 h', async () => {
    const ex = await create({ delivery: 'inline' });
    const doc = await resolve(ex.body.uri as string);
    expect(doc.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(doc.expires_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(Date.parse(doc.expires_at as string) - Date.parse(doc.created_at as string)).toBe(3600_000);
    expect(doc.rail_hint).toBe('SEPA_CT');
  });

  it('gives every request a fresh UUIDv4 request_id and every reference a fresh token [CPR-INV-8-UNIQUE-REQUEST-ID PRF-2-TOKEN-ENTROPY]', async () => {
    const answers = await Promise.all(Array.from({ length: 40 }, () => create({ delivery: 'reference' })));
    const ids = new Set(answers.map((a) => a.body.request_id));
    const tokens = answers.map((a) => {
      const d = decodeCprUri(a.body.uri);
      return d.ok && d.value.kind === 'reference' ? d.value.token : '';
    });
    expect(ids.size).toBe(40);
    expect(new Set(tokens).size).toBe(40);
    for (const t of tokens) expect(t).toMatch(/^[a-z2-7]{32}$/); // 160 bits of base32
  });

  it('adds the URI as a QR PNG (byte mode) that reads back to the same URI [CPR-4.3-QR-CODE PRF-2-QR-ENCODING]', async () => {
    for (const delivery of ['reference', 'inline'] as const) {
      const ex = await create({ rail_hint: 'UPI', amount: '250000', memo: 'चाय', delivery, qr: true });
      const png = Buffer.from(ex.body.qr_png_base64 as string, 'base64');
      const read = readQrPng(png);
      expect(read).toMatchObject({ ok: true, text: ex.body.uri, modes: ['byte'], findings: [] });
      const doc = await resolve(read.ok ? read.text : '');
      expect(doc.memo).toBe('चाय');
    }
  });

  it('the reference URI names the payee base URL, percent-encoded [PRF-2-REFERENCE-URI]', async () => {
    const ex = await create({ delivery: 'reference' });
    const uri = ex.body.uri as string;
    expect(uri).toContain(`?endpoint=${encodeURIComponent(payee.baseUrl)}`);
    const d = decodeCprUri(uri);
    expect(d.ok && d.value.kind === 'reference' && d.value.retrievalUrl).toMatch(
      new RegExp(`^${payee.baseUrl.replace(/[.]/g, '\\.')}/cpr/[a-z2-7]{32}$`),
    );
    await resolve(uri);
  });
});
