import type { ErrorObject } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/model/finding.js';
import { getSchemaValidator } from '../../src/schemas/registry.js';
import {
  cprSchemaFindings,
  SCHEMA_FINDING_REQUIREMENTS,
  schemaFallbackFinding,
} from '../../src/validator/schema-findings.js';

/** One ajv error as ajv reports it (only what the mapping reads). */
function err(
  keyword: string,
  instancePath: string,
  params: Record<string, unknown> = {},
  message?: string,
): ErrorObject {
  return {
    keyword,
    instancePath,
    schemaPath: `#/${keyword}`,
    params,
    ...(message === undefined ? {} : { message }),
  };
}

const required = (instancePath: string, missingProperty: string) =>
  err('required', instancePath, { missingProperty });
const typeErr = (instancePath: string) => err('type', instancePath, { type: 'string' }, 'must be string');

/** [requirement, path] of each finding. */
const ids = (findings: readonly Finding[]) => findings.map((f) => [f.requirement, f.path]);

function expectOne(errors: ErrorObject[], doc: unknown, requirement: string, path: string): Finding {
  const out = cprSchemaFindings(errors, doc);
  expect(ids(out)).toEqual([[requirement, path]]);
  const f = out[0] as Finding;
  expect(f.severity).toBe('error');
  expect(f.level).toBe(requirement.startsWith('PRF-') ? 'PROFILE' : 'SPEC');
  expect(f.message.length).toBeGreaterThan(0);
  return f;
}

describe('cprSchemaFindings: the root', () => {
  it.each(['cpr_version', 'request_id', 'created_at', 'expires_at', 'payee', 'value'])(
    'a missing base member %s is CPR-2.1-REQUIRED-FIELDS at its own path',
    (name) => {
      const f = expectOne([required('', name)], {}, 'CPR-2.1-REQUIRED-FIELDS', `/${name}`);
      expect(f.message).toContain(name);
      expect(f.message).toContain('missing');
    },
  );

  it('leaves a missing sub-interface field to the sub-interface rule (no finding)', () => {
    for (const name of [
      'iban',
      'beneficiary_name',
      'chain_id',
      'key_type',
      'memo',
      'constructor',
      'toString',
    ]) {
      expect(cprSchemaFindings([required('', name)], {})).toEqual([]);
    }
  });

  it('maps any other keyword at the root to CPR-4.3-VALIDATE-BEFORE-PROCESSING, naming the document', () => {
    const f = expectOne([typeErr('')], {}, 'CPR-4.3-VALIDATE-BEFORE-PROCESSING', '');
    expect(f.message).toContain('the document');
    expect(f.message).toContain('string');
  });

  it('skips the branch bookkeeping: every `if`, and `oneOf` at the root only', () => {
    expect(cprSchemaFindings([err('if', ''), err('if', '/value'), err('oneOf', '')], {})).toEqual([]);
    expectOne([err('oneOf', '/payee')], {}, 'CPR-2.2-RAIL-ADDRESS', '/payee');
    expectOne([err('oneOf', '/value/asset')], {}, 'CPR-2.3-ASSET-REQUIRED', '/value/asset');
  });
});

describe('cprSchemaFindings: value (CPR-1.0 2.3, profile 1)', () => {
  it('a value without asset is CPR-2.3-ASSET-REQUIRED at /value/asset', () => {
    const f = expectOne([required('/value', 'asset')], {}, 'CPR-2.3-ASSET-REQUIRED', '/value/asset');
    expect(f.message).toContain('value.asset');
  });

  it('a value of the wrong type is CPR-2.1-FIELD-TYPES at /value', () => {
    const f = expectOne([typeErr('/value')], {}, 'CPR-2.1-FIELD-TYPES', '/value');
    expect(f.message).toContain('value');
  });

  it('any keyword on value.amount is PRF-1-AMOUNT-FORMAT', () => {
    expectOne(
      [err('pattern', '/value/amount', { pattern: '^[1-9][0-9]*$' })],
      {},
      'PRF-1-AMOUNT-FORMAT',
      '/value/amount',
    );
    expectOne([typeErr('/value/amount')], {}, 'PRF-1-AMOUNT-FORMAT', '/value/amount');
  });

  it('a member of value other than amount and asset is CPR-2.1-FIELD-TYPES', () => {
    expectOne([typeErr('/value/other')], {}, 'CPR-2.1-FIELD-TYPES', '/value/other');
  });

  it('a missing asset member: chain_id is CPR-2.3-CHAIN-ID-REQUIRED, type and code CPR-2.3-ASSET-REQUIRED', () => {
    expectOne(
      [required('/value/asset', 'chain_id')],
      {},
      'CPR-2.3-CHAIN-ID-REQUIRED',
      '/value/asset/chain_id',
    );
    expectOne([required('/value/asset', 'type')], {}, 'CPR-2.3-ASSET-REQUIRED', '/value/asset/type');
    const f = expectOne(
      [required('/value/asset', 'code')],
      {},
      'CPR-2.3-ASSET-REQUIRED',
      '/value/asset/code',
    );
    expect(f.message).toContain('value.asset.code');
  });

  it('an asset of the wrong type is CPR-2.3-ASSET-REQUIRED at /value/asset', () => {
    expectOne([typeErr('/value/asset')], {}, 'CPR-2.3-ASSET-REQUIRED', '/value/asset');
  });

  it.each([
    ['type', 'CPR-2.3-ASSET-TYPE'],
    ['code', 'CPR-2.3-ASSET-CODE-ISO4217'],
    ['chain_id', 'CPR-2.3-CHAIN-ID-REQUIRED'],
    ['other', 'CPR-2.3-ASSET-TYPE'],
    ['constructor', 'CPR-2.3-ASSET-TYPE'],
  ])('value.asset.%s is %s', (name, id) => {
    expectOne([typeErr(`/value/asset/${name}`)], {}, id, `/value/asset/${name}`);
  });
});

describe('cprSchemaFindings: payee and timestamps', () => {
  it('payee.display_name is CPR-2.2-DISPLAY-NAME; the rest of payee CPR-2.2-RAIL-ADDRESS', () => {
    expectOne([typeErr('/payee/display_name')], {}, 'CPR-2.2-DISPLAY-NAME', '/payee/display_name');
    expectOne([typeErr('/payee')], {}, 'CPR-2.2-RAIL-ADDRESS', '/payee');
    expectOne([required('/payee', 'rail_address')], {}, 'CPR-2.2-RAIL-ADDRESS', '/payee');
    expectOne([typeErr('/payee/rail_address')], {}, 'CPR-2.2-RAIL-ADDRESS', '/payee/rail_address');
    expectOne(
      [typeErr('/payee/rail_address/display_name')],
      {},
      'CPR-2.2-RAIL-ADDRESS',
      '/payee/rail_address/display_name',
    );
  });

  it.each(['created_at', 'expires_at'])(
    '%s: its pattern is PRF-1-TIMESTAMP-Z, any other keyword CPR-2.1-TIMESTAMPS-UTC',
    (name) => {
      const f = expectOne(
        [err('pattern', `/${name}`, { pattern: '^...Z$' })],
        {},
        'PRF-1-TIMESTAMP-Z',
        `/${name}`,
      );
      expect(f.message).toContain(name);
      expectOne([typeErr(`/${name}`)], {}, 'CPR-2.1-TIMESTAMPS-UTC', `/${name}`);
      expectOne(
        [err('format', `/${name}`, { format: 'date-time' })],
        {},
        'CPR-2.1-TIMESTAMPS-UTC',
        `/${name}`,
      );
    },
  );
});

describe('cprSchemaFindings: the other top-level members', () => {
  it.each([
    ['cpr_version', 'CPR-2.1-VERSION'],
    ['request_id', 'PRF-1-IDENTIFIER-UUID'],
    ['memo', 'CPR-2.1-MEMO-LENGTH'],
    ['extensions', 'CPR-2.1-FIELD-TYPES'],
    ['rail_hint', 'CPR-2.4-RAIL-HINT-ENUM'],
    ['chain_id', 'CPR-2.5-CHAIN-ID'],
    ['receiver_address', 'CPR-2.5-RECEIVER-ADDRESS'],
    ['domain_separator', 'CPR-2.5-DOMAIN-SEPARATOR'],
    ['order_reference', 'CPR-2.5-ORDER-REFERENCE'],
    ['acquirer_id', 'CPR-2.5-ACQUIRER-ID'],
    ['contract_address', 'CPR-2.5-CONTRACT-ADDRESS'],
    ['iban', 'CPR-2.6-IBAN-VALID'],
    ['bic', 'CPR-2.6-BIC-VALID'],
    ['purpose_code', 'CPR-2.6-PURPOSE-CODE'],
    ['account_number', 'CPR-2.7-ACCOUNT-NUMBER'],
    ['routing_code', 'CPR-2.7-ROUTING-FIELDS'],
    ['routing_code_type', 'CPR-2.7-ROUTING-FIELDS'],
    ['bank_name', 'CPR-2.7-OPTIONAL-FIELD-TYPES'],
    ['key_type', 'CPR-2.8-KEY-TYPE'],
    ['key_value', 'CPR-2.8-KEY-VALUE'],
    ['txid', 'CPR-2.8-OPTIONAL-FIELD-TYPES'],
  ])('%s is %s, at its path and below it', (name, id) => {
    const f = expectOne([typeErr(`/${name}`)], {}, id, `/${name}`);
    expect(f.message).toContain(name);
    expectOne([typeErr(`/${name}/x`)], {}, id, `/${name}/x`);
  });

  it('a member no table names is CPR-4.3-VALIDATE-BEFORE-PROCESSING at its path', () => {
    expectOne([typeErr('/unknown')], {}, 'CPR-4.3-VALIDATE-BEFORE-PROCESSING', '/unknown');
    expectOne([typeErr('/constructor')], {}, 'CPR-4.3-VALIDATE-BEFORE-PROCESSING', '/constructor');
    expectOne([typeErr('/__proto__')], {}, 'CPR-4.3-VALIDATE-BEFORE-PROCESSING', '/__proto__');
  });
});

describe('cprSchemaFindings: members several sub-interfaces share take the applied one', () => {
  const iban = { iban: 'DE89370400440532013000', beneficiary_name: 'X' };
  const account = { account_number: '123', beneficiary_name: 'X' };
  const key = { key_type: 'EMAIL', key_value: 'a@b.c' };
  const docs: [string, Record<string, unknown>][] = [
    ['onchain', { rail_hint: 'ON_CHAIN' }],
    ['iban', { rail_hint: 'SEPA_CT' }],
    ['account', { rail_hint: 'ACH' }],
    ['instant-key', { rail_hint: 'PIX' }],
    ['iban', { ...iban }],
    ['account', { ...account }],
    ['instant-key', { ...key }],
    // no single sub-interface applies: account when account_number is there, else IBAN
    ['account', { rail_hint: 'OPEN', ...iban, ...account }],
    ['iban', { ...iban, ...key }],
    ['iban', {}],
    ['iban', { rail_hint: 'WIRE' }],
    ['account', { rail_hint: 'WIRE', account_number: '1' }],
  ];
  const want: Record<string, Record<string, string>> = {
    beneficiary_name: {
      onchain: 'CPR-2.6-BENEFICIARY-NAME',
      iban: 'CPR-2.6-BENEFICIARY-NAME',
      account: 'CPR-2.7-ACCOUNT-FIELDS',
      'instant-key': 'CPR-2.8-OPTIONAL-FIELD-TYPES',
    },
    end_to_end_id: {
      onchain: 'CPR-2.6-END-TO-END-ID',
      iban: 'CPR-2.6-END-TO-END-ID',
      account: 'CPR-2.7-OPTIONAL-FIELD-TYPES',
      'instant-key': 'CPR-2.6-END-TO-END-ID',
    },
    remittance_info: {
      onchain: 'CPR-2.6-REMITTANCE-LENGTH',
      iban: 'CPR-2.6-REMITTANCE-LENGTH',
      account: 'CPR-2.7-REMITTANCE-LENGTH',
      'instant-key': 'CPR-2.6-REMITTANCE-LENGTH',
    },
  };
  for (const name of Object.keys(want)) {
    it.each(docs)(`${name} under %s (%j)`, (sub, doc) => {
      expectOne([typeErr(`/${name}`)], doc, want[name]?.[sub] as string, `/${name}`);
    });
  }
});

describe('cprSchemaFindings: paths and messages', () => {
  it('decodes the pointer (~1 is "/", ~0 is "~", in that order) and writes it again', () => {
    const f = expectOne(
      [typeErr('/payee/rail_address/a~1b')],
      {},
      'CPR-2.2-RAIL-ADDRESS',
      '/payee/rail_address/a~1b',
    );
    expect(f.message).toContain('payee.rail_address.a/b');
    const g = expectOne(
      [typeErr('/payee/rail_address/a~0b')],
      {},
      'CPR-2.2-RAIL-ADDRESS',
      '/payee/rail_address/a~0b',
    );
    expect(g.message).toContain('payee.rail_address.a~b');
    const h = expectOne([typeErr('/payee/x~01')], {}, 'CPR-2.2-RAIL-ADDRESS', '/payee/x~01');
    expect(h.message).toContain('payee.x~1');
    expect(h.message).not.toContain('x/');
    const m = expectOne([typeErr('/ext~1x')], {}, 'CPR-4.3-VALIDATE-BEFORE-PROCESSING', '/ext~1x');
    expect(m.message).toContain('ext/x');
  });

  it('keeps empty segments', () => {
    expectOne([typeErr('/payee/')], {}, 'CPR-2.2-RAIL-ADDRESS', '/payee/');
    expectOne([typeErr('/payee//display_name')], {}, 'CPR-2.2-RAIL-ADDRESS', '/payee//display_name');
    expectOne([typeErr('/')], {}, 'CPR-4.3-VALIDATE-BEFORE-PROCESSING', '/');
    expectOne([typeErr('/value/asset/')], {}, 'CPR-2.3-ASSET-TYPE', '/value/asset/');
  });

  it('names the member and what the keyword wants', () => {
    const one = (e: ErrorObject) => (cprSchemaFindings([e], {})[0] as Finding).message;
    expect(one(required('/value/asset', 'code'))).toMatch(/value\.asset\.code.*missing/);
    const c = one(err('const', '/cpr_version', { allowedValue: 'CPR-1.0' }));
    expect(c).toContain('cpr_version');
    expect(c).toContain('"CPR-1.0"');
    const en = one(err('enum', '/rail_hint', { allowedValues: ['ON_CHAIN', 'OPEN'] }));
    expect(en).toContain('rail_hint');
    expect(en).toContain('"ON_CHAIN"');
    expect(en).toContain('"OPEN"');
    const t = one(err('type', '/memo', { type: 'string' }));
    expect(t).toContain('memo');
    expect(t).toContain('string');
    const p = one(err('pattern', '/request_id', { pattern: '^[0-9a-f]{8}$' }));
    expect(p).toContain('request_id');
    expect(p).toContain('^[0-9a-f]{8}$');
    const fm = one(err('format', '/created_at', { format: 'date-time' }));
    expect(fm).toContain('created_at');
    expect(fm).toContain('date-time');
    const ml = one(err('maxLength', '/memo', { limit: 140 }));
    expect(ml).toContain('memo');
    expect(ml).toContain('140');
    const mn = one(err('minLength', '/value/asset/code', { limit: 1 }));
    expect(mn).toContain('value.asset.code');
    expect(mn).toContain('empty');
    const other = one(err('maximum', '/chain_id', { limit: 5 }, 'must be <= 5'));
    expect(other).toContain('chain_id');
    expect(other).toContain('must be <= 5');
    const bare = one(err('maximum', '/chain_id', { limit: 5 }));
    expect(bare).toContain('chain_id');
    expect(bare).toContain('invalid');
  });

  it('gives one finding per (requirement, path), the first error of each', () => {
    const out = cprSchemaFindings(
      [
        err('pattern', '/created_at', { pattern: 'Z$' }),
        typeErr('/created_at'),
        err('format', '/created_at', { format: 'date-time' }),
        err('pattern', '/created_at', { pattern: 'other$' }),
        typeErr('/memo'),
        err('maxLength', '/memo', { limit: 140 }),
        typeErr('/payee'),
        required('/payee', 'rail_address'),
      ],
      {},
    );
    expect(ids(out)).toEqual([
      ['PRF-1-TIMESTAMP-Z', '/created_at'],
      ['CPR-2.1-TIMESTAMPS-UTC', '/created_at'],
      ['CPR-2.1-MEMO-LENGTH', '/memo'],
      ['CPR-2.2-RAIL-ADDRESS', '/payee'],
    ]);
    expect(out[1]?.message).toContain('string');
    expect(out[2]?.message).toContain('string');
  });

  it('keeps every distinct finding of a long list, and drops each repeat', () => {
    const names = Array.from({ length: 40 }, (_, i) => `m${i}`);
    const errors = [...names, ...names.slice().reverse()].map((n) => typeErr(`/extensions/${n}`));
    expect(ids(cprSchemaFindings(errors, {}))).toEqual(
      names.map((n) => ['CPR-2.1-FIELD-TYPES', `/extensions/${n}`]),
    );
  });
});

describe('cprSchemaFindings on the real schemas', () => {
  const base = {
    cpr_version: 'CPR-1.0',
    request_id: '3b241101-e2bb-4255-8caf-4136c566a962',
    created_at: '2026-06-01T00:00:00Z',
    expires_at: '2026-06-01T00:10:00Z',
    payee: { display_name: 'Shop', rail_address: { iban: 'DE89370400440532013000' } },
    value: { amount: '100', asset: { type: 'fiat', code: 'EUR' } },
    iban: 'DE89370400440532013000',
    beneficiary_name: 'Shop',
  };
  const run = (doc: Record<string, unknown>) => {
    const validate = getSchemaValidator('cpr/cpr-payee');
    return validate(doc) ? [] : ids(cprSchemaFindings(validate.errors ?? [], doc));
  };

  it('finds nothing in a valid document', () => {
    expect(run(base)).toEqual([]);
  });

  it('reports each broken member once, at its path', () => {
    expect(
      run({
        ...base,
        cpr_version: 'CPR-2.0',
        created_at: '2026-06-01T00:00:00+01:00',
        memo: 'x'.repeat(141),
        value: { amount: '0100', asset: { type: 'gold', code: '' } },
      }),
    ).toEqual(
      expect.arrayContaining([
        ['CPR-2.1-VERSION', '/cpr_version'],
        ['PRF-1-TIMESTAMP-Z', '/created_at'],
        ['CPR-2.1-MEMO-LENGTH', '/memo'],
        ['PRF-1-AMOUNT-FORMAT', '/value/amount'],
        ['CPR-2.3-ASSET-TYPE', '/value/asset/type'],
        ['CPR-2.3-ASSET-CODE-ISO4217', '/value/asset/code'],
      ]),
    );
  });

  it('reports a missing base member and leaves the branch bookkeeping out', () => {
    const { request_id: _, ...doc } = base;
    expect(run(doc)).toEqual([['CPR-2.1-REQUIRED-FIELDS', '/request_id']]);
  });
});

describe('schemaFallbackFinding (PRF-2-SUB-INTERFACE-SELECTION)', () => {
  it('names the first error that is not an `if`', () => {
    const f = schemaFallbackFinding([
      err('if', '/x'),
      err('oneOf', '', {}, 'must match exactly one schema in oneOf'),
    ]);
    expect(f).toMatchObject({
      requirement: 'PRF-2-SUB-INTERFACE-SELECTION',
      level: 'PROFILE',
      severity: 'error',
      path: '',
    });
    expect(f.message).toContain('the document');
    expect(f.message).toContain('oneOf');
    const g = schemaFallbackFinding([err('if', ''), typeErr('/iban'), err('oneOf', '')]);
    expect(g.path).toBe('/iban');
    expect(g.message).toContain('iban');
  });

  it('takes an `if` when there is nothing else, and answers without any error', () => {
    expect(schemaFallbackFinding([err('if', '/a~1b', {}, 'must match "then" schema')]).path).toBe('/a~1b');
    const f = schemaFallbackFinding([]);
    expect(f).toMatchObject({ requirement: 'PRF-2-SUB-INTERFACE-SELECTION', path: '' });
    expect(f.message).toContain('schema');
  });
});

describe('SCHEMA_FINDING_REQUIREMENTS', () => {
  it('is every requirement a schema finding can carry, sorted, once each', () => {
    const all = [
      'CPR-2.1-REQUIRED-FIELDS',
      'CPR-2.1-VERSION',
      'PRF-1-IDENTIFIER-UUID',
      'CPR-2.1-TIMESTAMPS-UTC',
      'PRF-1-TIMESTAMP-Z',
      'CPR-2.1-MEMO-LENGTH',
      'CPR-2.1-FIELD-TYPES',
      'CPR-2.4-RAIL-HINT-ENUM',
      'CPR-2.2-DISPLAY-NAME',
      'CPR-2.2-RAIL-ADDRESS',
      'CPR-2.3-ASSET-REQUIRED',
      'CPR-2.3-ASSET-TYPE',
      'CPR-2.3-ASSET-CODE-ISO4217',
      'CPR-2.3-CHAIN-ID-REQUIRED',
      'PRF-1-AMOUNT-FORMAT',
      'CPR-2.5-CHAIN-ID',
      'CPR-2.5-RECEIVER-ADDRESS',
      'CPR-2.5-DOMAIN-SEPARATOR',
      'CPR-2.5-ORDER-REFERENCE',
      'CPR-2.5-ACQUIRER-ID',
      'CPR-2.5-CONTRACT-ADDRESS',
      'CPR-2.6-IBAN-VALID',
      'CPR-2.6-BIC-VALID',
      'CPR-2.6-PURPOSE-CODE',
      'CPR-2.6-BENEFICIARY-NAME',
      'CPR-2.6-END-TO-END-ID',
      'CPR-2.6-REMITTANCE-LENGTH',
      'CPR-2.7-ACCOUNT-NUMBER',
      'CPR-2.7-ROUTING-FIELDS',
      'CPR-2.7-OPTIONAL-FIELD-TYPES',
      'CPR-2.7-ACCOUNT-FIELDS',
      'CPR-2.7-REMITTANCE-LENGTH',
      'CPR-2.8-KEY-TYPE',
      'CPR-2.8-KEY-VALUE',
      'CPR-2.8-OPTIONAL-FIELD-TYPES',
      'CPR-4.3-VALIDATE-BEFORE-PROCESSING',
      'PRF-2-SUB-INTERFACE-SELECTION',
    ];
    expect(SCHEMA_FINDING_REQUIREMENTS).toEqual([...new Set(all)].sort());
    expect(SCHEMA_FINDING_REQUIREMENTS.length).toBe(all.length);
  });
});
