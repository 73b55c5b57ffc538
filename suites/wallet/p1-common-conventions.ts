/**
 * Profile section 1 (common conventions) as a wallet reads them: timestamps with any RFC 3339
 * offset compared as instants; amounts as digit strings never parsed into a JS number; a JSON
 * number amount accepted when a safe integer (a PROFILE warning otherwise) and refused when not.
 */
import { assertThat, check, forEachWalletChannel } from '../_lib/index.js';
import {
  deriveContext,
  expectPayment,
  expectRejection,
  HOUR,
  ibanCpr,
  type JsonObject,
  member,
  short,
} from './_wallet.js';

/** `instantMs` written as local time with the offset `offsetMinutes` (e.g. +300 for +05:00). */
function withOffset(instantMs: number, offsetMinutes: number): string {
  const local = new Date(Math.floor(instantMs / 1000) * 1000 + offsetMinutes * 60_000)
    .toISOString()
    .slice(0, 19);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** A CPR whose value.amount is `amount` (any JSON value). */
function withAmount(amount: unknown): JsonObject {
  return ibanCpr({ value: { amount, asset: { type: 'fiat', code: 'EUR' } } });
}

describe('Profile section 1: common conventions (wallet reading)', () => {
  forEachWalletChannel((wallet) => {
    check(
      'reader-accepts-rfc-3339-offset-expires-hour',
      ['PRF-1-TIMESTAMP-ANY-OFFSET'],
      'a reader accepts any RFC 3339 offset: expires_at one hour ahead written at -05:00 (its local time looks past) is accepted',
      async () => {
        const now = Date.now();
        const cpr = ibanCpr({
          created_at: withOffset(now - HOUR, -300),
          expires_at: withOffset(now + HOUR, -300),
        });
        expectPayment(
          await wallet.derive({ cpr, context: deriveContext() }),
          `a request expiring at ${cpr.expires_at}`,
        );
      },
    );

    check(
      'reader-compares-instants-expires-hour-ago-written',
      ['PRF-1-TIMESTAMP-ANY-OFFSET'],
      'a reader compares instants: expires_at one hour ago written at +05:00 (its local time looks future) is refused',
      async () => {
        const now = Date.now();
        const cpr = ibanCpr({
          created_at: withOffset(now - 3 * HOUR, 300),
          expires_at: withOffset(now - HOUR, 300),
        });
        expectRejection(
          await wallet.derive({ cpr, context: deriveContext() }),
          `a request that expired at ${cpr.expires_at}`,
        );
      },
    );

    check(
      'amounts-parsed-into-js-number-2-53',
      ['PRF-1-AMOUNT-PRECISION'],
      'amounts are never parsed into a JS number: 2^53 + 1, 2^64 + 3 and 2^256 - 1 are preserved digit for digit',
      async () => {
        for (const amount of [2n ** 53n + 1n, 2n ** 64n + 3n, 2n ** 256n - 1n].map(String)) {
          const payment = expectPayment(
            await wallet.derive({ cpr: withAmount(amount), context: deriveContext() }),
            `the request of amount ${amount}`,
          );
          const got = member(member(payment, 'value'), 'amount');
          assertThat(
            got === amount,
            `payment.value.amount is ${short(got)}, the request's amount is "${amount}"`,
          );
        }
      },
    );

    check(
      'wallet-given-json-number-amount-accepts-safe',
      ['PRF-1-AMOUNT-NUMBER-SAFE'],
      'a wallet given a JSON-number amount accepts a safe integer',
      async () => {
        const payment = expectPayment(
          await wallet.derive({ cpr: withAmount(125_000), context: deriveContext() }),
          'the request of amount 125000 (a JSON number)',
        );
        const got = member(member(payment, 'value'), 'amount');
        assertThat(String(got) === '125000', `payment.value.amount is ${short(got)}, expected 125000`);
      },
    );

    for (const [what, amount] of [
      ['2^53 + 2', 2 ** 53 + 2],
      ['1e21', 1e21],
      ['12.5', 12.5],
    ] as const) {
      check(
        `wallet-given-json-number-amount-${what}`,
        ['PRF-1-AMOUNT-NUMBER-UNSAFE'],
        `a wallet given a JSON-number amount rejects any other number (${what})`,
        async () => {
          expectRejection(
            await wallet.derive({ cpr: withAmount(amount), context: deriveContext() }),
            `the request of amount ${what} (a JSON number)`,
          );
        },
      );
    }
  });
});
