/**
 * CPR-1.0 section 7 rule 2 (and 2.1 expires_at, invariants 2 and 7): a paying application never
 * fulfils a request whose expires_at is in the past; the profile code is EXPIRED (422).
 */
import fc from 'fast-check';
import { assertProperty, check, forEachWalletChannel } from '../_lib/index.js';
import {
  deriveContext,
  expectRejection,
  expectRejectionCode,
  fail,
  HOUR,
  ibanCpr,
  isoFromNow,
} from './_wallet.js';

const EXPIRED_IDS = ['CPR-7-EXPIRED-REJECTED', 'CPR-INV-2-EXPIRY-ENFORCEMENT', 'CPR-INV-7-REJECTS-EXPIRED'];

/** A request that expired `agoMs` ago (created two hours before that). */
function expired(agoMs: number) {
  return ibanCpr({ created_at: isoFromNow(-agoMs - 2 * HOUR), expires_at: isoFromNow(-agoMs) });
}

describe('CPR-1.0 section 7: errors (expired requests)', () => {
  forEachWalletChannel((wallet) => {
    check(
      'request-whose-expires-past-hour-ago-rejected',
      EXPIRED_IDS,
      'a request whose expires_at is in the past (an hour ago) is rejected',
      async () => {
        expectRejection(
          await wallet.derive({ cpr: expired(HOUR), context: deriveContext() }),
          'a request expired an hour ago',
        );
      },
    );

    check(
      'request-expired-minute-ago-rejected',
      EXPIRED_IDS,
      'a request that expired a minute ago is rejected',
      async () => {
        expectRejection(
          await wallet.derive({ cpr: expired(60_000), context: deriveContext() }),
          'a request expired a minute ago',
        );
      },
    );

    check(
      'request-whose-expires-instant-past-rejected-generated',
      EXPIRED_IDS,
      'a request whose expires_at is any instant in the past is rejected (generated)',
      async () => {
        await assertProperty(
          fc.asyncProperty(fc.integer({ min: 60_000, max: 20 * 365 * 24 * HOUR }), async (agoMs) => {
            const r = await wallet.derive({ cpr: expired(agoMs), context: deriveContext() });
            if (r.ok)
              fail(
                `the wallet derived a payment from a request that expired ${Math.round(agoMs / 1000)} s ago`,
              );
          }),
        );
      },
    );

    check(
      'expired-request-refused-422-expired-message',
      ['PRF-3-DERIVE-ERROR-CODES'],
      'an expired request is refused with 422 EXPIRED and a message',
      async () => {
        expectRejectionCode(
          await wallet.derive({ cpr: expired(HOUR), context: deriveContext() }),
          ['EXPIRED'],
          'a request expired an hour ago',
        );
      },
    );
  });
});
