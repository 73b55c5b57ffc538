import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REQUIRED_FIELDS, type SubInterface } from '../../src/model/cpr.js';
import type { Finding } from '../../src/model/finding.js';
import { isObject } from '../../src/model/util.js';
import { getSchemaValidator } from '../../src/schemas/registry.js';
import { codePointArbitrary, cprArbitrary, type JsonObject } from '../../src/testing/arbitraries.js';
import { CPR_MUTATIONS } from '../../src/testing/mutations.js';
import {
  CPR_RULES,
  isPayerDataName,
  parseRfc3339,
  type RuleContext,
  selectSubInterface,
  validateCpr,
} from '../../src/validator/index.js';
import { instantOf } from '../../src/validator/rfc3339.js';
import { collectCprRules } from '../../src/validator/rules/index.js';
import { PAYER_KEYS, SEPARATION_KEYS } from '../../src/validator/rules/no-payer-data.js';
import { isCompleteIn } from '../../src/validator/subinterface.js';
import { codePointLength } from '../../src/validator/util.js';
import { viewOf } from '../../src/validator/view.js';

// What validateCpr shares between its rules for speed (one read of the document's members, one
// sub-interface selection, rules appending to one array) must never show in a finding.

const NOW = new Date('2026-06-01T12:00:00Z');

/** Valid documents of every rail and one single-defect mutation of each where one applies. */
const documents = (seed: number, n: number): JsonObject[] =>
  fc.sample(cprArbitrary({ now: NOW }), { seed, numRuns: n }).flatMap((doc, i) => {
    const m = CPR_MUTATIONS.slice(i % CPR_MUTATIONS.length).find((x) => x.applies(doc));
    return m ? [doc, m.apply(doc, NOW)] : [doc];
  });

describe('rules run by validateCpr and run alone', () => {
  const docs = documents(4242, 150);

  it('each rule gives the same findings through check (alone) and collect (appending)', () => {
    for (const doc of docs) {
      for (const mode of ['payee', 'wallet'] as const) {
        const ctx: RuleContext = { doc, mode, nowMs: NOW.getTime(), maxValiditySeconds: 30 * 86_400 };
        for (const rule of CPR_RULES) {
          const appended: Finding[] = [
            { requirement: 'X', level: 'SPEC', severity: 'error', path: '', message: 'x' },
          ];
          rule.collect?.(ctx, appended);
          expect(appended.slice(1), rule.name).toEqual(rule.check(ctx));
        }
      }
    }
  });

  it('validateCpr ends with exactly the findings of its rules run one by one', () => {
    let compared = 0;
    for (const doc of docs) {
      for (const mode of ['payee', 'wallet'] as const) {
        const ctx: RuleContext = { doc, mode, nowMs: NOW.getTime(), maxValiditySeconds: 30 * 86_400 };
        const alone = CPR_RULES.flatMap((r) => r.check(ctx));
        const result = validateCpr(doc, { mode, now: NOW });
        // schema findings come first when the schema fails: compare the rule findings' tail
        expect(result.findings.slice(result.findings.length - alone.length)).toEqual(alone);
        compared++;
      }
    }
    expect(compared).toBe(docs.length * 2);
  });

  it('a validation started inside another (by a getter) leaves the outer one right', () => {
    const objects = docs.filter((d) => d.extensions === undefined || isObject(d.extensions));
    for (const doc of objects.slice(0, 40)) {
      const other = docs[docs.length - 1] as JsonObject;
      const expected = validateCpr(doc, { mode: 'payee', now: NOW });
      const nested = { ...doc, extensions: { ...(doc.extensions as JsonObject | undefined) } };
      let calls = 0;
      Object.defineProperty(nested.extensions, 'com.example:probe', {
        enumerable: true,
        get() {
          calls++;
          validateCpr(other, { mode: 'wallet', now: NOW });
          selectSubInterface(other);
          return 'probe';
        },
      });
      const plain = {
        ...doc,
        extensions: { ...(doc.extensions as JsonObject | undefined), 'com.example:probe': 'probe' },
      };
      const want = validateCpr(plain, { mode: 'payee', now: NOW });
      expect(validateCpr(nested, { mode: 'payee', now: NOW })).toEqual(want);
      expect(calls).toBeGreaterThan(0);
      // and nothing of the nested document stays behind
      expect(validateCpr(doc, { mode: 'payee', now: NOW })).toEqual(expected);
    }
  });

  it('the sub-interface selection seen outside a validation is computed afresh', () => {
    const doc: JsonObject = { rail_hint: 'OPEN', iban: 'DE89370400440532013000', beneficiary_name: 'A' };
    validateCpr(doc, { now: NOW });
    expect(selectSubInterface(doc)).toEqual({ kind: 'open', complete: ['iban'] });
    doc.account_number = '1';
    expect(selectSubInterface(doc)).toEqual({ kind: 'open', complete: ['iban', 'account'] });
  });
});

describe('schema findings: repeats removed however many there are', () => {
  it('a document breaking many members gets each (requirement, path) once', () => {
    const doc: JsonObject = {
      cpr_version: 1,
      request_id: 2,
      created_at: 3,
      expires_at: 4,
      payee: { display_name: 5, rail_address: 6 },
      value: { amount: 7, asset: { type: 8, code: 9, chain_id: 10 } },
      memo: 11,
      extensions: 12,
      rail_hint: 13,
      chain_id: 14,
      receiver_address: 15,
      domain_separator: 16,
      order_reference: 17,
      acquirer_id: 18,
      contract_address: 19,
      iban: 20,
      bic: 21,
      purpose_code: 22,
      account_number: 23,
      routing_code: 24,
      routing_code_type: 25,
      bank_name: 26,
      key_type: 27,
      key_value: 28,
      txid: 29,
      beneficiary_name: 30,
      end_to_end_id: 31,
      remittance_info: 32,
    };
    for (const mode of ['payee', 'wallet'] as const) {
      const { findings } = validateCpr(doc, { mode, now: NOW });
      const pairs = findings.map((f) => `${f.requirement} ${f.path} ${f.message}`);
      expect(findings.length).toBeGreaterThan(16);
      expect(new Set(pairs).size).toBe(pairs.length);
    }
  });
});

describe('timestamps and lengths computed without the general path', () => {
  it('instantOf (rules) and parseRfc3339 (public, frozen) agree', () => {
    const stamp = fc
      .tuple(
        fc.integer({ min: 0, max: 9999 }),
        fc.integer({ min: 0, max: 13 }),
        fc.integer({ min: 0, max: 32 }),
        fc.integer({ min: 0, max: 24 }),
        fc.constantFrom('', '.5', '.05', '.123', '.1234', '.999999', '.'),
        fc.constantFrom('Z', 'z', '+00:00', '-00:00', '+14:00', '-12:30', '+24:00', ''),
      )
      .map(([y, m, d, h, frac, off]) => {
        const p = (n: number, w = 2): string => String(n).padStart(w, '0');
        return `${p(y, 4)}-${p(m)}-${p(d)}T${p(h)}:${p(m * 4)}:${p(d * 2)}${frac}${off}`;
      });
    fc.assert(
      fc.property(stamp, (text) => {
        const pub = parseRfc3339(text);
        const ours = instantOf(text);
        // the one difference: a leap second away from 23:59:60 UTC (see the instantOf tests)
        if (ours === null && pub !== null) expect(text.slice(17, 19), text).toBe('60');
        else expect(ours).toEqual(pub);
        if (pub) expect(Object.isFrozen(pub)).toBe(true);
      }),
      { numRuns: 3000 },
    );
    // year 0 is read as it always was (0000-02-29 as 0000-03-01)
    expect(instantOf('0000-02-29T00:00:00Z')?.epochMs).toBe(instantOf('0000-03-01T00:00:00Z')?.epochMs);
    expect(parseRfc3339('0099-12-31T23:59:59.999Z')?.epochMs).toBe(Date.UTC(100, 0, 1) - 1);
  });

  it('request_id: no finding exactly when the UUIDv4 pattern (any case) matches', () => {
    const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
    const rule = CPR_RULES.find((r) => r.name === 'request-id-format');
    const hex = fc.constantFrom(...'0123456789abcdefABCDEFgG-489xX'.split(''), '\u017f', '\u212a', '\n');
    const near = fc
      .tuple(fc.uuid(), fc.nat(35), hex)
      .map(([u, i, c]) => (i % 3 === 0 ? u.toUpperCase() : u).slice(0, i) + c + u.slice(i + 1));
    const ids = fc.oneof(
      near,
      fc.uuid({ version: 4 }),
      fc.uuid(),
      fc.array(hex, { maxLength: 37 }).map((a) => a.join('')),
    );
    fc.assert(
      fc.property(ids, (id) => {
        for (const mode of ['payee', 'wallet'] as const) {
          const found = rule?.check({ doc: { request_id: id }, mode, nowMs: 0, maxValiditySeconds: 1 }) ?? [];
          expect(found.length === 0).toBe(UUID_V4.test(id));
        }
      }),
      { numRuns: 5000 },
    );
  });

  it('codePointLength counts what iterating the string counts, lone surrogates included', () => {
    const unit = fc.oneof(
      fc.constantFrom('\ud800', '\udbff', '\udc00', '\udfff', 'a', '\u00e9'),
      fc.string({ unit: 'grapheme', maxLength: 1 }),
      fc.string({ unit: codePointArbitrary(), maxLength: 1 }),
    );
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 40 }), (parts) => {
        const s = parts.join('');
        expect(codePointLength(s)).toBe([...s].length);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('the payer-data walk and the document view, read the short way', () => {
  /**
   * Profile section 2 as written: the readings are the name and every tail after a `:`, `/` or
   * `.`, each lower-cased with `_`, `-`, `.` and white space removed; the shortest tail decides first.
   */
  function reference(key: string, topLevel: boolean): 0 | 1 | 2 {
    const verdict = (n: string): 0 | 1 | 2 => {
      if (PAYER_KEYS.has(n)) return 1;
      if (SEPARATION_KEYS.has(n)) return 2;
      if (n.startsWith('payer') || n.startsWith('debtor')) return 1;
      if (n.startsWith('mandate') || n.startsWith('settlement')) return 2;
      if (topLevel && (n === 'signature' || n === 'request' || n === 'rail')) return 2;
      return 0;
    };
    const read = (s: string): string => s.toLowerCase().replace(/[\s\p{White_Space}_.-]/gu, '');
    const tails = [key];
    for (let i = 0; i < key.length; i++) if (':/.'.includes(key[i] as string)) tails.push(key.slice(i + 1));
    for (const t of tails.reverse()) {
      const v = verdict(read(t));
      if (v !== 0) return v;
    }
    return 0;
  }

  it('classifies every member name as the profile reads it (trie, name table, non-ASCII)', () => {
    const words = [...PAYER_KEYS, ...SEPARATION_KEYS, 'signature', 'request', 'rail', 'mandate', 'payee'];
    const piece = fc.oneof(
      fc.constantFrom(...words),
      fc.constantFrom(
        ':',
        '/',
        '.',
        '_',
        '-',
        ' ',
        '\u0130',
        '\u212a',
        '\u00e9',
        'K',
        'S',
        'X',
        '9',
        '\u00a0',
        '\u3000',
        '\t',
        '@',
      ),
      fc.string({ maxLength: 3 }),
      fc.string({ unit: codePointArbitrary(), maxLength: 2 }),
    );
    const name = fc.oneof(
      fc.array(piece, { maxLength: 5 }).map((a) => a.join('')),
      fc.constantFrom(...words).map((w) => w.toUpperCase()),
      fc.string(),
    );
    const noPayer = CPR_RULES.find((r) => r.name === 'no-payer-data');
    const ctx = (doc: JsonObject): RuleContext => ({ doc, mode: 'payee', nowMs: 0, maxValiditySeconds: 1 });
    fc.assert(
      fc.property(name, (key) => {
        for (const topLevel of [true, false]) {
          expect(isPayerDataName(key, topLevel), key).toBe(reference(key, topLevel) !== 0);
        }
        const top = noPayer?.check(ctx({ [key]: 1 })) ?? [];
        const nested = noPayer?.check(ctx({ x: { [key]: 1 } })) ?? [];
        const want = (v: 0 | 1 | 2): string[] =>
          v === 0 ? [] : [v === 1 ? 'CPR-INV-1-NO-PAYER-DATA' : 'CPR-INV-6-SEPARATION'];
        expect(
          top.map((f) => f.requirement),
          key,
        ).toEqual(want(reference(key, true)));
        expect(
          nested.map((f) => f.requirement),
          key,
        ).toEqual(want(reference(key, false)));
      }),
      { numRuns: 5000 },
    );
  });

  it('isCompleteIn (the view) agrees with the document read directly for every sub-interface', () => {
    // every required field an own member, neither undefined nor null (CPR-1.0 2.5-2.8)
    const isComplete = (doc: Record<string, unknown>, sub: SubInterface) =>
      REQUIRED_FIELDS[sub].every((f) => Object.hasOwn(doc, f) && doc[f] !== undefined && doc[f] !== null);
    const docs = documents(777, 100);
    const value = fc.constantFrom(undefined, null, '', 'x', 0);
    const fields = fc.record({
      iban: value,
      beneficiary_name: value,
      account_number: value,
      key_type: value,
      key_value: value,
      chain_id: value,
      receiver_address: value,
      rail_hint: value,
    });
    const extra = fc.sample(fields, { seed: 3, numRuns: 300 }).map((f) => {
      const d: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(f)) if (v !== undefined) d[k] = v;
      return d;
    });
    for (const doc of [...docs, ...extra]) {
      for (const sub of ['onchain', 'iban', 'account', 'instant-key'] as const) {
        expect(isCompleteIn(viewOf(doc), sub)).toBe(isComplete(doc as Record<string, unknown>, sub));
      }
    }
  });

  it('a member no rule needs on a path is not read (a throwing getter there changes nothing)', () => {
    const docs = documents(4343, 60).filter(
      (d) =>
        d.key_type === undefined &&
        d.key_value === undefined &&
        (d.rail_hint === 'SEPA_CT' || d.rail_hint === 'SEPA_INST' || d.rail_hint === 'ACH'),
    );
    expect(docs.length).toBeGreaterThan(10);
    for (const doc of docs) {
      for (const mode of ['payee', 'wallet'] as const) {
        const plain = validateCpr(doc, { mode, now: NOW });
        const probed = { ...doc };
        // an IBAN or account document without key_type: neither the schema nor the sub-interface
        // checks nor any rule read key_value
        Object.defineProperty(probed, 'key_value', {
          enumerable: false,
          get() {
            throw new Error('key_value read');
          },
        });
        expect(validateCpr(probed, { mode, now: NOW })).toEqual(plain);
      }
    }
  });

  it('collectCprRules gives what the rules of CPR_RULES give one by one, in order', () => {
    for (const doc of documents(5151, 80)) {
      for (const mode of ['payee', 'wallet'] as const) {
        const ctx: RuleContext = { doc, mode, nowMs: NOW.getTime(), maxValiditySeconds: 30 * 86_400 };
        const out: Finding[] = [];
        collectCprRules(ctx, out);
        expect(out).toEqual(CPR_RULES.flatMap((r) => r.check(ctx)));
      }
    }
  });
});

describe("the schema's date-time format, left to the timestamps rule", () => {
  it('every timestamp the full schema refuses by its format is an error of validateCpr at that path', () => {
    const base = documents(5151, 40).filter((d) => validateCpr(d, { mode: 'payee', now: NOW }).valid);
    expect(base.length).toBeGreaterThan(10);
    const two = (min: number, max: number) => fc.integer({ min, max }).map((n) => String(n).padStart(2, '0'));
    const stamp = fc
      .tuple(
        two(0, 13),
        two(0, 32),
        fc.constantFrom('T', 't', ' '),
        two(0, 24),
        two(0, 60),
        two(0, 60),
        fc.constantFrom('Z', 'z', '+00:00', '+01:00', '-05:00', '+0100', ''),
      )
      .map(([mo, d, t, h, mi, s, z]) => `2026-${mo}-${d}${t}${h}:${mi}:${s}${z}`);
    let formatRefusals = 0;
    for (const mode of ['payee', 'wallet'] as const) {
      const full = getSchemaValidator(mode === 'payee' ? 'cpr/cpr-payee' : 'cpr/cpr-wallet');
      const texts = fc.sample(stamp, { seed: mode === 'payee' ? 1 : 2, numRuns: 400 });
      texts.forEach((text, i) => {
        const member = i % 2 === 0 ? 'created_at' : 'expires_at';
        const doc = { ...(base[i % base.length] as JsonObject), [member]: text };
        full(doc);
        const formatError = (full.errors ?? []).some(
          (e) => e.keyword === 'format' && e.instancePath === `/${member}`,
        );
        if (!formatError) return;
        formatRefusals++;
        const result = validateCpr(doc, { mode, now: NOW });
        expect(result.valid, text).toBe(false);
        expect(
          result.findings.some(
            (f) =>
              f.severity === 'error' && f.path === `/${member}` && f.requirement === 'CPR-2.1-TIMESTAMPS-UTC',
          ),
          `${mode} ${member} ${text}`,
        ).toBe(true);
      });
    }
    expect(formatRefusals).toBeGreaterThan(100);
  });
});
