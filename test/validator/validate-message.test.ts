import { describe, expect, it } from 'vitest';
import { CprcError } from '../../src/errors.js';
import { SCHEMA_ID_BASE } from '../../src/schemas/registry.js';
import { validateMessage } from '../../src/validator/index.js';
import { MESSAGE_FALLBACK_REQUIREMENTS } from '../../src/validator/validate-message.js';

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

/** An object every read of which throws (the schema check cannot run on it). */
const throwing = (what: unknown) =>
  new Proxy(
    {},
    {
      get() {
        throw what;
      },
      has() {
        throw what;
      },
      ownKeys() {
        throw what;
      },
      getOwnPropertyDescriptor() {
        throw what;
      },
    },
  );

const triples = (r: { findings: { requirement: string; path: string; message: string }[] }) =>
  r.findings.map((f) => [f.requirement, f.path, f.message]);

describe('validateMessage: the requirement of a failure no schema node annotates', () => {
  // the profile statement that fixes each message's shape
  const byKind: [string, string][] = [
    ['cashpack/lock-request', 'PRF-4-LOCK-REQUEST-SHAPE'],
    ['cashpack/cashpack', 'PRF-4-CASHPACK-SHAPE'],
    ['cashpack/renewal-entry', 'PRF-4-RENEWAL-ENTRY-SHAPE'],
    ['cashpack/renew-body', 'PRF-4-RENEW-BINDING'],
    ['cashpack/redemption-request', 'PRF-4-REDEMPTION-REQUEST-SHAPE'],
    ['cashpack/redeem-body', 'PRF-4-REDEEM-BINDING'],
    ['cashpack/redemption-confirmation', 'PRF-4-REDEEM-BINDING'],
    ['cashpack/status-response', 'PRF-4-STATUS-BINDING'],
    ['cashpack/policy', 'PRF-4-POLICY-SHAPE'],
    ['cashpack/operator-jwk', 'PRF-4-OPERATOR-JWK'],
    ['cashpack/error-body', 'PRF-1-ERROR-BODY'],
    ['harness/create-request', 'PRF-2-HARNESS-REQUESTS'],
    ['harness/create-request-response', 'PRF-2-HARNESS-REQUESTS'],
    ['harness/derive-request', 'PRF-3-DERIVE-HARNESS'],
    ['harness/derive-response', 'PRF-3-PAYMENT-SHAPE'],
    ['harness/derive-error', 'PRF-3-DERIVE-ERROR-CODES'],
    ['harness/stdio-response', 'PRF-3-STDIO-FORM'],
    ['harness/expire-or-cancel-request', 'PRF-4-HARNESS-EXPIRE-CANCEL'],
    ['harness/expire-or-cancel-response', 'PRF-4-HARNESS-EXPIRE-CANCEL'],
    ['harness/balance-request', 'PRF-4-HARNESS-BALANCE'],
    ['harness/balance-response', 'PRF-4-HARNESS-BALANCE'],
    ['cpr/payment', 'PRF-3-PAYMENT-SHAPE'],
    ['cpr/derivation-context', 'CPR-2.9-CONTEXT-FROM-APPLICATION'],
  ];
  // a message schema of a folder without its own entry: the folder's statement
  const byDir: [string, string][] = [
    ['cashpack/amount', 'PRF-4-MESSAGE-SCHEMA'],
    ['cashpack/kid', 'PRF-4-MESSAGE-SCHEMA'],
    ['harness/clock-request', 'PRF-3-HARNESS-MESSAGE-SCHEMA'],
    ['harness/fulfillment-request', 'PRF-3-HARNESS-MESSAGE-SCHEMA'],
    ['cpr/requested-value', 'CPR-2.1-FIELD-TYPES'],
  ];

  it.each(byKind)('%s: %s, also when the message cannot be read at all', (kind, id) => {
    const r = validateMessage(kind, throwing(new Error('boom')));
    expect(r.valid).toBe(false);
    expect(r.findings).toHaveLength(1);
    expect(r.findings[0]).toMatchObject({ requirement: id, path: '', severity: 'error' });
    expect(r.findings[0]?.message).toContain('boom');
    const s = validateMessage(kind, throwing('plain'));
    expect(s.findings.map((f) => [f.requirement, f.path])).toEqual([[id, '']]);
    expect(s.findings[0]?.message).toContain('plain');
  });

  it.each(byDir)('%s: %s', (kind, id) => {
    const r = validateMessage(kind, 42);
    expect(r.valid).toBe(false);
    expect(r.findings.map((f) => [f.requirement, f.path])).toEqual([[id, '']]);
    expect(r.findings[0]?.message).toContain('the message');
  });

  it('a kind without an entry of its own, unreadable, takes its folder statement', () => {
    expect(
      validateMessage('cashpack/kid', throwing(new Error('x'))).findings.map((f) => f.requirement),
    ).toEqual(expect.arrayContaining(['PRF-4-MESSAGE-SCHEMA']));
  });

  it('MESSAGE_FALLBACK_REQUIREMENTS lists each of them once, sorted', () => {
    const all = [...new Set([...byKind, ...byDir].map(([, id]) => id))].sort();
    expect(MESSAGE_FALLBACK_REQUIREMENTS).toEqual(all);
  });
});

describe('validateMessage: the kind', () => {
  const lock = {
    request_id: '3b241101-e2bb-4255-8caf-4136c566a962',
    principal_id: 'principal-funded',
    amount: '5000',
    asset: { type: 'fiat', code: 'EUR' },
    initial_bearer_pk: 'A'.repeat(43),
    expires_at: '2026-07-01T00:00:00Z',
    created_at: '2026-06-01T00:00:00Z',
  };

  it('is a short id, a file name or a full schema id, all the same', () => {
    const want = validateMessage('cashpack/lock-request', lock);
    expect(want.valid).toBe(false);
    expect(validateMessage('cashpack/lock-request.schema.json', lock)).toEqual(want);
    expect(validateMessage(`${SCHEMA_ID_BASE}cashpack/lock-request.schema.json`, lock)).toEqual(want);
    const bad = throwing(new Error('x'));
    for (const kind of [
      'cashpack/lock-request',
      'cashpack/lock-request.schema.json',
      `${SCHEMA_ID_BASE}cashpack/lock-request.schema.json`,
    ]) {
      expect(validateMessage(kind, bad).findings[0]?.requirement).toBe('PRF-4-LOCK-REQUEST-SHAPE');
    }
  });

  it('outside cpr/, cashpack/ and harness/ is a usage error', () => {
    for (const kind of [
      'tool/finding',
      `${SCHEMA_ID_BASE}tool/finding.schema.json`,
      '',
      'cashpackx/amount',
      'amount',
    ]) {
      let thrown: unknown;
      try {
        validateMessage(kind, {});
      } catch (e) {
        thrown = e;
      }
      expect(thrown, kind).toBeInstanceOf(CprcError);
      expect((thrown as CprcError).code, kind).toBe('CPRC_USAGE');
      expect((thrown as CprcError).message).toContain(JSON.stringify(kind));
    }
  });
});

describe('validateMessage: each error, its path, requirement and message', () => {
  it('names a missing member at its own path', () => {
    const r = validateMessage('harness/create-request', {});
    expect(triples(r)).toEqual([['PRF-2-HARNESS-REQUESTS', '/delivery', 'delivery is missing']]);
  });

  it('names a member the message must not have', () => {
    const r = validateMessage('harness/create-request', { delivery: 'uri', zzz_unknown: 1 });
    const extra = r.findings.filter((f) => f.path === '');
    expect(extra).toHaveLength(1);
    expect(extra[0]).toMatchObject({ requirement: 'PRF-2-HARNESS-REQUESTS', path: '' });
    expect(extra[0]?.message).toContain('"zzz_unknown"');
  });

  it('names the value a const or an enum wants, and the member', () => {
    const r = validateMessage('cashpack/operator-jwk', {
      kty: 'RSA',
      crv: 'Ed25519',
      kid: 'k',
      alg: 'EdDSA',
      use: 'sig',
      x: 'A'.repeat(43),
    });
    const kty = r.findings.find((f) => f.path === '/kty');
    expect(kty?.requirement).toBe('PRF-4-OPERATOR-JWK');
    expect(kty?.message).toContain('kty');
    expect(kty?.message).toContain('"OKP"');
    const s = validateMessage('cashpack/status-response', {
      pack_id: '3b241101-e2bb-4255-8caf-4136c566a962',
      status: 'GONE',
    });
    const st = s.findings.find((f) => f.path === '/status');
    expect(st?.requirement).toBe('CP-3-STATUS-VALUES');
    expect(st?.message).toContain('status');
    expect(st?.message).toContain('"ACTIVE"');
  });

  it('says what is wrong with the message itself, and with a nested member', () => {
    const r = validateMessage('cashpack/error-body', 42);
    expect(r.findings[0]?.message).toMatch(/^the message \S/);
    const n = validateMessage('cashpack/lock-request', { ...lock(), amount: 5000 });
    expect(n.findings.map((f) => [f.requirement, f.path])).toContainEqual([
      'PRF-4-LOCK-REQUEST-SHAPE',
      '/amount',
    ]);
    expect(n.findings.find((f) => f.path === '/amount')?.message).toMatch(/^amount \S/);
  });

  it('takes the annotation of the nearest annotated node above a member none annotates', () => {
    const doc = {
      cpr_version: 'CPR-1.0',
      request_id: '3b241101-e2bb-4255-8caf-4136c566a962',
      created_at: '2026-06-01T00:00:00Z',
      expires_at: '2026-06-01T00:10:00Z',
      payee: { rail_address: {} },
    };
    // base.schema.json annotates its root (CPR-2.1-REQUIRED-FIELDS), not value nor RequestedValue
    expect(validateMessage('cpr/base', doc).findings.map((f) => [f.requirement, f.path])).toEqual([
      ['CPR-2.1-REQUIRED-FIELDS', '/value'],
    ]);
  });

  it('stops at the failing member: an array member is not its items', () => {
    const p = validateMessage('cashpack/policy', {
      operator_id: 'op',
      max_amount: '100',
      min_expiry_seconds: 1,
      max_expiry_seconds: 2,
      max_chain_depth: 1,
      required_identity_level: 0,
      assets: 'fiat',
      signature_alg: 'EdDSA',
    });
    expect(p.findings.map((f) => [f.requirement, f.path])).toEqual([['PRF-4-POLICY-SHAPE', '/assets']]);
  });

  it('names a nested member by its dotted path', () => {
    const r = validateMessage('cashpack/lock-request', { ...lock(), asset: { type: 'fiat' } });
    expect(r.findings.map((f) => [f.path, f.message])).toContainEqual([
      '/asset/code',
      'asset.code is missing',
    ]);
    const t = validateMessage('cashpack/lock-request', { ...lock(), asset: { type: 'fiat', code: 5 } });
    expect(t.findings.find((f) => f.path === '/asset/code')?.message).toMatch(/^asset\.code \S/);
  });

  it('follows items into an array member (renewal_chain/0, assets/0)', () => {
    const p = validateMessage('cashpack/policy', {
      operator_id: 'op',
      max_amount: '100',
      min_expiry_seconds: 1,
      max_expiry_seconds: 2,
      max_chain_depth: 1,
      required_identity_level: 0,
      assets: [{ type: 'gold', code: 'XAU' }],
      signature_alg: 'EdDSA',
    });
    expect(p.findings.map((f) => [f.requirement, f.path])).toContainEqual([
      'CPR-2.3-ASSET-TYPE',
      '/assets/0/type',
    ]);
  });

  it('follows $ref with a fragment and allOf to the annotation nearest the member', () => {
    const base = {
      cpr_version: 'CPR-1.0',
      request_id: '3b241101-e2bb-4255-8caf-4136c566a962',
      created_at: '2026-06-01T00:00:00Z',
      expires_at: '2026-06-01T00:10:00Z',
      payee: { rail_address: { iban: 'DE89370400440532013000' } },
      value: { asset: { type: 'fiat', code: 'EUR' } },
      iban: 'DE89370400440532013000',
      beneficiary_name: 'Shop',
    };
    expect(validateMessage('cpr/cpr-payee', base)).toEqual({ valid: true, findings: [] });
    const r = validateMessage('cpr/cpr-payee', { ...base, created_at: 5, cpr_version: 'CPR-2' });
    expect(r.findings.map((f) => [f.requirement, f.path])).toEqual(
      expect.arrayContaining([
        ['CPR-2.1-TIMESTAMPS-UTC', '/created_at'],
        ['CPR-2.1-VERSION', '/cpr_version'],
      ]),
    );
    const { cpr_version: _, ...noVersion } = base;
    expect(validateMessage('cpr/cpr-payee', noVersion).findings.map((f) => [f.requirement, f.path])).toEqual([
      ['CPR-2.1-VERSION', '/cpr_version'],
    ]);
  });

  it('leaves out the `if` that restates a failing `then`', () => {
    const r = validateMessage('cpr/cpr-payee', {
      cpr_version: 'CPR-1.0',
      request_id: '3b241101-e2bb-4255-8caf-4136c566a962',
      created_at: '2026-06-01T00:00:00Z',
      expires_at: '2026-06-01T00:10:00Z',
      payee: { rail_address: {} },
      value: { asset: { type: 'fiat', code: 'EUR' } },
      rail_hint: 'ACH',
      account_number: '123',
    });
    expect(r.valid).toBe(false);
    expect(r.findings.map((f) => f.path)).toEqual(['/beneficiary_name']);
  });

  it('reports each (requirement, path, keyword) once', () => {
    for (const [kind, doc] of [
      ['harness/stdio-response', 42],
      ['harness/stdio-response', {}],
      ['cpr/cpr-payee', 42],
      ['cpr/cpr-wallet', {}],
    ] as const) {
      const r = validateMessage(kind, doc);
      const seen = triples(r).map((t) => JSON.stringify(t));
      expect(new Set(seen).size, kind).toBe(seen.length);
      expect(seen.length).toBeGreaterThan(0);
    }
  });
});

function lock() {
  return {
    request_id: '3b241101-e2bb-4255-8caf-4136c566a962',
    principal_id: 'principal-funded',
    amount: '5000',
    asset: { type: 'fiat', code: 'EUR' },
    initial_bearer_pk: 'A'.repeat(43),
    expires_at: '2026-07-01T00:00:00Z',
    created_at: '2026-06-01T00:00:00Z',
    signature: 'B'.repeat(86),
  };
}
