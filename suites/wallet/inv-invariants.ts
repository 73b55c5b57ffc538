/**
 * CPR-1.0 invariants and 4.4 step 2 (rail selection): rail_hint is advisory (INV-4) and a
 * conformant paying application ignores unrecognised rail_hint values gracefully (INV-7). Profile
 * 3 reads an unrecognised hint as OPEN: the sub-interface the fields complete decides, and a
 * wallet serving a rail of it pays; UNSUPPORTED_RAIL is correct only when it serves none (what it
 * serves: `wallet.supported_rails`, or else the same request under OPEN being paid).
 */
import fc from 'fast-check';
import { RAIL_HINTS } from '../../src/model/cpr.js';
import { check, forEachWalletChannel, skip } from '../_lib/index.js';
import {
  baseCpr,
  deriveContext,
  expectationOf,
  expectReadAsOpen,
  type JsonObject,
  payableCprArbitrary,
  payableRails,
  paymentOrUnsupported,
  propertyPerRail,
} from './_support/index.js';

/** The eight values in lower case: a hint equal to one of them but for case has its own check (p3-reading). */
const FOLDED = new Set(RAIL_HINTS.map((h) => h.toLowerCase()));

describe('CPR-1.0 invariants: rail_hint is advisory', () => {
  forEachWalletChannel((wallet) => {
    for (const hint of ['FEDNOW', 'INSTANT_PAYMENT', 'SEPA-CT', 'com.example:RTP']) {
      check(
        `conformant-paying-application-ignores-unrecognized-${hint}`,
        ['CPR-INV-7-UNKNOWN-RAIL-HINT-TOLERATED', 'PRF-3-UNKNOWN-RAIL-HINT-AS-OPEN'],
        `a conformant paying application ignores an unrecognized rail_hint (${hint}) gracefully rather than erroring: read as OPEN, the request is paid when the wallet serves a rail of its sub-interface`,
        async () => {
          // on-chain needs rail_hint ON_CHAIN (spec 2.5), so its request is no candidate for an unknown hint
          const cpr = await baseCpr(wallet, { rail_hint: hint }, ['ON_CHAIN']);
          await expectReadAsOpen(wallet, cpr, await wallet.derive({ cpr, context: deriveContext() }));
        },
      );
    }

    check(
      'unrecognized-rail-hint-ignored-gracefully-generated-requests',
      ['CPR-INV-7-UNKNOWN-RAIL-HINT-TOLERATED', 'PRF-3-UNKNOWN-RAIL-HINT-AS-OPEN'],
      'an unrecognized rail_hint is ignored gracefully, read as OPEN (generated requests and hints)',
      async () => {
        const unknownHint = fc
          .string({ minLength: 1, maxLength: 16 })
          .filter((h) => !FOLDED.has(h.toLowerCase()));
        // on-chain needs rail_hint ON_CHAIN (spec 2.5), so it is no candidate for an unknown hint
        await propertyPerRail(
          payableRails().filter((r) => r !== 'ON_CHAIN'),
          (rail) => fc.tuple(payableCprArbitrary(rail), unknownHint),
          async ([cpr, hint]) => {
            const hinted = { ...cpr, rail_hint: hint };
            await expectReadAsOpen(
              wallet,
              hinted,
              await wallet.derive({ cpr: hinted, context: deriveContext() }),
            );
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
