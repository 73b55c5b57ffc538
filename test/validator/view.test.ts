import { describe, expect, it } from 'vitest';
import { beginDocumentMemo, documentMemo, endDocumentMemo } from '../../src/validator/memo.js';
import { parseRfc3339 } from '../../src/validator/rfc3339.js';
import {
  createdInstant,
  expiresInstant,
  lateMember,
  topMember,
  viewOf,
  windowMs,
} from '../../src/validator/view.js';

const MEMBERS = [
  'request_id',
  'created_at',
  'expires_at',
  'memo',
  'extensions',
  'rail_hint',
  'payee',
  'value',
  'chain_id',
  'receiver_address',
  'contract_address',
  'domain_separator',
  'order_reference',
  'acquirer_id',
  'iban',
  'bic',
  'purpose_code',
  'remittance_info',
] as const;
const LATE = ['beneficiary_name', 'account_number', 'key_type', 'key_value'] as const;

/** A document whose every member holds its own name (so a member read in place of another shows). */
function named(): Record<string, unknown> {
  const doc: Record<string, unknown> = {};
  for (const m of [...MEMBERS, ...LATE, 'routing_code', 'txid']) doc[m] = `v:${m}`;
  return doc;
}

describe('documentMemo before any validation', () => {
  it('has its three members, empty', () => {
    expect(Object.keys(documentMemo).sort()).toEqual(['doc', 'selection', 'view']);
    expect(Object.values(documentMemo)).toEqual([undefined, undefined, undefined]);
  });
});

describe('viewOf: the members of a CPR, each its own member of the document', () => {
  it('reads each member from the document, none in place of another', () => {
    const doc = named();
    const view = viewOf(doc);
    for (const m of MEMBERS) expect(view[m], m).toBe(`v:${m}`);
    for (const m of LATE) expect(lateMember(view, m), m).toBe(`v:${m}`);
    expect(view.doc).toBe(doc);
  });

  it('reads no inherited member', () => {
    const proto = named();
    const view = viewOf(Object.create(proto));
    for (const m of MEMBERS) expect(view[m], m).toBeUndefined();
    for (const m of LATE) expect(lateMember(view, m), m).toBeUndefined();
    expect(view.railAddress).toBeUndefined();
    expect(view.asset).toBeUndefined();
    expect(view.amount).toBeUndefined();
  });

  it('has every member undefined for something that is not an object', () => {
    for (const doc of [undefined, null, 42, 'x', [1]]) {
      const view = viewOf(doc);
      for (const m of MEMBERS) expect(view[m], `${m} of ${JSON.stringify(doc)}`).toBeUndefined();
      for (const m of LATE) expect(lateMember(view, m)).toBeUndefined();
      expect([view.railAddress, view.asset, view.amount, view.createdInstant, view.expiresInstant]).toEqual([
        undefined,
        undefined,
        undefined,
        undefined,
        undefined,
      ]);
      expect(view.doc).toBe(doc);
    }
  });

  it('reads payee.rail_address, value.asset and value.amount (own members only)', () => {
    const rail = { iban: 'X' };
    const asset = { type: 'fiat', code: 'EUR' };
    const view = viewOf({ payee: { rail_address: rail }, value: { asset, amount: '5' } });
    expect(view.railAddress).toBe(rail);
    expect(view.asset).toBe(asset);
    expect(view.amount).toBe('5');
    const inherited = viewOf({
      payee: Object.create({ rail_address: rail }),
      value: Object.create({ asset, amount: '5' }),
    });
    expect([inherited.railAddress, inherited.asset, inherited.amount]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    const odd = viewOf({ payee: 'x', value: 5 });
    expect([odd.railAddress, odd.asset, odd.amount]).toEqual([undefined, undefined, undefined]);
  });

  it('reads a late member once, on first use, and only that one', () => {
    let reads = 0;
    const doc = {
      get key_type() {
        reads++;
        return 'CPF';
      },
      key_value: null,
    };
    const view = viewOf(doc);
    expect(reads).toBe(0);
    expect(lateMember(view, 'key_type')).toBe('CPF');
    expect(lateMember(view, 'key_type')).toBe('CPF');
    expect(reads).toBe(1);
    expect(lateMember(view, 'key_value')).toBeNull();
    expect(lateMember(view, 'beneficiary_name')).toBeUndefined();
  });
});

describe('viewOf within one validation (memo.ts)', () => {
  it('is built once per document between beginDocumentMemo and endDocumentMemo, afresh outside', () => {
    const a = { memo: 'a' };
    const b = { memo: 'b' };
    expect(viewOf(a)).not.toBe(viewOf(a));
    beginDocumentMemo(a);
    try {
      const va = viewOf(a);
      expect(viewOf(a)).toBe(va);
      expect(viewOf(b)).not.toBe(viewOf(b));
      expect(viewOf(b).memo).toBe('b');
      // a nested validation starts afresh
      beginDocumentMemo(b);
      expect(viewOf(b).memo).toBe('b');
      expect(viewOf(b)).toBe(viewOf(b));
      expect(viewOf(a)).not.toBe(va);
      expect(viewOf(a).memo).toBe('a');
    } finally {
      endDocumentMemo();
    }
    expect(viewOf(a)).not.toBe(viewOf(a));
    expect(viewOf(b)).not.toBe(viewOf(b));
  });

  it('forgets the document, its view and its selection at the end', () => {
    const a = { memo: 'a' };
    beginDocumentMemo(a);
    viewOf(a);
    documentMemo.selection = { kind: 'open', complete: [] };
    endDocumentMemo();
    expect({ ...documentMemo }).toEqual({ doc: undefined, view: undefined, selection: undefined });
    documentMemo.view = 'stale';
    documentMemo.selection = 'stale';
    beginDocumentMemo(a);
    expect({ ...documentMemo }).toEqual({ doc: a, view: undefined, selection: undefined });
    endDocumentMemo();
  });
});

describe('the timestamps of a view', () => {
  const created = '2026-06-01T12:00:00Z';
  const expires = '2026-06-01T12:10:00.5+01:00';

  it('reads created_at and expires_at as RFC 3339, once each', () => {
    const view = viewOf({ created_at: created, expires_at: expires });
    const c = createdInstant(view);
    const e = expiresInstant(view);
    expect({ ...c }).toEqual({ ...parseRfc3339(created) });
    expect({ ...e }).toEqual({ ...parseRfc3339(expires) });
    expect(createdInstant(view)).toBe(c);
    expect(expiresInstant(view)).toBe(e);
    expect(view.createdInstant).toBe(c);
    expect(view.expiresInstant).toBe(e);
  });

  it('keeps a timestamp that does not read as null (no second parse)', () => {
    const view = viewOf({ created_at: 'nope', expires_at: '2026-02-30T00:00:00Z' });
    expect(createdInstant(view)).toBeNull();
    expect(view.createdInstant).toBeNull();
    expect(expiresInstant(view)).toBeNull();
    expect(view.expiresInstant).toBeNull();
  });

  it('windowMs is expires_at - created_at when both read, else undefined', () => {
    expect(windowMs(viewOf({ created_at: created, expires_at: expires }))).toBe(
      10 * 60_000 + 500 - 3_600_000,
    );
    expect(windowMs(viewOf({ created_at: created, expires_at: created }))).toBe(0);
    expect(windowMs(viewOf({ created_at: expires, expires_at: created }))).toBe(
      -(10 * 60_000 + 500 - 3_600_000),
    );
    expect(windowMs(viewOf({ created_at: created }))).toBeUndefined();
    expect(windowMs(viewOf({ expires_at: created }))).toBeUndefined();
    expect(windowMs(viewOf({ created_at: 5, expires_at: created }))).toBeUndefined();
    expect(windowMs(viewOf({ created_at: created, expires_at: 5 }))).toBeUndefined();
    expect(windowMs(viewOf({ created_at: 'x', expires_at: created }))).toBeUndefined();
    expect(windowMs(viewOf({ created_at: created, expires_at: 'x' }))).toBeUndefined();
  });
});

describe('topMember', () => {
  it('reads each late member once, whichever of lateMember and topMember asks first', () => {
    for (const name of LATE) {
      let reads = 0;
      const doc = Object.defineProperty({}, name, {
        enumerable: true,
        get() {
          reads++;
          return `v:${name}`;
        },
      });
      const view = viewOf(doc);
      expect(topMember(view, name)).toBe(`v:${name}`);
      expect(topMember(view, name)).toBe(`v:${name}`);
      expect(lateMember(view, name)).toBe(`v:${name}`);
      expect(reads, name).toBe(1);
    }
  });

  it('gives each top-level field its own value', () => {
    const doc = named();
    const view = viewOf(doc);
    for (const f of [...MEMBERS, ...LATE, 'routing_code', 'txid'])
      expect(topMember(view, f), f).toBe(`v:${f}`);
    expect(topMember(view, 'absent')).toBeUndefined();
    expect(topMember(viewOf(Object.create(doc)), 'txid')).toBeUndefined();
  });
});
