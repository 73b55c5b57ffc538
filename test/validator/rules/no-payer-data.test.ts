import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../src/model/finding.js';
import { isPayerDataName, nameReadings, noPayerData } from '../../../src/validator/rules/no-payer-data.js';
import { type Expected, expectFindings, summary } from './run-rule.js';

// Profile section 2 (spec 1.2, 2.9, INV-1, INV-6): no member at any depth, extensions included,
// one of whose readings (the name and every tail after a `:`, `/` or `.`, case-insensitive, with
// `_`, `-`, `.` and white space removed) is payer or starts with payer_ (read with its `_`
// removed too: starts with payer), starts with debtor, is authorization, signed_tx, raw_tx, permit, starts with
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

  it('reads the five examples of profile section 2 as the profile states, at the top level and in extensions', () => {
    for (const mode of ['payee', 'wallet'] as const) {
      for (const [key, req] of [
        ['com.example.status', SEPARATION],
        ['acme:payer.email', PAYER],
        ['Checkout Data/payer_ref', PAYER],
      ] as const) {
        expectFindings(noPayerData, top(key), [[req, `/${esc(key)}`]], { mode });
        expectFindings(noPayerData, { extensions: { [key]: 'x' } }, [[req, `/extensions/${esc(key)}`]], {
          mode,
        });
        expectFindings(noPayerData, nested(key), [[req, `/extensions/com.example:x/${esc(key)}`]], { mode });
      }
      for (const key of ['com.example:statusCode', 'status.code']) {
        expectFindings(noPayerData, top(key), [], { mode });
        expectFindings(noPayerData, { extensions: { [key]: 'x' } }, [], { mode });
        expectFindings(noPayerData, nested(key), [], { mode });
      }
    }
  });

  it('reads the name and every tail after a : / or . (not only the last), the shortest tail first', () => {
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
      'payer:x',
      'pay.er',
      'payers',
      'acme:payer.email',
      'acme:PAYER.Email.Home',
      'a:b:payer_ref.x.y',
      'x/Payer Ref.v2',
      'com.example.payer-ref:v1',
      'a::payer',
      'a//debtor.x',
      'x:.payer',
      'x.:payer',
      'debt.or',
    ]) {
      expectFindings(noPayerData, nested(key), [[PAYER, `/extensions/com.example:x/${esc(key)}`]]);
      expect(isPayerDataName(key, false), key).toBe(true);
    }
    for (const key of [
      'com.example:status',
      'com.example.status',
      'io.x:Signed-Tx',
      'a/b/mandate',
      'x.state',
      'status:x:state',
      'payer.x:status',
      'sta.tus',
      'acme:settlement.date',
      'a.b/c:d.mandate_ref.e',
      'status.',
      'x:status..',
      'Status ',
    ]) {
      expectFindings(noPayerData, nested(key), [[SEPARATION, `/extensions/com.example:x/${esc(key)}`]]);
    }
    // the shortest tail decides first: a payer prefix before a state tail is state data
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
    // `:` and `/` are kept in a reading (only `_`, `-`, `.` and white space are dropped): a name
    // that spells a forbidden one only across them is none; a trailing `:` or `/` leaves an empty tail
    for (const key of [
      'status:x',
      'state:x.y',
      'com.example:payee',
      'x.state:y',
      'signature:x',
      'a.b:c',
      'com.example:statusCode',
      'status.code',
      'status:',
      'x/status/',
      'sta:tus',
      'stat/us',
      'pa:y/e.r',
      'x:statuses',
      'com.example.payee_ref',
      'state:',
    ]) {
      expectFindings(noPayerData, nested(key), []);
      expect(isPayerDataName(key, false), key).toBe(false);
    }
    // a top-level-only name after a prefix, and a top-level name as the whole name
    expectFindings(noPayerData, top('com.example:rail'), [[SEPARATION, '/com.example:rail']]);
    expectFindings(noPayerData, top('acme:request.'), [[SEPARATION, '/acme:request.']]);
    expectFindings(noPayerData, top('rail:x'), []);
    expectFindings(noPayerData, top('rail/'), []);
    expectFindings(noPayerData, top('re.quest'), [[SEPARATION, '/re.quest']]);
  });

  it('drops only _ - . and white space from a reading: any other character is part of it', () => {
    for (const sep of ['_', '-', '.', ' ', '\t', '\n', '\r', '\v', '\f']) {
      expectFindings(noPayerData, nested(`pay${sep}er`), [
        [PAYER, `/extensions/com.example:x/${esc(`pay${sep}er`)}`],
      ]);
      expectFindings(noPayerData, nested(`sta${sep}${sep}tus`), [
        [SEPARATION, `/extensions/com.example:x/${esc(`sta${sep}${sep}tus`)}`],
      ]);
      expectFindings(noPayerData, top(`${sep}rail${sep}`), [[SEPARATION, `/${esc(`${sep}rail${sep}`)}`]]);
    }
    for (const kept of ['@', '[', '`', '{', '~', '\u007f', '#', '+', '=', '\u0000', '\u001f', ':', '/']) {
      expectFindings(noPayerData, nested(`pay${kept}er`), []);
      expectFindings(noPayerData, nested(`sta${kept}tus`), []);
      expectFindings(noPayerData, top(`${kept}rail${kept}`), []);
      // a prefix is a prefix whatever follows it
      expectFindings(noPayerData, nested(`payer${kept}x`), [
        [PAYER, `/extensions/com.example:x/${esc(`payer${kept}x`)}`],
      ]);
    }
    expectFindings(noPayerData, nested('payer1'), [[PAYER, '/extensions/com.example:x/payer1']]);
    expectFindings(noPayerData, nested('settlement2'), [
      [SEPARATION, '/extensions/com.example:x/settlement2'],
    ]);
  });

  it('reads non-ASCII names with Unicode lower-casing and drops Unicode white space', () => {
    const cases: [string, string | null, string | null][] = [
      // [name, verdict at the top level, verdict nested]
      ['PAYER\u00a0ID', PAYER, PAYER], // no-break space
      ['sta\u2003tus', SEPARATION, SEPARATION], // em space
      ['Checkout\u3000Data/payer_ref', PAYER, PAYER], // ideographic space in the prefix
      ['STATUS\u2028', SEPARATION, SEPARATION], // line separator
      ['\ufeffstatus', SEPARATION, SEPARATION],
      ['pay\u0085er', PAYER, PAYER], // next line (U+0085) is white space
      ['\u1680rail', SEPARATION, null],
      ['sta\u200btus', null, null], // a zero-width space is no white space
      ['pay\u0080er', null, null],
      ['sta\u00fftus', null, null],
      ['stätus', null, null],
      ['éPAYER_ID', null, null], // é is kept: the reading starts with it
      ['ésettlementX', null, null],
      ['PAYER_É', PAYER, PAYER],
      ['SETTLEMENT_Ä', SEPARATION, SEPARATION],
      ['ÉSTATUS', null, null],
      ['AUTHORİZATION', null, null], // İ lower-cases to i + a combining dot: no authorization
      ['com.é:payer', PAYER, PAYER],
      ['é:payer.mail', PAYER, PAYER],
      ['é.status', SEPARATION, SEPARATION],
      ['payer.é', PAYER, PAYER],
      ['status.é', null, null],
      ['x:é-status', null, null],
      ['é:rail', SEPARATION, null],
      ['rail:é', null, null],
      ['é.status:x', null, null],
      ['épayee', null, null],
      ['é', null, null],
      ['\u0080', null, null],
    ];
    for (const [key, atTop, inside] of cases) {
      expectFindings(noPayerData, top(key), atTop === null ? [] : [[atTop, `/${esc(key)}`]]);
      expectFindings(
        noPayerData,
        nested(key),
        inside === null ? [] : [[inside, `/extensions/com.example:x/${esc(key)}`]],
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

describe('nameReadings', () => {
  it('lists the name and every tail after a : / or ., lower-cased, _ - . and white space dropped, shortest first', () => {
    for (const [key, readings] of [
      ['acme:payer.email', ['email', 'payeremail', 'acme:payeremail']],
      ['Checkout Data/payer_ref', ['payerref', 'checkoutdata/payerref']],
      ['com.example.status', ['status', 'examplestatus', 'comexamplestatus']],
      ['com.example:statusCode', ['statuscode', 'example:statuscode', 'comexample:statuscode']],
      ['status.code', ['code', 'statuscode']],
      ['A:B/C.D', ['d', 'cd', 'b/cd', 'a:b/cd']],
      ['a..b', ['b', 'ab']],
      ['a:', ['a:']],
      ['Payer-ID', ['payerid']],
      ['x\u00a0y', ['xy']],
      ['', []],
      [':', [':']],
    ] as const) {
      expect(nameReadings(key), key).toEqual(readings);
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
