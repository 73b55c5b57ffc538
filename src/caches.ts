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

/**
 * A cache of the last `size` keys set (a ring: each new key replaces the oldest), for values read
 * again at once, such as the few timestamps every rule of one document reads.
 * @example
 * ```ts
 * const recent = ringCache<string, number | null>(4);
 * recent.set('x', null);
 * recent.get('x'); // null
 * recent.get('y'); // undefined
 * ```
 */
export function ringCache<K, V>(size: number): Cache<K, V> {
  const keys: (K | undefined)[] = new Array(size).fill(undefined);
  const values: (V | undefined)[] = new Array(size).fill(undefined);
  const filled: boolean[] = new Array(size).fill(false);
  let next = 0;
  caches.add({
    clear() {
      keys.fill(undefined);
      values.fill(undefined);
      filled.fill(false);
      next = 0;
    },
  });
  return {
    get(key) {
      for (let k = 0; k < size; k++) if (filled[k] && keys[k] === key) return values[k];
      return undefined;
    },
    set(key, value) {
      keys[next] = key;
      values[next] = value;
      filled[next] = true;
      next = (next + 1) % size;
    },
  };
}

/** Empties every cache made by {@link boundedCache} and {@link ringCache} in this process. */
export function forgetCaches(): void {
  for (const cache of caches) cache.clear();
}
