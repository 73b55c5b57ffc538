// The four mutation scopes of `npm run mutation` (docs/mutation.md) and what observes each: the
// StrykerJS configuration, the test-runner plugin and the score all read them from here.

/**
 * One scope: the files it mutates (`mutate`, StrykerJS globs; `prefixes` say which files belong to
 * it) and its observers, in the order they judge a mutant (the first that detects it kills it).
 * An observer is `suite:<target>` (the conformance suite of that target run against the reference
 * stack built from the mutated sources) or `vitest:<folder>` (vitest test files, which run the
 * TypeScript sources directly). `judge`: a suite judges the scope's mutants in the judge process
 * of its target (scripts/mutation-judge.mjs) rather than in a cprc run per mutant.
 */
export const SCOPES = [
  {
    name: 'operator',
    mutate: ['src/reference/operator/**/*.ts'],
    prefixes: ['src/reference/operator/'],
    // the reference's own configuration (policy and balance options, defaults, listening, the
    // test-clock and body-limit options), which the suite against the default stack cannot see
    observers: ['suite:operator', 'vitest:test/reference/operator-config'],
    judge: true,
  },
  {
    name: 'payee',
    mutate: ['src/reference/payee/**/*.ts'],
    prefixes: ['src/reference/payee/'],
    // the reference's own configuration (options, defaults, listening, the test-clock and
    // body-limit options, the 500 of a failing component), which the suite cannot see
    observers: ['suite:payee', 'vitest:test/reference/payee-config'],
    judge: true,
  },
  {
    name: 'wallet',
    mutate: ['src/reference/wallet/**/*.ts'],
    prefixes: ['src/reference/wallet/'],
    // the reference's own configuration (rail list, defaults, retrieval timeout and size bound,
    // listening, the body bound, paths that are no endpoint, the 500 of a failing core, the stdio
    // loop's blank lines and early close), which the suite cannot see
    observers: ['suite:wallet', 'vitest:test/reference/wallet-config'],
    judge: true,
  },
  {
    name: 'validator',
    mutate: ['src/validator/**/*.ts'],
    prefixes: ['src/validator/'],
    observers: ['vitest:test/validator', 'suite:payee'],
    // the judge forgets the validator's caches (src/caches.ts) before each mutant
    judge: true,
  },
];

/** The scope of a file (a path relative to the project root, `/`-separated), or undefined. */
export function scopeOf(relativePath) {
  const p = relativePath.replaceAll('\\', '/').replace(/^\.\//, '');
  return SCOPES.find((s) => s.prefixes.some((prefix) => p === prefix || p.startsWith(prefix)));
}
