/**
 * CPR-1.0 invariants and 4.4 step 2 (rail selection): rail_hint is advisory (INV-4) and a
 * conformant paying application ignores unrecognised rail_hint values gracefully (INV-7, AMB-13:
 * a Payment through the sub-interface the fields complete, or UNSUPPORTED_RAIL with a message).
 */
import fc from 'fast-check';
import { RAIL_HINTS } from '../../src/model/cpr.js';
import { check, type DeriveResult, forEachWalletChannel, skip } from '../_lib/index.js';
import {
  baseCpr,
  deriveContext,
  describeResult,
  expectationOf,
  fail,
  type JsonObject,
  payableCprArbitrary,
  payableRails,
  paymentOrUnsupported,
  propertyPerRail,
} from './_support/index.js';

/** AMB-13: a Payment, or UNSUPPORTED_RAIL with a non-empty message; anything else is an error over the hint. */
function tolerated(r: DeriveResult): boolean {
  return r.ok || (r.error.code === 'UNSUPPORTED_RAIL' && (r.error.message ?? '').trim() !== '');
}

describe('CPR-1.0 invariants: rail_hint is advisory', () => {
  forEachWalletChannel((wallet) => {
    for (const hint of ['FEDNOW', 'INSTANT_PAYMENT', 'sepa_ct', 'com.example:RTP']) {
      check(
        `conformant-paying-application-ignores-unrecognized-${hint}`,
        ['CPR-INV-7-UNKNOWN-RAIL-HINT-TOLERATED'],
        `a conformant paying application ignores an unrecognized rail_hint (${hint}) gracefully rather than erroring`,
        async () => {
          // on-chain needs rail_hint ON_CHAIN (spec 2.5), so its request is no candidate for an unknown hint
          const cpr = await baseCpr(wallet, { rail_hint: hint }, ['ON_CHAIN']);
          const r = await wallet.derive({ cpr, context: deriveContext() });
          if (!tolerated(r))
            fail(`rail_hint ${JSON.stringify(hint)} made the wallet error: ${describeResult(r)}`);
        },
      );
    }

    check(
      'unrecognized-rail-hint-ignored-gracefully-generated-requests',
      ['CPR-INV-7-UNKNOWN-RAIL-HINT-TOLERATED'],
      'an unrecognized rail_hint is ignored gracefully (generated requests and hints)',
      async () => {
        const unknownHint = fc
          .string({ minLength: 1, maxLength: 16 })
          .filter((h) => !(RAIL_HINTS as readonly string[]).includes(h));
        // on-chain needs rail_hint ON_CHAIN (spec 2.5), so it is no candidate for an unknown hint
        await propertyPerRail(
          payableRails().filter((r) => r !== 'ON_CHAIN'),
          (rail) => fc.tuple(payableCprArbitrary(rail), unknownHint),
          async ([cpr, hint]) => {
            const r = await wallet.derive({ cpr: { ...cpr, rail_hint: hint }, context: deriveContext() });
            if (!tolerated(r))
              fail(`rail_hint ${JSON.stringify(hint)} made the wallet error: ${describeResult(r)}`);
          },
        );
      },
    );

    for (const [what, overrides] of [
      ['without rail_hint', { rail_hint: undefined }],
      ['with rail_hint OPEN', { rail_hint: 'OPEN' }],
    ] as const) {
      check(
        `rail-hint-advisory-mandatory-constraint-${what}`,
        [
          'CPR-INV-4-RAIL-HINT-ADVISORY',
          'CPR-4.4-RAIL-HINT-SIGNAL',
          'CPR-2.1-RAIL-HINT-NON-BINDING',
          'CPR-4.4-NO-RAIL-RESTRICTION',
        ],
        `rail_hint is advisory, never a mandatory constraint: a request ${what} is paid`,
        async () => {
          const cpr: JsonObject = await baseCpr(wallet, overrides, ['ON_CHAIN']);
          if (expectationOf(cpr) === 'unsupported')
            skip('wallet.supported_rails names no rail of the request sub-interface');
          paymentOrUnsupported(
            await wallet.derive({ cpr, context: deriveContext() }),
            cpr,
            `a request ${what}`,
          );
        },
      );
    }
  });
});
