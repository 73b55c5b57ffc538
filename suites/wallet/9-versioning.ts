/**
 * CPR-1.0 section 9 (versioning): paying applications validate cpr_version before processing
 * (rule 1, with 4.3 rule 3 and 4.4 step 1) and ignore unrecognised extension fields (rule 3).
 */
import fc from 'fast-check';
import { extensionsArbitrary } from '../../src/testing/arbitraries.js';
import { assertProperty, check, forEachWalletChannel, type WalletDriver } from '../_lib/index.js';
import {
  baseCpr,
  deriveContext,
  expectPayment,
  expectRejection,
  expectRejectionCode,
  fail,
  type JsonObject,
  jsonEqual,
  payableCprArbitrary,
  paymentOrUnsupported,
  short,
} from './_support/index.js';

const VERSION_IDS = [
  'CPR-9-VERSION-VALIDATED',
  'CPR-4.3-VALIDATE-BEFORE-PROCESSING',
  'CPR-4.4-PARSE-VALIDATE',
];

const WRONG_VERSIONS: readonly unknown[] = ['CPR-2.0', 'CPR-1.1', 'cpr-1.0', 'CPR-1.0 ', '1.0', '', 1.0];

/** The Payment without its id (fresh every time): what must not change when extensions are added. */
function withoutId(payment: JsonObject): JsonObject {
  const { id: _id, ...rest } = payment;
  return rest;
}

/** Derives `cpr` with and without its extensions under one context; both must give equal payments. */
async function sameWithAndWithout(wallet: WalletDriver, cpr: JsonObject, what: string): Promise<void> {
  const ctx = deriveContext();
  const bare = structuredClone(cpr);
  delete bare.extensions;
  const rWith = await wallet.derive({ cpr, context: ctx });
  const withExt = paymentOrUnsupported(rWith, cpr, `${what} with extensions ${short(cpr.extensions)}`);
  if (!withExt) return;
  const without = expectPayment(
    await wallet.derive({ cpr: bare, context: ctx }),
    `${what} without extensions`,
  );
  if (!jsonEqual(withoutId(withExt), withoutId(without))) {
    fail(
      `the payment changed when the unrecognised extensions ${short(cpr.extensions)} were added: ${short(withoutId(withExt))} instead of ${short(withoutId(without))}`,
    );
  }
}

describe('CPR-1.0 section 9: versioning', () => {
  forEachWalletChannel((wallet) => {
    for (const version of WRONG_VERSIONS) {
      check(
        `refuses-cpr-version-${Buffer.from(JSON.stringify(version)).toString('hex')}`,
        VERSION_IDS,
        `paying applications validate cpr_version before processing: ${JSON.stringify(version)} is refused`,
        async () => {
          expectRejection(
            await wallet.derive({
              cpr: await baseCpr(wallet, { cpr_version: version }),
              context: deriveContext(),
            }),
            `a request with cpr_version ${JSON.stringify(version)}`,
          );
        },
      );
    }

    check(
      'request-without-cpr-version-refused',
      VERSION_IDS,
      'a request without cpr_version is refused',
      async () => {
        expectRejection(
          await wallet.derive({
            cpr: await baseCpr(wallet, { cpr_version: undefined }),
            context: deriveContext(),
          }),
          'a request without cpr_version',
        );
      },
    );

    check(
      'cpr-version-other-cpr-1-0-refused',
      ['CPR-9-VERSION-VALIDATED'],
      'any cpr_version other than "CPR-1.0" is refused (generated strings)',
      async () => {
        await assertProperty(
          fc.asyncProperty(
            fc
              .oneof(fc.string({ maxLength: 12 }), fc.stringMatching(/^CPR-[0-9]\.[0-9]$/))
              .filter((v) => v !== 'CPR-1.0'),
            async (version) => {
              const r = await wallet.derive({
                cpr: await baseCpr(wallet, { cpr_version: version }),
                context: deriveContext(),
              });
              if (r.ok)
                fail(
                  `the wallet derived a payment from a request with cpr_version ${JSON.stringify(version)}`,
                );
            },
          ),
          { overlap: true },
        );
      },
    );

    check(
      'wrong-cpr-version-refused-422-invalid-version',
      ['PRF-3-DERIVE-ERROR-CODES'],
      'a wrong cpr_version is refused with 422 INVALID_VERSION',
      async () => {
        expectRejectionCode(
          await wallet.derive({
            cpr: await baseCpr(wallet, { cpr_version: 'CPR-2.0' }),
            context: deriveContext(),
          }),
          ['INVALID_VERSION'],
          'a request with cpr_version "CPR-2.0"',
        );
      },
    );

    check(
      'missing-cpr-version-refused-422-invalid-version',
      ['PRF-3-DERIVE-ERROR-CODES'],
      'a missing cpr_version is refused with 422 INVALID_VERSION or INVALID_STRUCTURE',
      async () => {
        expectRejectionCode(
          await wallet.derive({
            cpr: await baseCpr(wallet, { cpr_version: undefined }),
            context: deriveContext(),
          }),
          ['INVALID_VERSION', 'INVALID_STRUCTURE'],
          'a request without cpr_version',
        );
      },
    );

    check(
      'implementations-must-ignore-unrecognized-extension-fields',
      ['CPR-9-IGNORE-UNKNOWN-EXTENSIONS', 'CPR-9-EXTENSIONS-NO-BREAK'],
      'implementations must ignore unrecognized extension fields',
      async () => {
        const cpr = await baseCpr(wallet, {
          extensions: {
            'com.example.loyalty:points': 120,
            'foundation:future-sub-interface': { mode: 'split', parts: [1, 2] },
            'org.acme:terminal': { id: 'T-9', lane: null },
            unprefixed_key: ['a', true],
          },
        });
        await sameWithAndWithout(wallet, cpr, 'a request');
      },
    );

    check(
      'unrecognized-extension-fields-change-nothing-derivation-generated',
      ['CPR-9-IGNORE-UNKNOWN-EXTENSIONS', 'CPR-9-EXTENSIONS-NO-BREAK'],
      'unrecognized extension fields change nothing in the derivation (generated extensions)',
      async () => {
        await assertProperty(
          fc.asyncProperty(
            payableCprArbitrary(),
            extensionsArbitrary().filter((e) => Object.keys(e).length > 0),
            async (cpr, extensions) => {
              await sameWithAndWithout(wallet, { ...cpr, extensions }, 'a generated request');
            },
          ),
          { overlap: true },
        );
      },
    );
  });
});
