import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../src/model/finding.js';
import { isPayerDataName, noPayerData, normaliseKey } from '../../../src/validator/rules/no-payer-data.js';
import { type Expected, expectFindings, summary } from './run-rule.js';

// Profile section 2 (spec 1.2, 2.9, INV-1, INV-6): no member at any depth, extensions included,
// whose name (case- and separator-insensitive, after any namespace prefix) is payer or starts
// with payer_, starts with debtor, is authorization, signed_tx, raw_tx, permit, starts with
// mandate, is execution_date, state, status or starts with settlement; no top-level signature,
// request or rail. Payer names break INV-1, the others INV-6. The list is a floor: this validator
// also knows the other spellings below.

const PAYER = 'CPR-INV-1-NO-PAYER-DATA';
const SEPARATION = 'CPR-INV-6-SEPARATION';

/** The profile's floor, spelled as implementers write it. */
const FLOOR_PAYER = [
  'payer',
  'Payer',
  'PAYER',
  'payer_id',
  'payer_name',
  'Payer-ID',
  'payerId',
  'payer id',
  'debtor',
  'Debtor',
  'debtor_agent',
  'debtorAccount',
  'debtor_x',
  'DEBTOR-9',
];
const FLOOR_SEPARATION = [
  'authorization',
  'Authorization',
  'signed_tx',
  'signedTx',
  'SIGNED-TX',
  'raw_tx',
  'rawTx',
  'permit',
  'Permit',
  'mandate',
  'mandate_reference',
  'mandateId',
  'execution_date',
  'executionDate',
  'state',
  'STATE',
  'status',
  'Status',
  'settlement',
  'settlement_date',
  'settlementInstruction',
  'settlement_status',
];
/** The validator's other spellings (beyond the floor). */
const MORE_PAYER = [
  'ultimate_debtor',
  'sender',
  'sender_address',
  'sender_account',
  'sender_name',
  'from_address',
  'paying_user',
  'customer_id',
  'payer_wallet',
  'payerContext',
];
const MORE_SEPARATION = [
  'authorisation',
  'authorization_proof',
  'auth_proof',
  'payment_status',
  'payment_state',
  'settled',
  'settled_at',
  'confirmation',
  'confirmations',
  'confirmed',
  'confirmed_at',
  'paid',
  'paid_at',
  'fulfilled',
  'fulfilled_at',
  'consumed',
  'consumed_at',
  'derivation_context',
  'execution_context',
];
const TOP_ONLY = [
  'signature',
  'Signature',
  'request',
  'REQUEST',
  'rail',
  'Rail',
  'com.example:Signature',
  'x/request',
  'foundation:rail',
];
/** Names a CPR legitimately uses, and near misses of forbidden ones. */
const ALLOWED = [
  'payee',
  'payee_id',
  'payees',
  'pay',
  'paye',
  'pa_yee',
  'beneficiary_name',
  'txid',
  'end_to_end_id',
  'rail_hint',
  'rail_address',
  'railway',
  'request_id',
  'requests',
  'signatures',
  'signature_scheme',
  'statement',
  'estate',
  'stat',
  'states',
  'statuses',
  'substatus',
  'debt',
  'debto',
  'mandat',
  'settle',
  'settlemen',
  'permits',
  'permitted',
  'authorizations',
  'signed',
  'tx',
  'raw',
  'execution',
  'date',
  'memo',
  'amount',
  'receiver_address',
  'order_reference',
  'x',
  '',
  '_',
  '::',
  '.',
  '~',
  '0',
  '9payer',
  'xpayer',
  'x_payer',
  'signed2tx',
  'é',
  'ééé',
  'éplain',
  'édog',
  'émoney',
  'ésomething',
  'épay',
];

const top = (key: string, value: unknown = 1): Record<string, unknown> => ({ [key]: value });
const nested = (key: string): Record<string, unknown> => ({ extensions: { 'com.example:x': { [key]: 1 } } });
const esc = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');

describe('no-payer-data: member names', () => {
  it('refuses the profile floor at the top level and at any depth, payer names under INV-1', () => {
    for (const mode of ['payee', 'wallet'] as const) {
      for (const key of FLOOR_PAYER) {
        expectFindings(noPayerData, top(key), [[PAYER, `/${esc(key)}`]], { mode });
        expectFindings(noPayerData, nested(key), [[PAYER, `/extensions/com.example:x/${esc(key)}`]], {
          mode,
        });
      }
      for (const key of FLOOR_SEPARATION) {
        expectFindings(noPayerData, top(key), [[SEPARATION, `/${esc(key)}`]], { mode });
        expectFindings(noPayerData, nested(key), [[SEPARATION, `/extensions/com.example:x/${esc(key)}`]], {
          mode,
        });
      }
    }
  });

  it('refuses the other spellings it knows, at any depth', () => {
    for (const key of MORE_PAYER) {
      expectFindings(noPayerData, top(key), [[PAYER, `/${key}`]]);
      expectFindings(noPayerData, nested(key), [[PAYER, `/extensions/com.example:x/${key}`]]);
    }
    for (const key of MORE_SEPARATION) {
      expectFindings(noPayerData, top(key), [[SEPARATION, `/${key}`]]);
      expectFindings(noPayerData, nested(key), [[SEPARATION, `/extensions/com.example:x/${key}`]]);
    }
  });

  it('refuses signature, request and rail at the top level only', () => {
    for (const key of TOP_ONLY) {
      expectFindings(noPayerData, top(key), [[SEPARATION, `/${esc(key)}`]]);
      expectFindings(noPayerData, nested(key), []);
      expectFindings(noPayerData, { a: [{ [key]: 1 }] }, []);
      expect(isPayerDataName(key, true), key).toBe(true);
      expect(isPayerDataName(key, false), key).toBe(false);
    }
  });

  it('accepts the names a CPR uses and near misses, at the top level and nested', () => {
    for (const key of ALLOWED) {
      expectFindings(noPayerData, top(key), []);
      expectFindings(noPayerData, nested(key), []);
      expect(isPayerDataName(key, true), key).toBe(false);
    }
  });

  it('reads the part after the last namespace separator (: / .) first, then the whole name', () => {
    for (const key of [
      'com.example:payer',
      'foundation:payer_id',
      'org.acme/Debtor',
      'a.b.c.payer',
      'x:y/z.payerName',
      'payee:payer',
      '.payer',
      'payer.',
      'payer.name',
      'payer:',
      'pay.er',
      'pa:y/e.r',
    ]) {
      expectFindings(noPayerData, nested(key), [[PAYER, `/extensions/com.example:x/${esc(key)}`]]);
    }
    for (const key of [
      'com.example:status',
      'io.x:Signed-Tx',
      'a/b/mandate',
      'x.state',
      'status:x:state',
      'payer.x:status',
      'sta.tus',
      'sta:tus',
      'stat:us',
    ]) {
      expectFindings(noPayerData, nested(key), [[SEPARATION, `/extensions/com.example:x/${esc(key)}`]]);
    }
    // the tail decides first: a payer prefix before a state tail is state data
    expect(
      summary(
        noPayerData.check({ doc: { 'payer:status': 1 }, mode: 'payee', nowMs: 0, maxValiditySeconds: 1 }),
      ),
    ).toEqual([[SEPARATION, '/payer:status', 'error']]);
    expect(
      summary(
        noPayerData.check({ doc: { 'status.payer': 1 }, mode: 'payee', nowMs: 0, maxValiditySeconds: 1 }),
      ),
    ).toEqual([[PAYER, '/status.payer', 'error']]);
    for (const key of ['status:x', 'state:x.y', 'com.example:payee', 'x.state:y', 'signature:x', 'a.b:c']) {
      expectFindings(noPayerData, nested(key), []);
    }
    // a top-level-only name after a prefix, and a top-level name as the whole name
    expectFindings(noPayerData, top('com.example:rail'), [[SEPARATION, '/com.example:rail']]);
    expectFindings(noPayerData, top('rail:x'), []);
    expectFindings(noPayerData, top('re.quest'), [[SEPARATION, '/re.quest']]);
  });

  it('skips every character that is not a letter or digit, whichever side of the letters it sits', () => {
    for (const sep of ['_', '-', ' ', '@', '[', '`', '{', '~', '\u007f', '#', '\t']) {
      expectFindings(noPayerData, nested(`pay${sep}er`), [
        [PAYER, `/extensions/com.example:x/${esc(`pay${sep}er`)}`],
      ]);
      expectFindings(noPayerData, nested(`sta${sep}tus`), [
        [SEPARATION, `/extensions/com.example:x/${esc(`sta${sep}tus`)}`],
      ]);
      expectFindings(noPayerData, top(`${sep}rail${sep}`), [[SEPARATION, `/${esc(`${sep}rail${sep}`)}`]]);
    }
    expectFindings(noPayerData, nested('payer1'), [[PAYER, '/extensions/com.example:x/payer1']]);
    expectFindings(noPayerData, nested('settlement2'), [
      [SEPARATION, '/extensions/com.example:x/settlement2'],
    ]);
  });

  it('lower-cases non-ASCII names the Unicode way before reading them', () => {
    const cases: [string, string | null, string | null][] = [
      // [name, verdict at the top level, verdict nested]
      ['éPAYER_ID', PAYER, PAYER],
      ['é_debtor', PAYER, PAYER],
      ['édebtorx', PAYER, PAYER],
      ['émandate', SEPARATION, SEPARATION],
      ['émandate_id', SEPARATION, SEPARATION],
      ['éxmandate', null, null],
      ['épayer_x', PAYER, PAYER],
      ['éxpayer', null, null],
      ['éxdebtor', null, null],
      ['éxsettlement', null, null],
      ['ésettlementX', SEPARATION, SEPARATION],
      ['éstatus', SEPARATION, SEPARATION],
      ['ésender', PAYER, PAYER],
      ['éauthorization', SEPARATION, SEPARATION],
      ['AUTHORİZATION', SEPARATION, SEPARATION], // İ lower-cases to i + a combining dot
      ['SİGNATURE', SEPARATION, null],
      ['ésignature', SEPARATION, null],
      ['érequest', SEPARATION, null],
      ['érail', SEPARATION, null],
      ['éstate', SEPARATION, SEPARATION],
      ['com.é:payer', PAYER, PAYER],
      ['payer.é', PAYER, PAYER],
      ['x:é-status', SEPARATION, SEPARATION],
      ['é:rail', SEPARATION, null],
      ['rail:é', SEPARATION, null],
      ['é.status:x', null, null],
      ['éstatusx', null, null],
      ['ésignaturex', null, null],
      ['épayee', null, null],
      ['éplain', null, null],
      ['émoney', null, null],
      ['ésomething', null, null],
      ['é', null, null],
      ['\u0080', null, null],
      ['pay\u0080er', PAYER, PAYER],
      ['sta\u00fftus', SEPARATION, SEPARATION],
    ];
    for (const [key, atTop, inside] of cases) {
      expectFindings(noPayerData, top(key), atTop === null ? [] : [[atTop, `/${key}`]]);
      expectFindings(
        noPayerData,
        nested(key),
        inside === null ? [] : [[inside, `/extensions/com.example:x/${key}`]],
      );
    }
  });

  it('names the member in its message', () => {
    const [p, s] = expectFindings(noPayerData, { payer_id: 1, status: 2 }, [
      [PAYER, '/payer_id'],
      [SEPARATION, '/status'],
    ]);
    expect(p?.message).toContain('"payer_id"');
    expect(s?.message).toContain('"status"');
    expect(p?.message).not.toEqual(s?.message.replace('status', 'payer_id'));
  });
});

describe('normaliseKey', () => {
  it('keeps the part after the last : / or ., lower case, letters and digits only', () => {
    for (const [key, n] of [
      ['com.example:Signed-Tx', 'signedtx'],
      ['Payer-ID', 'payerid'],
      ['foundation:payer_id', 'payerid'],
      ['a/b.c:D_e', 'de'],
      ['a:b/c', 'c'],
      ['a/b:c', 'c'],
      ['a:b.c', 'c'],
      ['a.b:c', 'c'],
      ['x.y/z', 'z'],
      ['a.b/c:', ''],
      ['plain', 'plain'],
      ['', ''],
      [':', ''],
      ['A1 B2', 'a1b2'],
    ] as const) {
      expect(normaliseKey(key), key).toBe(n);
    }
  });
});

describe('no-payer-data: the walk', () => {
  it('walks objects and arrays at any depth, in document order, with RFC 6901 paths', () => {
    expectFindings(
      noPayerData,
      {
        payee: { display_name: 'x', rail_address: { payer: 1 } },
        value: { amount: '1', asset: { type: 'fiat', code: 'EUR', status: 'x' } },
        items: [null, 1, 'payer', [{ debtor: 1 }], { x: 1 }, { mandate_id: 2 }],
        extensions: { 'a/b': { 'payer~x': true }, 'com.example:n': { settled: [1, { paid: null }] } },
        'x/y': null,
      },
      [
        [PAYER, '/payee/rail_address/payer'],
        [SEPARATION, '/value/asset/status'],
        [PAYER, '/items/3/0/debtor'],
        [SEPARATION, '/items/5/mandate_id'],
        [PAYER, '/extensions/a~1b/payer~0x'],
        [SEPARATION, '/extensions/com.example:n/settled'],
        [SEPARATION, '/extensions/com.example:n/settled/1/paid'],
      ],
    );
  });

  it('reports a forbidden member and walks into its value too', () => {
    expectFindings(noPayerData, { payer: { status: { rail: 1 } }, b: [] }, [
      [PAYER, '/payer'],
      [SEPARATION, '/payer/status'],
    ]);
  });

  it('accepts a document without any forbidden member', () => {
    expectFindings(
      noPayerData,
      {
        payee: { display_name: 'x' },
        value: { amount: '1' },
        list: [[[]], {}, null],
        x: { y: { z: 'payer' } },
      },
      [],
    );
    expectFindings(noPayerData, {}, []);
  });

  /** `depth` objects nested under "n", with `leaf` members at the bottom; its path prefix. */
  const chain = (depth: number, leaf: Record<string, unknown>): [Record<string, unknown>, string] => {
    let node: Record<string, unknown> = leaf;
    for (let i = 0; i < depth; i++) node = { n: node };
    return [node, '/n'.repeat(depth)];
  };

  it('finds members at every depth around the recursion limit, with full paths', () => {
    for (const depth of [1, 46, 47, 48, 49, 50, 51, 60, 120]) {
      const [doc, at] = chain(depth, {
        payer: 1,
        b: { status: 1 },
        c: [{ debtor: 1 }, [{ mandate: 1 }]],
        d: { signature: 1 },
      });
      expectFindings(noPayerData, doc, [
        [PAYER, `${at}/payer`],
        [SEPARATION, `${at}/b/status`],
        [PAYER, `${at}/c/0/debtor`],
        [SEPARATION, `${at}/c/1/0/mandate`],
      ]);
    }
  });

  it('walks arrays nested deeper than the recursion limit', () => {
    let node: unknown = { payer: 1 };
    for (let i = 0; i < 70; i++) node = i % 2 === 0 ? [0, node] : { ['k~/'[i % 3] as string]: node };
    const found = noPayerData.check({ doc: { root: node }, mode: 'payee', nowMs: 0, maxValiditySeconds: 1 });
    expect(summary(found)).toHaveLength(1);
    const segments = (found[0] as Finding).path.split('/');
    expect(segments).toHaveLength(73);
    expect(segments.at(-1)).toBe('payer');
    expect(segments[1]).toBe('root');
    expect(segments.filter((s) => s === '1')).toHaveLength(35);
  });

  it('walks 10,000 levels without exhausting the stack', () => {
    const [doc, at] = chain(10_000, { debtor: 1 });
    const found = noPayerData.check({ doc, mode: 'payee', nowMs: 0, maxValiditySeconds: 1 });
    expect(summary(found)).toEqual([[PAYER, `${at}/debtor`, 'error']]);
  });

  it('walks each member once at any depth, null and primitive values included', () => {
    for (const depth of [2, 60]) {
      const [doc, at] = chain(depth, {
        undefined: { payer: 1 },
        a: null,
        b: [null, 'x', 2, { c: null }],
        d: { status: null },
      });
      expectFindings(noPayerData, doc, [
        [PAYER, `${at}/undefined/payer`],
        [SEPARATION, `${at}/d/status`],
      ]);
    }
  });

  it('walks each node of an exotic graph once (a cycle ends the walk)', () => {
    const [doc, at] = chain(60, { payer: 1 });
    let node = doc;
    for (let i = 0; i < 55; i++) node = node.n as Record<string, unknown>;
    (node.n as Record<string, unknown>).loop = node;
    const found = noPayerData.check({ doc, mode: 'payee', nowMs: 0, maxValiditySeconds: 1 });
    expect(summary(found)).toEqual([[PAYER, `${at}/payer`, 'error']]);
  });

  it('reads own members only: objects without a prototype, class instances, a polluted Object.prototype', () => {
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, {
      a: Object.assign(Object.create(null) as object, { payer: 1 }),
      status: 1,
    });
    expect(summary(noPayerData.check({ doc: bare, mode: 'payee', nowMs: 0, maxValiditySeconds: 1 }))).toEqual(
      [
        [PAYER, '/a/payer', 'error'],
        [SEPARATION, '/status', 'error'],
      ],
    );
    class Holder {
      debtor = 1;
      inner = { rail: 1, state: 2 };
    }
    expect(
      summary(
        noPayerData.check({
          doc: { h: new Holder() } as Record<string, unknown>,
          mode: 'payee',
          nowMs: 0,
          maxValiditySeconds: 1,
        }),
      ),
    ).toEqual([
      [PAYER, '/h/debtor', 'error'],
      [SEPARATION, '/h/inner/state', 'error'],
    ]);
    // an object whose prototype has enumerable members: only its own are read
    const inheriting = Object.assign(Object.create({ payer: 1, debtor: { status: 1 } }) as object, { x: 1 });
    expect(
      summary(noPayerData.check({ doc: { a: inheriting }, mode: 'payee', nowMs: 0, maxValiditySeconds: 1 })),
    ).toEqual([]);
    const [deep] = chain(60, { a: inheriting, b: { mandate: 1 } });
    expect(summary(noPayerData.check({ doc: deep, mode: 'payee', nowMs: 0, maxValiditySeconds: 1 }))).toEqual(
      [[SEPARATION, `${'/n'.repeat(60)}/b/mandate`, 'error']],
    );
    const doc = { a: { b: 1 }, status: 1, list: [{ x: 1 }] };
    let found: Finding[] = [];
    let later: Finding[] = [];
    Object.defineProperty(Object.prototype, 'payer', {
      value: 1,
      enumerable: true,
      configurable: true,
      writable: true,
    });
    try {
      found = noPayerData.check({ doc, mode: 'payee', nowMs: 0, maxValiditySeconds: 1 });
    } finally {
      delete (Object.prototype as Record<string, unknown>).payer;
    }
    later = noPayerData.check({
      doc: { a: { settlement: 1 } },
      mode: 'payee',
      nowMs: 0,
      maxValiditySeconds: 1,
    });
    expect(summary(found)).toEqual([[SEPARATION, '/status', 'error']]);
    expect(summary(later)).toEqual([[SEPARATION, '/a/settlement', 'error']]);
  });

  it('gives the same findings through collect, appended after earlier ones', () => {
    const expected: Expected[] = [
      [PAYER, '/payer'],
      [SEPARATION, '/x/state'],
    ];
    expectFindings(noPayerData, { payer: 1, x: { state: 1 } }, expected);
  });
});
