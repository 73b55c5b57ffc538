// Temporary forwarder (now suites/payee/_support/randomness.ts); removed with ./_support.ts.
export * from './_support/randomness.js';
