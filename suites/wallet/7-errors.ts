/**
 * CPR-1.0 section 7 rule 2 (and 2.1 expires_at, invariants 2 and 7): a paying application never
 * fulfils a request whose expires_at is in the past; the profile code is EXPIRED (422).
 */
import fc from 'fast-check';
import { assertProperty, check, forEachWalletChannel, type WalletDriver } from '../_lib/index.js';
import {
  baseCpr,
  deriveContext,
  expectRejection,
  expectRejectionCode,
  fail,
  HOUR,
  isoFromNow,
  type JsonObject,
} from './_support/index.js';

const EXPIRED_IDS = ['CPR-7-EXPIRED-REJECTED', 'CPR-INV-2-EXPIRY-ENFORCEMENT', 'CPR-INV-7-REJECTS-EXPIRED'];

/** A request of a rail the wallet pays that expired `agoMs` ago (created two hours before that). */
async function expired(wallet: WalletDriver, agoMs: number): Promise<JsonObject> {
  return baseCpr(wallet, { created_at: isoFromNow(-agoMs - 2 * HOUR), expires_at: isoFromNow(-agoMs) });
}

/** The current instant to the whole second (so never after the wallet's now), written with `Z`. */
function thisSecond(): string {
  return new Date(Math.floor(Date.now() / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/**
 * The current second, read in its first 200 ms (waiting up to a second for the next one): the
 * request then reaches the wallet within that second, so a wallet whose clock reads whole seconds
 * sees expires_at equal to its now, and one that pays a request at exactly expires_at is caught.
 */
async function thisSecondFromItsStart(): Promise<string> {
  const into = Date.now() % 1000;
  if (into >= 200) await new Promise((resolve) => setTimeout(resolve, 1000 - into));
  return thisSecond();
}

/** `cpr` with expires_at the current second (read at its start). */
async function expiringNow(cpr: JsonObject): Promise<JsonObject> {
  return { ...cpr, expires_at: await thisSecondFromItsStart() };
}

describe('CPR-1.0 section 7: errors (expired requests)', () => {
  forEachWalletChannel((wallet) => {
    check(
      'request-whose-expires-past-hour-ago-rejected',
      EXPIRED_IDS,
      'a request whose expires_at is in the past (an hour ago) is rejected',
      async () => {
        expectRejection(
          await wallet.derive({ cpr: await expired(wallet, HOUR), context: deriveContext() }),
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
          await wallet.derive({ cpr: await expired(wallet, 60_000), context: deriveContext() }),
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
            const r = await wallet.derive({ cpr: await expired(wallet, agoMs), context: deriveContext() });
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
          await wallet.derive({ cpr: await expired(wallet, HOUR), context: deriveContext() }),
          ['EXPIRED'],
          'a request expired an hour ago',
        );
      },
    );

    check(
      'request-expiring-exactly-now-rejected',
      EXPIRED_IDS,
      'a request whose expires_at is exactly now (this very second) is rejected: it is no longer in the future',
      async () => {
        const cpr = await expiringNow(await baseCpr(wallet, { created_at: isoFromNow(-HOUR) }));
        expectRejection(
          await wallet.derive({ cpr, context: deriveContext() }),
          `a request expiring at ${String(cpr.expires_at)} (now)`,
        );
      },
    );

    check(
      'request-expired-one-second-ago-rejected',
      EXPIRED_IDS,
      'a request whose expires_at passed one second ago is rejected (no grace period)',
      async () => {
        const cpr = await baseCpr(wallet, { created_at: isoFromNow(-HOUR), expires_at: isoFromNow(-1000) });
        expectRejection(
          await wallet.derive({ cpr, context: deriveContext() }),
          `a request that expired at ${String(cpr.expires_at)} (a second ago)`,
        );
      },
    );

    check(
      'request-at-expiry-boundary-refused-422-expired',
      ['PRF-3-DERIVE-ERROR-CODES'],
      'a request expiring now or a second ago is refused with 422 EXPIRED',
      async () => {
        for (const ago of [0, 1000]) {
          const base = await baseCpr(wallet, { created_at: isoFromNow(-HOUR) });
          const cpr = ago === 0 ? await expiringNow(base) : { ...base, expires_at: isoFromNow(-ago) };
          expectRejectionCode(
            await wallet.derive({ cpr, context: deriveContext() }),
            ['EXPIRED'],
            `a request expiring at ${String(cpr.expires_at)}`,
          );
        }
      },
    );
  });
});
