import { describe, expect, it } from 'vitest';
import { validateMessage } from '../../src/validator/index.js';

const lockRequest = {
  request_id: '3b241101-e2bb-4255-8caf-4136c566a962',
  principal_id: 'principal-funded',
  amount: '5000',
  asset: { type: 'fiat', code: 'EUR' },
  initial_bearer_pk: 'A'.repeat(43),
  expires_at: '2026-07-01T00:00:00Z',
  created_at: '2026-06-01T00:00:00Z',
  signature: 'B'.repeat(86),
};

const payment = {
  id: '9c5b94b1-35ad-49bb-b118-8e8fc24abf80',
  payer: { name: 'Alice' },
  payee: {
    display_name: 'Shop',
    rail_address: { iban: 'DE89370400440532013000' },
    iban: 'DE89370400440532013000',
  },
  value: { amount: '2500', asset: { type: 'fiat', code: 'EUR' } },
  intent: { reference: 'Order 1234', conditions: {} },
  authorization: { proof: 'x' },
  state: 'CREATED',
  context: { rail: { rail: 'SEPA_CT' }, request_id: '8b5c1f9e-3f0a-4c0e-9a51-2f1d8c7e6b40' },
};

describe('validateMessage', () => {
  it('accepts a well-formed LockRequest (PRF-4-LOCK-REQUEST-SHAPE)', () => {
    expect(validateMessage('cashpack/lock-request', lockRequest)).toEqual({ valid: true, findings: [] });
  });

  it('names the missing member and the LockRequest shape requirement when signature is absent', () => {
    const { signature: _, ...unsigned } = lockRequest;
    const r = validateMessage('cashpack/lock-request', unsigned);
    expect(r.valid).toBe(false);
    expect(r.findings).toContainEqual({
      requirement: 'PRF-4-LOCK-REQUEST-SHAPE',
      level: 'PROFILE',
      severity: 'error',
      path: '/signature',
      message: 'signature is missing',
    });
  });

  it('takes the requirement annotated in a referenced schema (asset.type -> CPR-2.3-ASSET-TYPE)', () => {
    const r = validateMessage('cashpack/lock-request', {
      ...lockRequest,
      asset: { type: 'gold', code: 'XAU' },
    });
    expect(r.findings.map((f) => [f.requirement, f.path])).toContainEqual([
      'CPR-2.3-ASSET-TYPE',
      '/asset/type',
    ]);
  });

  it('checks a derived Payment: state must be CREATED (CPR-2.10-STATE)', () => {
    expect(validateMessage('cpr/payment', payment).valid).toBe(true);
    const r = validateMessage('cpr/payment', { ...payment, state: 'SETTLED' });
    expect(r.findings.map((f) => [f.requirement, f.path, f.level])).toContainEqual([
      'CPR-2.10-STATE',
      '/state',
      'SPEC',
    ]);
  });

  it('never throws on odd documents', () => {
    for (const doc of [null, 42, 'x', [], { __proto__: null }, undefined]) {
      const r = validateMessage('cashpack/lock-request', doc);
      expect(r.valid).toBe(false);
      expect(r.findings.length).toBeGreaterThan(0);
    }
  });

  it('rejects a kind that is not an implementer message, naming what to do', () => {
    expect(() => validateMessage('tool/finding', {})).toThrow(/getSchemaValidator/);
    expect(() => validateMessage('cashpack/no-such-message', {})).toThrow(/unknown schema/);
  });
});
