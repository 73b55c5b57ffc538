import { derivePayment } from '../../../src/reference/wallet/derive.js';
import { brokenWallet } from './harness.js';

/** The wallet has no way to retrieve a reference URI (no fetcher): every token is refused. */
export const noReferenceUris = brokenWallet({
  id: 'wallet-no-reference-uris',
  fault: 'the wallet cannot retrieve the CPR behind a reference URI and refuses every token',
  // PRF-3-RETRIEVAL-URL: no retrieval ever reaches {endpoint}/cpr/{token}; the delivery-path checks
  // (every path, rail and amount kind) fail through every reference URI
  expected: [
    'CPR-4.3-WALLET-RESOLVES-URI',
    'CPR-4.4-ASSEMBLE-PAYMENT',
    'CPR-4.5-OPEN-AMOUNT',
    'CPR-INV-7-DERIVATION',
    'PRF-2-REFERENCE-FULL-ENDPOINT',
    'PRF-3-DERIVE-ERROR-CODES',
    'PRF-3-PAYER-DATA-REFUSED-OR-IGNORED',
    'PRF-3-RETRIEVAL-URL',
    'CPR-2.10-AUTHORIZATION',
    'CPR-2.10-ID',
    'CPR-2.10-INTENT-REFERENCE',
    'CPR-2.10-PAYER',
    'CPR-2.10-REQUEST-ID-BOUND',
    'PRF-3-PAYMENT-CONTEXT-RAIL',
  ],
  core: (options) => ({
    // the reference derivation, without its CPR fetcher
    derive: (body) =>
      derivePayment(body as Parameters<typeof derivePayment>[0], {
        now: new Date(),
        supportedRails: options.supportedRails,
      }),
    close: async () => undefined,
  }),
});
