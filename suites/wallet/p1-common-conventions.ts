/**
 * Profile section 1 (common conventions) as a wallet reads them: timestamps with any RFC 3339
 * offset compared as instants; amounts as digit strings never parsed into a JS number; a JSON
 * number amount accepted when a safe integer (a PROFILE warning otherwise) and refused when not.
 */
import { assertThat, check, forEachWalletChannel, type WalletDriver } from '../_lib/index.js';
import {
  allCases,
  baseCpr,
  cprOfRail,
  deriveContext,
  expectPayment,
  expectRejection,
  HOUR,
  type JsonObject,
  member,
  payableRail,
  short,
} from './_support/index.js';

/** `instantMs` written as local time with the offset `offsetMinutes` (e.g. +300 for +05:00). */
function withOffset(instantMs: number, offsetMinutes: number): string {
  const local = new Date(Math.floor(instantMs / 1000) * 1000 + offsetMinutes * 60_000)
    .toISOString()
    .slice(0, 19);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** A CPR of a rail the wallet pays whose value.amount is `amount` (any JSON value). */
async function withAmount(wallet: WalletDriver, amount: unknown): Promise<JsonObject> {
  const cpr = await baseCpr(wallet);
  (cpr.value as JsonObject).amount = amount;
  return cpr;
}

describe('Profile section 1: common conventions (wallet reading)', () => {
  forEachWalletChannel((wallet) => {
    check(
      'reader-accepts-rfc-3339-offset-expires-hour',
      ['PRF-1-TIMESTAMP-ANY-OFFSET'],
      'a reader accepts any RFC 3339 offset: expires_at one hour ahead written at -05:00 (its local time looks past) is accepted',
      async () => {
        const now = Date.now();
        const cpr = await baseCpr(wallet, {
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
        const cpr = await baseCpr(wallet, {
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
            await wallet.derive({ cpr: await withAmount(wallet, amount), context: deriveContext() }),
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
          await wallet.derive({ cpr: await withAmount(wallet, 125_000), context: deriveContext() }),
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
      // safe integers outside the amount range of profile 1 (1 to 2^256 - 1)
      ['0', 0],
      ['-5', -5],
    ] as const) {
      check(
        `wallet-given-json-number-amount-${what}`,
        ['PRF-1-AMOUNT-NUMBER-UNSAFE'],
        `a wallet given a JSON-number amount rejects any other number (${what})`,
        async () => {
          expectRejection(
            await wallet.derive({ cpr: await withAmount(wallet, amount), context: deriveContext() }),
            `the request of amount ${what} (a JSON number)`,
          );
        },
      );
    }

    check(
      'reader-accepts-extreme-offsets-plus-14-minus-12',
      ['PRF-1-TIMESTAMP-ANY-OFFSET'],
      'a reader accepts the extreme RFC 3339 offsets and compares instants: timestamps at +14:00 and -12:00 of a valid request are accepted',
      async () => {
        const now = Date.now();
        const cases: [string, Record<string, unknown>][] = [
          // local time 11 h in the past although the instant is an hour ahead
          [
            'expires_at one hour ahead at -12:00',
            { created_at: withOffset(now - HOUR, -720), expires_at: withOffset(now + HOUR, -720) },
          ],
          // local time 13 h in the future although the instant is an hour ago
          [
            'created_at one hour ago at +14:00',
            { created_at: withOffset(now - HOUR, 840), expires_at: withOffset(now + 2 * HOUR, 840) },
          ],
          [
            'created_at at +14:00 and expires_at at -12:00',
            { created_at: withOffset(now - HOUR, 840), expires_at: withOffset(now + HOUR, -720) },
          ],
          [
            'created_at at -12:00 and expires_at at +14:00',
            { created_at: withOffset(now - HOUR, -720), expires_at: withOffset(now + 2 * HOUR, 840) },
          ],
        ];
        await allCases(
          cases,
          ([what]) => what,
          async ([what, overrides]) => {
            const cpr = await baseCpr(wallet, overrides);
            expectPayment(
              await wallet.derive({ cpr, context: deriveContext() }),
              `a valid request with ${what} (created_at ${String(cpr.created_at)}, expires_at ${String(cpr.expires_at)})`,
            );
          },
        );
      },
    );

    check(
      'reader-compares-instants-extreme-offsets-expired-refused',
      ['PRF-1-TIMESTAMP-ANY-OFFSET'],
      'a reader compares instants: a request that expired an hour ago is refused when written at +14:00 (local time 13 h ahead) and at -12:00',
      async () => {
        const now = Date.now();
        const cases: [string, Record<string, unknown>][] = [
          [
            'expires_at one hour ago at +14:00',
            { created_at: withOffset(now - 3 * HOUR, 840), expires_at: withOffset(now - HOUR, 840) },
          ],
          [
            'expires_at one minute ago at +14:00',
            { created_at: withOffset(now - 3 * HOUR, 840), expires_at: withOffset(now - 60_000, 840) },
          ],
          [
            'expires_at one hour ago at -12:00',
            { created_at: withOffset(now - 3 * HOUR, -720), expires_at: withOffset(now - HOUR, -720) },
          ],
        ];
        await allCases(
          cases,
          ([what]) => what,
          async ([what, overrides]) => {
            const cpr = await baseCpr(wallet, overrides);
            expectRejection(
              await wallet.derive({ cpr, context: deriveContext() }),
              `a request with ${what} (${String(cpr.expires_at)})`,
            );
          },
        );
      },
    );

    check(
      'memo-length-counts-code-points-140-accepted',
      ['CPR-2.1-MEMO-LENGTH', 'CPR-8-MEMO-LENGTH', 'PRF-2-LENGTH-CODE-POINTS'],
      'memo length counts code points: a memo of 140 code points outside the BMP (280 UTF-16 units), or mixed, is accepted (a longer one may be refused or derived: profile 3, AMB-41)',
      async () => {
        await allCases(
          [
            ['140 astral code points', '\u{1F4B6}'.repeat(140)],
            ['140 mixed code points', `${'\u{1F600}'.repeat(70)}${'\u00e9'.repeat(70)}`],
          ] as const,
          ([what]) => `a memo of ${what}`,
          async ([what, memo]) => {
            const cpr = await baseCpr(wallet, { memo });
            expectPayment(
              await wallet.derive({ cpr, context: deriveContext() }),
              `a request whose memo has ${what}`,
            );
          },
        );
      },
    );

    check(
      'remittance-length-counts-code-points-140-accepted',
      [
        'CPR-2.6-REMITTANCE-LENGTH',
        'CPR-2.7-REMITTANCE-LENGTH',
        'CPR-8-REMITTANCE-LENGTH',
        'PRF-2-LENGTH-CODE-POINTS',
      ],
      'remittance_info length counts code points: 140 code points outside the BMP (280 UTF-16 units) are accepted (more may be refused or derived: profile 3, AMB-41)',
      async () => {
        const rail = await payableRail(wallet, ['ON_CHAIN', 'PIX', 'UPI']);
        const cpr = cprOfRail(rail, { remittance_info: '\u{1F4B6}'.repeat(140) });
        expectPayment(
          await wallet.derive({ cpr, context: deriveContext() }),
          `a ${rail} request whose remittance_info has 140 astral code points`,
        );
      },
    );
  });
});
