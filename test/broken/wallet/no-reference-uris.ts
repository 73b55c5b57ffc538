import { derivePayment } from '../../../src/reference/wallet/derive.js';
import { brokenWallet } from './harness.js';
import { NO_REFERENCE_URI_PAID } from './retrieval-faults.js';

/** The wallet has no way to retrieve a reference URI (no fetcher): every token is refused. */
export const noReferenceUris = brokenWallet({
  id: 'wallet-no-reference-uris',
  fault: 'the wallet cannot retrieve the CPR behind a reference URI and refuses every token',
  // PRF-3-RETRIEVAL-URL: no retrieval ever reaches {endpoint}/cpr/{token}; the delivery-path checks
  // (every path, rail and amount kind) fail through every reference URI
  expected: NO_REFERENCE_URI_PAID,
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
