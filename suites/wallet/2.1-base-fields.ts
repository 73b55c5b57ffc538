/**
 * CPR-1.0 sections 1, 2.1 and 8 as a paying application reads them: every CPR has a validity
 * window (created_at to expires_at, both required); the validity of a request is bounded by its
 * expires_at; extensions is a map of proprietary or future fields. A request that breaks one of
 * them is no CPR the wallet may derive a Payment from (4.4 step 1: parse and validate).
 */
import { check, forEachWalletChannel } from '../_lib/index.js';
import {
  allCases,
  baseCpr,
  deriveContext,
  expectRejection,
  HOUR,
  isoFromNow,
  type JsonObject,
} from './_support/index.js';

/** `cpr` without its member `name`. */
function without(cpr: JsonObject, name: string): JsonObject {
  const { [name]: _dropped, ...rest } = cpr;
  return rest;
}

describe('CPR-1.0 sections 1, 2.1 and 8: the validity window and extensions (wallet reading)', () => {
  forEachWalletChannel((wallet) => {
    check(
      'request-without-validity-window-refused',
      ['CPR-1-VALIDITY-WINDOW'],
      'every CPR has a validity window (created_at to expires_at): a request without created_at, without expires_at, or with either null is refused',
      async () => {
        const base = await baseCpr(wallet);
        await allCases(
          [
            ['without created_at', without(base, 'created_at')],
            ['without expires_at', without(base, 'expires_at')],
            ['with created_at null', { ...base, created_at: null }],
            ['with expires_at null', { ...base, expires_at: null }],
          ] as const,
          ([what]) => `a request ${what}`,
          async ([what, cpr]) => {
            expectRejection(await wallet.derive({ cpr, context: deriveContext() }), `a request ${what}`);
          },
        );
      },
    );

    check(
      'request-validity-bounded-by-expires-at',
      ['CPR-8-REQUEST-VALIDITY'],
      'the validity of a request is bounded by expires_at, which is required: a request without expires_at, and one whose expires_at passed a minute or an hour ago, are refused',
      async () => {
        const base = await baseCpr(wallet);
        await allCases(
          [
            ['without expires_at', without(base, 'expires_at')],
            [
              'whose expires_at passed a minute ago',
              { ...base, created_at: isoFromNow(-2 * HOUR), expires_at: isoFromNow(-60_000) },
            ],
            [
              'whose expires_at passed an hour ago',
              { ...base, created_at: isoFromNow(-3 * HOUR), expires_at: isoFromNow(-HOUR) },
            ],
          ] as const,
          ([what]) => `a request ${what}`,
          async ([what, cpr]) => {
            expectRejection(await wallet.derive({ cpr, context: deriveContext() }), `a request ${what}`);
          },
        );
      },
    );

    check(
      'extensions-not-map-refused',
      ['CPR-2.1-EXTENSIONS-MAP'],
      'extensions holds proprietary or future fields as a map: a request whose extensions is an array, a string, a number or a boolean is refused',
      async () => {
        const base = await baseCpr(wallet);
        await allCases(
          [
            ['an array', [{ 'com.example:x': 1 }]],
            ['a string', 'com.example:x=1'],
            ['a number', 42],
            ['a boolean', true],
          ] as const,
          ([what]) => `a request whose extensions is ${what}`,
          async ([what, extensions]) => {
            expectRejection(
              await wallet.derive({ cpr: { ...base, extensions }, context: deriveContext() }),
              `a request whose extensions is ${what}`,
            );
          },
        );
      },
    );
  });
});
