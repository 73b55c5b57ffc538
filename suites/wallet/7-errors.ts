/**
 * CPR-1.0 section 7 rule 2 (and 2.1 expires_at, invariants 2 and 7): a paying application never
 * fulfils a request whose expires_at is in the past; the profile code is EXPIRED (422).
 */
import fc from 'fast-check';
import {
  assertProperty,
  check,
  type DeriveResult,
  forEachWalletChannel,
  type WalletDriver,
} from '../_lib/index.js';
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

/** Derives `base` with expires_at set to `expiresAt`. */
async function deriveExpiringAt(
  wallet: WalletDriver,
  base: JsonObject,
  expiresAt: string,
): Promise<{ result: DeriveResult; expiresAt: string }> {
  const result = await wallet.derive({ cpr: { ...base, expires_at: expiresAt }, context: deriveContext() });
  return { result, expiresAt };
}

/** Attempts of {@link deriveExpiringNow} before a refusal is taken whatever its timing. */
const NOW_ATTEMPTS = 3;
/** Least time left in the current second for an attempt to start in it (else it waits for the next). */
const NOW_MIN_LEFT_MS = 150;

/**
 * Derives `base` with expires_at the current second S of the suite's clock, so that a wallet
 * whose clock reads whole seconds sees expires_at equal to its now, and one that pays a request
 * at exactly expires_at is caught. A payment ends it at once (the request was due to be refused,
 * whenever the wallet read its clock). A refusal whose answer came back after S ended says
 * nothing about "exactly now" (the wallet may have read S+1): the derivation is made again, up to
 * {@link NOW_ATTEMPTS} times, the last one sent in the first 200 ms of a second. An attempt starts
 * at once when at least {@link NOW_MIN_LEFT_MS} of the second is left: most attempts sleep not at
 * all.
 */
async function deriveExpiringNow(
  wallet: WalletDriver,
  base: JsonObject,
): Promise<{ result: DeriveResult; expiresAt: string }> {
  for (let attempt = 1; ; attempt++) {
    const into = Date.now() % 1000;
    const latestStart = attempt === NOW_ATTEMPTS ? 200 : 1000 - NOW_MIN_LEFT_MS;
    if (into >= latestStart) await new Promise((resolve) => setTimeout(resolve, 1000 - into));
    const sent = await deriveExpiringAt(wallet, base, isoFromNow(0)); // this second, S
    const stillS = Math.floor(Date.now() / 1000) * 1000 === Date.parse(sent.expiresAt);
    if (sent.result.ok || stillS || attempt === NOW_ATTEMPTS) return sent;
  }
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
          { overlap: true },
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
        const base = await baseCpr(wallet, { created_at: isoFromNow(-HOUR) });
        const { result, expiresAt } = await deriveExpiringNow(wallet, base);
        expectRejection(result, `a request expiring at ${expiresAt} (now)`);
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
          const { result, expiresAt } =
            ago === 0
              ? await deriveExpiringNow(wallet, base)
              : await deriveExpiringAt(wallet, base, isoFromNow(-ago));
          expectRejectionCode(result, ['EXPIRED'], `a request expiring at ${expiresAt}`);
        }
      },
    );
  });
});
