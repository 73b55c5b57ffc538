// A vector case never changes meaning: the generator refuses a case whose input changed, a case
// that disappeared without being retired, a retired ID in use and an ID used twice.
import { describe, expect, it } from 'vitest';
import { checkStability } from './build/generate.js';
import { RETIRED } from './build/retired.js';
import type { CaseBase, VectorFile } from './lib/types.js';

type UriLike = CaseBase & { uri: string; findings: unknown[] };

const uriCase = (id: string, uri: string, result: CaseBase['result'] = 'valid'): UriLike => ({
  id,
  comment: `case ${id}`,
  requirements: ['CPR-4.2-URI-FORMAT'],
  uri,
  result,
  findings: [],
});
const previous = (cases: UriLike[]): VectorFile => ({ group: 'uris', cases }) as unknown as VectorFile;

describe('case stability', () => {
  const a = uriCase('a', 'cpr://inline/e30');
  const b = uriCase('b', 'cpr://');

  it('accepts the same inputs with changed expectations (a verdict change shows as a changed vector)', () => {
    expect(() => checkStability('uris', previous([a, b]), [{ ...a, result: 'invalid' }, b])).not.toThrow();
    expect(() => checkStability('uris', previous([a]), [a, b])).not.toThrow();
  });
  it('refuses a case whose input changed', () => {
    expect(() =>
      checkStability('uris', previous([a, b]), [{ ...a, uri: 'cpr://inline/e31' } as UriLike, b]),
    ).toThrow(/the input of case a changed; a case never changes meaning: retire a/);
  });
  it('refuses a case that disappeared without being retired', () => {
    expect(() => checkStability('uris', previous([a, b]), [a])).toThrow(/case b disappeared; retire it/);
  });
  it('refuses an ID used twice', () => {
    expect(() => checkStability('uris', undefined, [a, a])).toThrow(/case ID a is used twice/);
  });
  it('refuses a retired ID in use, and accepts a retired case gone from the file', () => {
    const retired = [{ id: 'b', group: 'uris', reason: 'it named the wrong requirement', replaced_by: 'c' }];
    expect(() => checkStability('uris', undefined, [a, b], retired)).toThrow(/case ID b is retired/);
    expect(() =>
      checkStability('uris', previous([a, b]), [a, uriCase('c', 'cpr://')], retired),
    ).not.toThrow();
    // the committed list: each retired case says why
    expect(RETIRED.filter((r) => r.reason.trim().length === 0)).toEqual([]);
  });
});
