// INV-5 value integrity (spec 2.10, 4.4 step 4): over generated CPRs of every rail, amounts up to
// 2^256 - 1 and every asset type, the derived payment carries amount and asset unmodified.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { derivePayment } from '../../src/derivation/derive.js';
import { RAILS } from '../../src/derivation/rails.js';
import { getSchemaValidator } from '../../src/schemas/registry.js';
import { context, cprFor, NOW } from './fixtures.js';

const amountArb = fc.oneof(
  fc.bigInt({ min: 1n, max: 2n ** 256n - 1n }).map(String),
  fc.bigInt({ min: 2n ** 53n, max: 2n ** 64n }).map(String), // just past JS number precision
  fc.constantFrom(
    '1',
    '9007199254740993',
    '115792089237316195423570985008687907853269984665640564039457584007913129639935',
  ),
);

const assetArb = fc.oneof(
  fc.record({ type: fc.constant('fiat'), code: fc.constantFrom('EUR', 'USD', 'BRL', 'INR', 'GBP', 'JPY') }),
  fc.record({
    type: fc.constantFrom('stablecoin', 'tokenized'),
    code: fc.stringMatching(/^[A-Z][A-Z0-9]{1,9}$/),
    chain_id: fc.constantFrom('1', '137', '8453', 'eip155:10'),
  }),
  fc.record(
    {
      type: fc.constant('crypto'),
      code: fc.stringMatching(/^[A-Z]{3,5}$/),
      chain_id: fc.constantFrom('1', 'btc'),
    },
    { requiredKeys: ['type', 'code'] },
  ),
);

const cprArb = fc.record({
  rail: fc.constantFrom(...RAILS),
  amount: amountArb,
  asset: assetArb,
  memo: fc.option(fc.string({ unit: 'grapheme', maxLength: 30 }), { nil: undefined }),
  extensions: fc.option(fc.dictionary(fc.stringMatching(/^com\.example:[a-z]{1,8}$/), fc.jsonValue()), {
    nil: undefined,
  }),
});

describe('value integrity (INV-5, spec 4.4 step 4)', () => {
  it('preserves amount and asset of every generated CPR unmodified, as strings', async () => {
    const validatePayment = getSchemaValidator('cpr/payment');
    await fc.assert(
      fc.asyncProperty(cprArb, async ({ rail, amount, asset, memo, extensions }) => {
        const cpr = cprFor(rail, {
          value: { amount, asset },
          ...(memo !== undefined ? { memo } : {}),
          ...(extensions !== undefined ? { extensions } : {}),
        });
        const result = await derivePayment({ cpr, context: context() }, { now: NOW, supportedRails: RAILS });
        if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
        const { payment } = result;
        expect(payment.value.amount).toBe(amount);
        expect(typeof payment.value.amount).toBe('string');
        expect(payment.value.asset).toEqual(asset);
        expect(payment.intent.reference).toBe(memo ?? cpr.request_id);
        expect(validatePayment(payment), JSON.stringify(validatePayment.errors)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('turns every safe-integer JSON-number amount into the same digits, and refuses larger numbers', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), async (n) => {
        const cpr = cprFor('SEPA_CT', { value: { amount: n, asset: { type: 'fiat', code: 'EUR' } } });
        const result = await derivePayment({ cpr, context: context() }, { now: NOW });
        expect(result.ok && result.payment.value.amount).toBe(BigInt(n).toString());
      }),
    );
    await fc.assert(
      fc.asyncProperty(fc.double({ min: 2 ** 53, max: 2 ** 80, noNaN: true }), async (n) => {
        const cpr = cprFor('SEPA_CT', { value: { amount: n, asset: { type: 'fiat', code: 'EUR' } } });
        const result = await derivePayment({ cpr, context: context() }, { now: NOW });
        expect(result.ok ? 'ok' : result.error.code).toBe('INVALID_STRUCTURE');
      }),
    );
  });
});
