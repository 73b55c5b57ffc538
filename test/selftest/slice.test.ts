import { describe, expect, it } from 'vitest';
import { allFaults } from '../broken/all.js';
import { inSlice, SELFTEST_SLICE_ENV, SELFTEST_SLICES, selfTestSlice } from './slice.js';

// The self-test's slices: `npm test` runs one, rotating with the commit; `npm run selftest`
// (CPRC_SELFTEST=all) runs them all; together the slices hold every run exactly once.
describe('the self-test slice', () => {
  const commit = () => 'f'.repeat(40);

  it('runs everything with CPRC_SELFTEST=all', () => {
    const slice = selfTestSlice({ [SELFTEST_SLICE_ENV]: 'all' }, commit);
    expect(slice.all).toBe(true);
    expect(allFaults.every((_, k) => inSlice(slice, k))).toBe(true);
  });

  it('deals every position into exactly one of the N slices', () => {
    for (let k = 0; k < allFaults.length; k++) {
      const holders = Array.from({ length: SELFTEST_SLICES }, (_, i) =>
        selfTestSlice({ [SELFTEST_SLICE_ENV]: `${i + 1}/${SELFTEST_SLICES}` }, commit),
      ).filter((s) => inSlice(s, k));
      expect(holders.length, `position ${k}`).toBe(1);
    }
  });

  it('rotates with the commit, the same commit always taking the same slice', () => {
    const taken = new Set<number>();
    for (let n = 0; n < 64; n++) {
      const hex = (n * 2654435761).toString(16).padStart(8, '0').slice(-8).padEnd(40, '0');
      const a = selfTestSlice({}, () => hex);
      const b = selfTestSlice({}, () => hex);
      expect(a).toEqual(b);
      if (!a.all) taken.add(a.index);
    }
    expect([...taken].sort()).toEqual(Array.from({ length: SELFTEST_SLICES }, (_, i) => i + 1));
    const outside = selfTestSlice({}, () => undefined);
    expect(outside).toMatchObject({ all: false, index: 1, of: SELFTEST_SLICES });
  });

  it('refuses a value that is not "all" or K/N, naming the accepted forms', () => {
    for (const bad of ['0/6', '7/6', '1/0', 'half', '1/']) {
      expect(() => selfTestSlice({ [SELFTEST_SLICE_ENV]: bad }, commit), bad).toThrow(/"all" or "K\/N"/);
    }
  });
});
