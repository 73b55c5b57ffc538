/**
 * Bounded process-wide caches of pure computations (the same key always gives the same value),
 * which the validator keeps for speed, and {@link forgetCaches}, which empties every one of them.
 *
 * A process that runs the same code again with something switched between runs forgets them
 * between runs, so that no run reads a value another run computed: the mutation test switches a
 * mutant on between the runs of its judge and of its vitest tests (docs/mutation.md). This module
 * is outside the mutation scopes on purpose: a mutant of it would change which runs share values,
 * never what the validator answers.
 *
 * @packageDocumentation
 */

/** A cache: `get` answers `undefined` for a key it does not hold (a cached value may be `null`). */
export interface Cache<K, V> {
  get(key: K): V | undefined;
  set(key: K, value: V): void;
}

const caches = new Set<{ clear(): void }>();

/**
 * A cache of at most `limit` entries; full, it starts again empty, so a stream of distinct keys
 * never grows it past `limit`.
 * @example
 * ```ts
 * const verdicts = boundedCache<string, boolean>(4096);
 * verdicts.set('DEUTDEFF', true);
 * verdicts.get('DEUTDEFF'); // true
 * ```
 */
export function boundedCache<K, V>(limit: number): Cache<K, V> {
  const map = new Map<K, V>();
  caches.add(map);
  return {
    get: (key) => map.get(key),
    set(key, value) {
      if (map.size >= limit) map.clear();
      map.set(key, value);
    },
  };
}

/** Empties every cache made by {@link boundedCache} in this process. */
export function forgetCaches(): void {
  for (const cache of caches) cache.clear();
}
