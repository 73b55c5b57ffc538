import { describe, expect, it } from 'vitest';
import { requestIdFormat } from '../../../src/validator/rules/request-id-format.js';
import { expectFindings } from './run-rule.js';

// Profile section 1 (identifiers are UUIDs: a payee error, a wallet warning for a non-empty
// string) and CPR-1.0 2.1 (UUIDv4 recommended: a warning in both readings).

const UUID = 'PRF-1-IDENTIFIER-UUID';
const V4 = 'CPR-2.1-REQUEST-ID-UUIDV4';
const AT = '/request_id';
const V4_ID = '6ec0bd7f-11c0-43da-975e-2a8ad9ebae0b';

const doc = (request_id: unknown): Record<string, unknown> => ({ request_id });
const at = (s: string, i: number, c: string): string => s.slice(0, i) + c + s.slice(i + 1);
const DASHES = [8, 13, 18, 23];

describe('request-id-format', () => {
  it('accepts an absent request_id (the schema reports it) and a v4 UUID in any case', () => {
    for (const mode of ['payee', 'wallet'] as const) {
      expectFindings(requestIdFormat, {}, [], { mode });
      expectFindings(requestIdFormat, doc(undefined), [], { mode });
      expectFindings(requestIdFormat, doc(V4_ID), [], { mode });
      expectFindings(requestIdFormat, doc(V4_ID.toUpperCase()), [], { mode });
      expectFindings(requestIdFormat, doc('00000000-0000-4000-8000-000000000000'), [], { mode });
      expectFindings(requestIdFormat, doc('ffffffff-ffff-4fff-bfff-ffffffffffff'), [], { mode });
      expectFindings(requestIdFormat, doc('FFFFFFFF-FFFF-4FFF-BFFF-FFFFFFFFFFFF'), [], { mode });
      expectFindings(requestIdFormat, doc('AbCdEf09-aBcD-4eF0-9abc-DEF012345678'), [], { mode });
    }
  });

  it('accepts each RFC 4122 variant digit (8, 9, a, b, either case) of a v4 UUID', () => {
    for (const v of ['8', '9', 'a', 'b', 'A', 'B']) {
      expectFindings(requestIdFormat, doc(at(V4_ID, 19, v)), [], { mode: 'payee' });
    }
  });

  it('warns, in both readings, on a UUID of another version or variant (v4 is only recommended)', () => {
    for (const mode of ['payee', 'wallet'] as const) {
      for (const ver of ['0', '1', '3', '5', '7', 'f', 'F']) {
        const [f] = expectFindings(requestIdFormat, doc(at(V4_ID, 14, ver)), [[V4, AT, 'warning']], { mode });
        expect(f?.message).toContain(at(V4_ID, 14, ver));
      }
      for (const variant of ['0', '7', 'c', 'C', 'f', 'F']) {
        expectFindings(requestIdFormat, doc(at(V4_ID, 19, variant)), [[V4, AT, 'warning']], { mode });
      }
    }
  });

  it('refuses an empty string or a non-string in both readings', () => {
    for (const mode of ['payee', 'wallet'] as const) {
      for (const v of ['', 0, 42, null, true, {}, [V4_ID]]) {
        expectFindings(requestIdFormat, doc(v), [[UUID, AT]], { mode });
      }
    }
  });

  /** Strings one character away from a v4 UUID, each breaking the UUID form. */
  const nearMisses = (): string[] => {
    const out: string[] = [];
    for (let i = 0; i < 36; i++) {
      if (DASHES.includes(i)) {
        out.push(at(V4_ID, i, '0'), at(V4_ID, i, '_'));
      } else {
        out.push(
          at(V4_ID, i, 'g'),
          at(V4_ID, i, 'G'),
          at(V4_ID, i, '-'),
          at(V4_ID, i, 'é'),
          at(V4_ID, i, '\u0660'),
        );
      }
    }
    out.push(V4_ID.slice(1), `${V4_ID}0`, `0${V4_ID}`, V4_ID.slice(0, 35), ` ${V4_ID}`, `${V4_ID}\n`);
    out.push(V4_ID.replace(/-/g, ''), `{${V4_ID}}`, `urn:uuid:${V4_ID}`, 'not-a-uuid', 'x');
    return out;
  };

  it('payee: refuses anything that is not a UUID, character by character', () => {
    for (const id of nearMisses()) expectFindings(requestIdFormat, doc(id), [[UUID, AT]], { mode: 'payee' });
  });

  it('wallet: accepts a non-UUID string with a warning', () => {
    for (const id of nearMisses()) {
      expectFindings(requestIdFormat, doc(id), [[UUID, AT, 'warning']], { mode: 'wallet' });
    }
  });
});
