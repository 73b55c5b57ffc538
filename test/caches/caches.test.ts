import { describe, expect, it } from 'vitest';
import { boundedCache, forgetCaches } from '../../src/caches.js';

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

describe('forgetCaches', () => {
  it('empties every cache made in the process, which keep working afterwards', () => {
    const bounded = boundedCache<string, number>(10);
    const other = boundedCache<string, number>(2);
    bounded.set('k', 1);
    other.set('k', 2);
    forgetCaches();
    expect(bounded.get('k')).toBeUndefined();
    expect(other.get('k')).toBeUndefined();
    bounded.set('k', 3);
    other.set('j', 4);
    other.set('k', 5);
    expect([bounded.get('k'), other.get('j'), other.get('k')]).toEqual([3, 4, 5]);
  });
});
