// Spec 4.4 derivation, step by step, and every error code of profile section 3.
import { describe, expect, it, vi } from 'vitest';
import { RAILS } from '../../src/model/cpr.js';
import { derivePayment } from '../../src/reference/wallet/derive.js';
import { DerivationFailure } from '../../src/reference/wallet/errors.js';
import { DEFAULT_SUPPORTED_RAILS } from '../../src/reference/wallet/rails.js';
import { getSchemaValidator } from '../../src/schemas/registry.js';
import { context, cprFor, NOW } from './fixtures.js';

const paymentSchema = () => getSchemaValidator('cpr/payment');

async function derive(cpr: unknown, ctx: Record<string, unknown> = context(), extra = {}) {
  return derivePayment(
    { cpr, context: ctx },
    { now: NOW, supportedRails: DEFAULT_SUPPORTED_RAILS, ...extra },
  );
}

async function expectError(promise: ReturnType<typeof derivePayment>, code: string) {
  const result = await promise;
  expect(result.ok).toBe(false);
  if (result.ok) throw new Error('unreachable');
  expect(result.error.code).toBe(code);
  expect(result.error.message.length).toBeGreaterThan(0);
  return result.error;
}

async function expectPayment(promise: ReturnType<typeof derivePayment>) {
  const result = await promise;
  if (!result.ok) throw new Error(`expected a payment, got ${result.error.code}: ${result.error.message}`);
  const validate = paymentSchema();
  expect(validate(result.payment), JSON.stringify(validate.errors)).toBe(true);
  return result.payment;
}

describe('harness shape (profile section 3)', () => {
  it('refuses a request with both cpr and uri (INVALID_REQUEST)', async () => {
    await expectError(
      derivePayment(
        { cpr: cprFor('SEPA_CT'), uri: 'cpr://inline/e30', context: context() },
        { now: NOW, supportedRails: DEFAULT_SUPPORTED_RAILS },
      ),
      'INVALID_REQUEST',
    );
  });
  it('refuses a request with neither cpr nor uri (INVALID_REQUEST)', async () => {
    await expectError(
      derivePayment({ context: context() }, { now: NOW, supportedRails: DEFAULT_SUPPORTED_RAILS }),
      'INVALID_REQUEST',
    );
  });
  it('refuses a context without payer, naming it (INVALID_REQUEST)', async () => {
    const { payer: _omit, ...ctx } = context();
    const error = await expectError(derive(cprFor('SEPA_CT'), ctx), 'INVALID_REQUEST');
    expect(error.message).toContain('context.payer');
  });
  it('refuses a body that is not an object (INVALID_REQUEST)', async () => {
    await expectError(
      derivePayment([] as never, { now: NOW, supportedRails: DEFAULT_SUPPORTED_RAILS }),
      'INVALID_REQUEST',
    );
  });
  it('refuses a cpr that is not an object (INVALID_REQUEST)', async () => {
    await expectError(derive('CPR-1.0'), 'INVALID_REQUEST');
  });
  it('agrees with the derive-request schema on what is in the harness shape', async () => {
    const validate = getSchemaValidator('harness/derive-request');
    const { payer: _p, ...noPayer } = context();
    const bodies: unknown[] = [
      { cpr: cprFor('SEPA_CT'), context: context() },
      { uri: 'cpr://inline/e30', context: context() },
      { cpr: cprFor('SEPA_CT'), context: context({ payer_amount: '10' }) },
      { cpr: cprFor('SEPA_CT'), uri: 'cpr://inline/e30', context: context() },
      { context: context() },
      { cpr: 'x', context: context() },
      { uri: '', context: context() },
      { cpr: cprFor('SEPA_CT'), context: noPayer },
      { cpr: cprFor('SEPA_CT'), context: context({ rail: 'SEPA_CT' }) },
      { cpr: cprFor('SEPA_CT'), context: context({ payer_amount: 10 }) },
      { cpr: cprFor('SEPA_CT'), context: context({ payer_amount: '010' }) },
      { cpr: cprFor('SEPA_CT') },
    ];
    for (const body of bodies) {
      const result = await derivePayment(body as never, {
        now: NOW,
        supportedRails: DEFAULT_SUPPORTED_RAILS,
        fetchCpr: async () => cprFor('SEPA_CT'),
      });
      const refusedAsShape = !result.ok && result.error.code === 'INVALID_REQUEST';
      expect(refusedAsShape, JSON.stringify(body)).toBe(!validate(body));
    }
  });
});

describe('step 1: parse and validate (spec 4.4 step 1, 9 rule 1, 7 rule 2)', () => {
  it('derives from a valid request of every rail it supports', async () => {
    for (const rail of RAILS.filter((r) => r !== 'SWIFT')) {
      const payment = await expectPayment(derive(cprFor(rail)));
      expect(payment.intent.conditions.rail).toBe(rail);
    }
  });
  it('rejects a cpr_version other than CPR-1.0 (INVALID_VERSION)', async () => {
    await expectError(derive(cprFor('SEPA_CT', { cpr_version: 'CPR-2.0' })), 'INVALID_VERSION');
  });
  it('rejects a request without cpr_version (INVALID_VERSION)', async () => {
    const { cpr_version: _omit, ...cpr } = cprFor('SEPA_CT');
    await expectError(derive(cpr), 'INVALID_VERSION');
  });
  it('rejects a request whose expires_at is in the past (EXPIRED)', async () => {
    await expectError(derive(cprFor('SEPA_CT', { expires_at: '2026-06-01T11:59:59Z' })), 'EXPIRED');
  });
  it('rejects a request expiring exactly now (EXPIRED: must be in the future)', async () => {
    await expectError(derive(cprFor('SEPA_CT', { expires_at: '2026-06-01T12:00:00Z' })), 'EXPIRED');
  });
  it('compares instants across offsets: 13:30+02:00 is 11:30Z, in the past (EXPIRED)', async () => {
    await expectError(derive(cprFor('SEPA_CT', { expires_at: '2026-06-01T13:30:00+02:00' })), 'EXPIRED');
  });
  it('accepts an expires_at with another offset that is in the future', async () => {
    await expectPayment(derive(cprFor('SEPA_CT', { expires_at: '2026-06-01T14:30:00+02:00' })));
  });
  it('rejects a request without request_id (INVALID_STRUCTURE)', async () => {
    const { request_id: _omit, ...cpr } = cprFor('SEPA_CT');
    await expectError(derive(cpr), 'INVALID_STRUCTURE');
  });
  it('rejects a request without payee (INVALID_STRUCTURE)', async () => {
    const { payee: _omit, ...cpr } = cprFor('SEPA_CT');
    await expectError(derive(cpr), 'INVALID_STRUCTURE');
  });
  it('rejects an IBAN request without beneficiary_name (INVALID_STRUCTURE)', async () => {
    const { beneficiary_name: _omit, ...cpr } = cprFor('SEPA_CT');
    await expectError(derive(cpr), 'INVALID_STRUCTURE');
  });
  it('rejects a retrieved document that is not an object (INVALID_STRUCTURE)', async () => {
    const uri = `cpr://abcdefabcdefabcdefabcdefabcdefab?endpoint=${encodeURIComponent('https://127.0.0.1:8443')}`;
    await expectError(
      derivePayment(
        { uri, context: context() },
        { now: NOW, supportedRails: DEFAULT_SUPPORTED_RAILS, fetchCpr: async () => ['CPR-1.0'] },
      ),
      'INVALID_STRUCTURE',
    );
  });
  it('rejects a JSON-number amount beyond 2^53 - 1 (INVALID_STRUCTURE)', async () => {
    const cpr = cprFor('SEPA_CT');
    (cpr.value as Record<string, unknown>).amount = 2 ** 60;
    const error = await expectError(derive(cpr), 'INVALID_STRUCTURE');
    expect(error.message).toContain('value.amount');
  });
  it('rejects a fractional JSON-number amount (INVALID_STRUCTURE)', async () => {
    const cpr = cprFor('SEPA_CT');
    (cpr.value as Record<string, unknown>).amount = 12.5;
    await expectError(derive(cpr), 'INVALID_STRUCTURE');
  });
  it('rejects an amount string with a leading zero (INVALID_STRUCTURE)', async () => {
    const cpr = cprFor('SEPA_CT');
    (cpr.value as Record<string, unknown>).amount = '0125';
    await expectError(derive(cpr), 'INVALID_STRUCTURE');
  });
});

describe('step 2: select the rail (spec 4.4 step 2, 4.5, INV-4, INV-7)', () => {
  it('refuses an unsupported rail_hint with a message naming it and the supported rails (UNSUPPORTED_RAIL)', async () => {
    const error = await expectError(derive(cprFor('SWIFT')), 'UNSUPPORTED_RAIL');
    expect(error.message).toContain('SWIFT');
    expect(error.message).toContain('SEPA_CT');
  });
  it('serves SWIFT once configured to support it', async () => {
    const payment = await expectPayment(derive(cprFor('SWIFT'), context(), { supportedRails: ['SWIFT'] }));
    expect(payment.intent.conditions.rail).toBe('SWIFT');
  });
  it('ignores an unrecognised rail_hint gracefully and picks a rail of the sub-interface', async () => {
    const payment = await expectPayment(derive(cprFor('SEPA_CT', { rail_hint: 'FEDNOW' })));
    expect(payment.intent.conditions.rail).toBe('SEPA_CT');
  });
  it('treats OPEN as no preference', async () => {
    const payment = await expectPayment(derive(cprFor('PIX', { rail_hint: 'OPEN' })));
    expect(payment.intent.conditions.rail).toBe('PIX');
  });
  it('treats context.rail as opaque: rail-like members there neither choose nor refuse a rail (profile 3)', async () => {
    for (const rail of [{ rail: 'SEPA_INST' }, { rail: 'ACH' }, { rail: 'NOT-A-RAIL', network: 7 }]) {
      const payment = await expectPayment(derive(cprFor('SEPA_CT'), context({ rail })));
      expect(payment.intent.conditions.rail).toBe('SEPA_CT');
      expect(payment.context.rail).toEqual(rail);
    }
  });
  it('refuses a document completing two sub-interfaces whatever its rail_hint (INVALID_STRUCTURE, profile 2)', async () => {
    const account = { account_number: '000123456789', routing_code: '021000021', routing_code_type: 'ABA' };
    for (const hint of ['SEPA_CT', 'OPEN', undefined]) {
      const cpr = cprFor('SEPA_CT', { ...account, rail_hint: hint });
      if (hint === undefined) delete cpr.rail_hint;
      const error = await expectError(derive(cpr), 'INVALID_STRUCTURE');
      expect(error.message).toContain('sub-interface');
    }
    const onchainPlusIban = cprFor('ON_CHAIN', {
      iban: 'DE89370400440532013000',
      beneficiary_name: 'X GmbH',
    });
    await expectError(derive(onchainPlusIban), 'INVALID_STRUCTURE');
  });
  it('refuses a request none of whose rails the wallet supports (UNSUPPORTED_RAIL)', async () => {
    const error = await expectError(
      derive(cprFor('ACH', { rail_hint: 'OPEN' }), context(), { supportedRails: ['SEPA_CT'] }),
      'UNSUPPORTED_RAIL',
    );
    expect(error.message).toContain('ACH');
  });
});

describe('step 3: resolve the payer (spec 4.4 step 3, INV-1)', () => {
  it('takes the payer from the context only; extension keys are ignored and copied nowhere', async () => {
    // a name the profile's payer-data list does not cover (a payer_* name is refused, see below)
    const cpr = cprFor('SEPA_CT', { extensions: { 'com.example:buyer_hint': { id: 'intruder-99' } } });
    const payment = await expectPayment(derive(cpr));
    expect(payment.payer).toEqual(context().payer);
    expect(JSON.stringify(payment)).not.toContain('intruder-99');
  });
});

describe('payer, authorization and state data in a CPR (profile 2 and 3)', () => {
  it('refuses a CPR carrying them, at the top level or in extensions, with INVALID_STRUCTURE', async () => {
    for (const extra of [
      { payer: { id: 'intruder' } },
      { status: 'PAID' },
      { rail: { execution_id: 'x' } },
      { extensions: { 'com.example:payer_hint': { id: 'intruder-99' } } },
      { extensions: { 'org.acme:signed_tx': '0xdead' } },
    ]) {
      await expectError(derive(cprFor('SEPA_CT', extra)), 'INVALID_STRUCTURE');
    }
  });
});

describe('step 4: construct the value (spec 4.4 step 4, 4.5, INV-5)', () => {
  it('preserves amount and asset unmodified, as strings, beyond 2^53', async () => {
    const amount = '115792089237316195423570985008687907853269984665640564039457584007913129639935';
    const cpr = cprFor('ON_CHAIN');
    (cpr.value as Record<string, unknown>).amount = amount;
    const payment = await expectPayment(derive(cpr));
    expect(payment.value.amount).toBe(amount);
    expect(payment.value.asset).toEqual({ type: 'stablecoin', code: 'USDC', chain_id: '1' });
  });
  it('turns a safe-integer JSON-number amount into its digit string', async () => {
    const cpr = cprFor('SEPA_CT');
    (cpr.value as Record<string, unknown>).amount = 9007199254740991;
    const payment = await expectPayment(derive(cpr));
    expect(payment.value.amount).toBe('9007199254740991');
  });
  it('makes the payer amount the payment amount of an open-amount request', async () => {
    const cpr = cprFor('SEPA_CT', { value: { asset: { type: 'fiat', code: 'EUR' } } });
    const payment = await expectPayment(derive(cpr, context({ payer_amount: '777' })));
    expect(payment.value.amount).toBe('777');
  });
  it('asks for the amount of an open-amount request when the payer gave none (AMOUNT_REQUIRED)', async () => {
    const cpr = cprFor('SEPA_CT', { value: { asset: { type: 'fiat', code: 'EUR' } } });
    await expectError(derive(cpr), 'AMOUNT_REQUIRED');
  });
  it('pays a fixed amount in full whatever payer_amount says', async () => {
    const payment = await expectPayment(derive(cprFor('SEPA_CT'), context({ payer_amount: '1' })));
    expect(payment.value.amount).toBe('1250');
  });
  it('refuses a payer_amount that is not an amount (INVALID_REQUEST)', async () => {
    const cpr = cprFor('SEPA_CT', { value: { asset: { type: 'fiat', code: 'EUR' } } });
    await expectError(derive(cpr, context({ payer_amount: '-5' })), 'INVALID_REQUEST');
  });
});

describe('step 5: construct the intent (spec 4.4 step 5, 2.10)', () => {
  it('uses the memo as reference when present', async () => {
    const payment = await expectPayment(derive(cprFor('SEPA_CT', { memo: 'Two croissants' })));
    expect(payment.intent.reference).toBe('Two croissants');
  });
  it('uses the request_id as reference without memo', async () => {
    const payment = await expectPayment(derive(cprFor('SEPA_CT')));
    expect(payment.intent.reference).toBe('3f1c2b9e-7a4d-4c1e-9b2f-5d6e7f8a9b0c');
  });
  it('derives conditions from the sub-interface fields', async () => {
    const cpr = cprFor('SEPA_CT');
    const payment = await expectPayment(derive(cpr));
    // the selected rail and every sub-interface field the CPR carries, with its value
    expect(JSON.parse(JSON.stringify(payment.intent.conditions))).toEqual({
      rail: 'SEPA_CT',
      iban: cpr.iban,
      ...(cpr.bic === undefined ? {} : { bic: cpr.bic }),
      beneficiary_name: cpr.beneficiary_name,
      remittance_info: 'Invoice 2026-0042',
      end_to_end_id: 'E2E-0042',
    });
    const onChain = await expectPayment(derive(cprFor('ON_CHAIN')));
    expect(onChain.intent.conditions.order_reference).toBe('00112233445566778899aabbccddeeff');
  });
});

describe('step 6: authorization (spec 4.4 step 6)', () => {
  it('takes the authorization from the context', async () => {
    const payment = await expectPayment(derive(cprFor('ACH')));
    expect(payment.authorization).toEqual(context().authorization);
  });
});

describe('step 7: assemble the payment (spec 4.4 step 7, 2.10, profile section 3)', () => {
  it('has a fresh UUID id, state CREATED and context {rail, request_id}', async () => {
    const a = await expectPayment(derive(cprFor('UPI')));
    const b = await expectPayment(derive(cprFor('UPI')));
    expect(a.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a.id).not.toBe(b.id);
    expect(a.state).toBe('CREATED');
    expect(a.context).toEqual({ rail: context().rail, request_id: '3f1c2b9e-7a4d-4c1e-9b2f-5d6e7f8a9b0c' });
  });
  it('resolves the payee: descriptor plus every sub-interface field', async () => {
    const payment = await expectPayment(derive(cprFor('ACH')));
    expect(payment.payee).toEqual({
      display_name: 'Acme Inc',
      rail_address: { account_number: '000123456789', routing_code: '021000021' },
      account_number: '000123456789',
      routing_code: '021000021',
      routing_code_type: 'ABA',
      beneficiary_name: 'Acme Inc',
      end_to_end_id: 'ACME-7',
    });
  });
  it('does not modify the input CPR', async () => {
    const cpr = cprFor('SEPA_CT');
    const before = structuredClone(cpr);
    await expectPayment(derive(cpr));
    expect(cpr).toEqual(before);
  });
});

describe('URI delivery (spec 4.2, 5)', () => {
  const inline = (doc: unknown) => `cpr://inline/${Buffer.from(JSON.stringify(doc)).toString('base64url')}`;
  it('derives from an inline URI', async () => {
    const result = await derivePayment(
      { uri: inline(cprFor('PIX')), context: context() },
      { now: NOW, supportedRails: DEFAULT_SUPPORTED_RAILS },
    );
    expect(result.ok).toBe(true);
  });
  it('refuses a reference URI with an http endpoint without fetching (TOKEN_REJECTED)', async () => {
    const fetchCpr = vi.fn(async () => cprFor('PIX'));
    const uri = `cpr://abcdefabcdefabcdefabcdefabcdefab?endpoint=${encodeURIComponent('http://127.0.0.1:9')}`;
    await expectError(
      derivePayment(
        { uri, context: context() },
        { now: NOW, supportedRails: DEFAULT_SUPPORTED_RAILS, fetchCpr },
      ),
      'TOKEN_REJECTED',
    );
    expect(fetchCpr).not.toHaveBeenCalled();
  });
  it('retrieves a reference URI through the fetcher, at {endpoint}/cpr/{token}', async () => {
    const fetchCpr = vi.fn(async () => cprFor('PIX'));
    const uri = `cpr://abcdefabcdefabcdefabcdefabcdefab?endpoint=${encodeURIComponent('https://127.0.0.1:8443')}`;
    const payment = await expectPayment(
      derivePayment(
        { uri, context: context() },
        { now: NOW, supportedRails: DEFAULT_SUPPORTED_RAILS, fetchCpr },
      ),
    );
    expect(payment.value.amount).toBe('4200');
    expect(fetchCpr).toHaveBeenCalledWith('https://127.0.0.1:8443/cpr/abcdefabcdefabcdefabcdefabcdefab');
  });
  it('reports a refused token as TOKEN_REJECTED', async () => {
    const fetchCpr = async () => {
      throw new DerivationFailure('TOKEN_REJECTED', 'the payee answered 410');
    };
    const uri = `cpr://abcdefabcdefabcdefabcdefabcdefab?endpoint=${encodeURIComponent('https://127.0.0.1:8443')}`;
    await expectError(
      derivePayment(
        { uri, context: context() },
        { now: NOW, supportedRails: DEFAULT_SUPPORTED_RAILS, fetchCpr },
      ),
      'TOKEN_REJECTED',
    );
  });
  it('validates a retrieved CPR like any other (EXPIRED)', async () => {
    const fetchCpr = async () => cprFor('PIX', { expires_at: '2026-06-01T11:00:00Z' });
    const uri = `cpr://abcdefabcdefabcdefabcdefabcdefab?endpoint=${encodeURIComponent('https://127.0.0.1:8443')}`;
    await expectError(
      derivePayment(
        { uri, context: context() },
        { now: NOW, supportedRails: DEFAULT_SUPPORTED_RAILS, fetchCpr },
      ),
      'EXPIRED',
    );
  });
});
