import { describe, expect, it } from 'vitest';
import { boundedCache, forgetCaches, ringCache } from '../../src/caches.js';

describe('boundedCache', () => {
  it('answers what was set, undefined for what was not, and a cached null as null', () => {
    const c = boundedCache<string, string | null>(3);
    c.set('a', 'A');
    c.set('n', null);
    expect(c.get('a')).toBe('A');
    expect(c.get('n')).toBeNull();
    expect(c.get('x')).toBeUndefined();
  });

  it('holds at most its limit: full, it starts again empty with the new entry', () => {
    const c = boundedCache<number, number>(2);
    c.set(1, 10);
    c.set(2, 20);
    c.set(2, 21); // full: starts again
    expect(c.get(1)).toBeUndefined();
    expect(c.get(2)).toBe(21);
    c.set(3, 30);
    expect([c.get(2), c.get(3)]).toEqual([21, 30]);
  });
});

describe('ringCache', () => {
  it('keeps the last `size` keys set: each new key replaces the oldest', () => {
    const c = ringCache<string, number | null>(2);
    c.set('a', 1);
    c.set('b', null);
    expect([c.get('a'), c.get('b')]).toEqual([1, null]);
    c.set('c', 3);
    expect([c.get('a'), c.get('b'), c.get('c')]).toEqual([undefined, null, 3]);
    c.set('d', 4);
    expect([c.get('b'), c.get('c'), c.get('d')]).toEqual([undefined, 3, 4]);
  });

  it('answers undefined for a key never set, even undefined-like ones', () => {
    const c = ringCache<string | undefined, number>(3);
    expect(c.get(undefined)).toBeUndefined();
    expect(c.get('')).toBeUndefined();
  });
});

describe('forgetCaches', () => {
  it('empties every cache made in the process, which keep working afterwards', () => {
    const bounded = boundedCache<string, number>(10);
    const ring = ringCache<string, number>(2);
    bounded.set('k', 1);
    ring.set('k', 2);
    forgetCaches();
    expect(bounded.get('k')).toBeUndefined();
    expect(ring.get('k')).toBeUndefined();
    bounded.set('k', 3);
    ring.set('j', 4);
    ring.set('k', 5);
    expect([bounded.get('k'), ring.get('j'), ring.get('k')]).toEqual([3, 4, 5]);
  });
});
