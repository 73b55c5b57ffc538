/**
 * The foreign faults `npm test` runs on every build (one per target, each caught only since the
 * checks this project added after the foreign stack's first run, or a money flow), so that the
 * referee cannot rot; `npm run foreign` runs all of them.
 */
export const CI_SLICE: readonly string[] = [
  'payee-served-to-client',
  'wallet-redirect-to-http',
  'op-cancel-refunds',
];
