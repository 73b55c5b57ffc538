import { createWalletCore } from '../../../src/reference/wallet/index.js';
import { brokenWallet, cprOf, editRequests } from './harness.js';

/** A request without expires_at (or with it null) is read as one that never expires. */
export const expiresAtOptional = brokenWallet({
  id: 'wallet-expires-at-optional',
  fault:
    'a request without expires_at (or with expires_at null) is derived as one that never expires, instead of refused',
  expected: [
    'CPR-1-VALIDITY-WINDOW',
    'CPR-2.1-REQUIRED-FIELDS',
    'CPR-4.4-PARSE-VALIDATE',
    'CPR-8-REQUEST-VALIDITY',
    'CPR-INV-7-VALIDATES-BASE',
    'PRF-3-DERIVE-ERROR-CODES',
  ],
  core: (options) =>
    editRequests(createWalletCore(options), (body) => {
      const cpr = cprOf(body);
      if (cpr && (cpr.expires_at === undefined || cpr.expires_at === null))
        cpr.expires_at = '9999-12-31T23:59:59Z'; // the fault: no expiry means none
      return body;
    }),
});

/** extensions is never read, so a value that is no map passes the validation unseen. */
export const extensionsNeverRead = brokenWallet({
  id: 'wallet-extensions-never-read',
  fault:
    'the validation of 4.4 step 1 never reads extensions: a request whose extensions is an array, a string, a number or a boolean is derived',
  expected: [
    'CPR-2.1-EXTENSIONS-MAP',
    'CPR-2.1-FIELD-TYPES',
    'CPR-4.4-PARSE-VALIDATE',
    'CPR-INV-7-VALIDATES-BASE',
    'PRF-3-DERIVE-ERROR-CODES',
  ],
  core: (options) =>
    editRequests(createWalletCore(options), (body) => {
      const cpr = cprOf(body);
      const ext = cpr?.extensions;
      if (cpr && ext !== undefined && (typeof ext !== 'object' || ext === null || Array.isArray(ext)))
        delete cpr.extensions; // the fault: never looked at, so never refused
      return body;
    }),
});
