/**
 * CPR-1.0 section 4.5 (interoperability behaviors) and section 7 rules 3-4: an unsupported
 * rail_hint is answered with a message for a person, never silently; an open amount takes the
 * payer's amount; a fixed amount is paid in full or refused.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { SubInterface } from '../../src/model/cpr.js';
import { amountArbitrary, CPR_RAILS } from '../../src/testing/arbitraries.js';
import {
  assertThat,
  check,
  type DeriveInput,
  type DeriveResult,
  forEachWalletChannel,
  skip,
  type WalletDriver,
} from '../_lib/index.js';
import {
  allCases,
  baseCpr,
  cprOfRail,
  cprOfSubInterface,
  deriveContext,
  describeResult,
  expectationOf,
  expectPayment,
  expectRejection,
  expectRejectionCode,
  fail,
  type JsonObject,
  member,
  paymentOrUnsupported,
  propertyPerRail,
  RAILS,
  RAILS_OF_SUB_INTERFACE,
  type Rail,
  railCprArbitrary,
  short,
  supportedRails,
} from './_support/index.js';

/** An amount string of profile section 1: base-10 digits, no leading zero, from 1 to 2^256 - 1. */
function isProfileAmount(value: unknown): boolean {
  return typeof value === 'string' && /^[1-9][0-9]*$/.test(value) && BigInt(value) < 2n ** 256n;
}

const BIG_PAYER_AMOUNT = (2n ** 128n + 7n).toString();

/** A valid CPR hinting `rail`. */
function cprHinting(rail: Rail): JsonObject {
  return cprOfRail(rail);
}

/** A valid open-amount request (no value.amount) of a rail the wallet pays. */
async function openAmountCpr(wallet: WalletDriver): Promise<JsonObject> {
  const cpr = await baseCpr(wallet);
  delete (cpr.value as JsonObject).amount;
  return cpr;
}

/** `wallet.supported_rails`, or skip: the suite cannot know which rail is unsupported. */
function requireSupportedRails(): readonly Rail[] {
  return (
    supportedRails() ??
    skip(
      'wallet.supported_rails is not in the config, so the suite cannot pick a rail the wallet does not support',
    )
  );
}

/** A sub-interface none of whose rails the wallet supports, or skip. */
function unpayableSubInterface(): SubInterface {
  const supported = requireSupportedRails();
  const sub = (['instant-key', 'account', 'onchain', 'iban'] as const).find(
    (s) => !RAILS_OF_SUB_INTERFACE[s].some((r) => supported.includes(r)),
  );
  return (
    sub ??
    skip(
      `the wallet supports a rail of every sub-interface (${supported.join(', ')}), so every request can be paid`,
    )
  );
}

/** A rail the wallet does not support, preferring one whose sub-interface it can otherwise pay. */
function unsupportedRail(): Rail {
  const supported = requireSupportedRails();
  const missing = RAILS.filter((r) => !supported.includes(r));
  if (missing.length === 0) skip('wallet.supported_rails names every rail: no unsupported rail to test');
  return missing.find((r) => expectationOf(cprHinting(r)) === 'either') ?? (missing[0] as Rail);
}

/** A refusal reads as a sentence for a person: letters and spaces, not just a code. */
function humanReadable(message: unknown): boolean {
  return typeof message === 'string' && /[A-Za-z]{2,}\s+\S*[A-Za-z]{2,}/.test(message.trim());
}

/** The wallet answered something: a Payment, or a refusal that carries a code or a message. */
function answered(r: DeriveResult): boolean {
  if (r.ok) return true;
  if (r.error.body !== undefined) return typeof member(r.error.body, 'error') === 'object';
  return r.error.code !== undefined || (r.error.message ?? '') !== '';
}

describe('CPR-1.0 section 4.5: interoperability behaviors', () => {
  forEachWalletChannel((wallet) => {
    check(
      'request-wallet-cannot-pay-rail-supports-silently',
      ['CPR-4.5-UNSUPPORTED-RAIL-NOT-IGNORED', 'CPR-4.4-REJECT-UNSERVABLE-RAIL'],
      'a request the wallet cannot pay on any rail it supports is not silently turned into a Payment: it is refused',
      async () => {
        const sub = unpayableSubInterface();
        const r = await wallet.derive({ cpr: cprOfSubInterface(sub), context: deriveContext() });
        assertThat(
          !r.ok,
          `the wallet derived a payment for a ${sub} request although it supports none of ${RAILS_OF_SUB_INTERFACE[sub].join(', ')} (wallet.supported_rails)`,
        );
        assertThat(answered(r), `the refusal says nothing: ${describeResult(r)}`);
      },
    );

    check(
      'request-supported-rail-refused-422-unsupported-rail',
      ['PRF-3-DERIVE-ERROR-CODES'],
      'a request on no supported rail is refused with 422 UNSUPPORTED_RAIL and a message',
      async () => {
        const sub = unpayableSubInterface();
        expectRejectionCode(
          await wallet.derive({ cpr: cprOfSubInterface(sub), context: deriveContext() }),
          ['UNSUPPORTED_RAIL'],
          `the ${sub} request`,
        );
      },
    );

    check(
      'rail-hint-wallet-does-support-silently-ignored',
      ['CPR-4.5-UNSUPPORTED-RAIL-NOT-IGNORED', 'CPR-4.4-REJECT-UNSERVABLE-RAIL'],
      'a rail_hint the wallet does not support is not silently ignored: the wallet answers with a Payment or a refusal',
      async () => {
        const rail = unsupportedRail();
        const r = await wallet.derive({ cpr: cprHinting(rail), context: deriveContext() });
        assertThat(
          answered(r),
          `the wallet answered neither a payment nor a refusal for rail_hint ${rail}: ${describeResult(r)}`,
        );
      },
    );

    check(
      'unsupported-rail-hint-yields-human-readable-message',
      ['CPR-4.5-UNSUPPORTED-RAIL-MESSAGE', 'CPR-7-UNSUPPORTED-RAIL'],
      'an unsupported rail_hint yields a human-readable message that the method is unsupported',
      async () => {
        const rail = unsupportedRail();
        const r = await wallet.derive({ cpr: cprHinting(rail), context: deriveContext() });
        if (r.ok)
          fail(
            `the wallet derived a payment for rail_hint ${rail}, which it does not support, without a message for the payer`,
          );
        assertThat(
          humanReadable(r.error.message),
          `the refusal of rail_hint ${rail} has no human-readable message: ${describeResult(r)}`,
        );
      },
    );

    check(
      'refused-unsupported-rail-hint-422-unsupported-rail',
      ['PRF-3-DERIVE-ERROR-CODES'],
      'a refused unsupported rail_hint is 422 UNSUPPORTED_RAIL with a message',
      async () => {
        const rail = unsupportedRail();
        const r = await wallet.derive({ cpr: cprHinting(rail), context: deriveContext() });
        if (r.ok)
          skip(
            `the wallet paid the ${rail}-hinted request (by another rail, which spec 4.4 step 2 allows); no refusal to grade`,
          );
        expectRejectionCode(r, ['UNSUPPORTED_RAIL'], `the request hinting ${rail}`);
      },
    );

    check(
      'amount-omitted-amount-payer-gives-becomes-payment',
      ['CPR-4.5-OPEN-AMOUNT', 'CPR-2.3-AMOUNT-OMITTED-OPEN'],
      'amount omitted: the amount the payer gives becomes the payment amount',
      async () => {
        const cpr = await openAmountCpr(wallet);
        const payment = expectPayment(
          await wallet.derive({ cpr, context: deriveContext({ payer_amount: BIG_PAYER_AMOUNT }) }),
          'the derivation of an open-amount request with context.payer_amount',
        );
        const amount = member(member(payment, 'value'), 'amount');
        assertThat(
          amount === BIG_PAYER_AMOUNT,
          `payment.value.amount is ${short(amount)}, expected the payer's amount ${BIG_PAYER_AMOUNT}`,
        );
      },
    );

    check(
      'amount-omitted-payer-s-amount-becomes-payment',
      ['CPR-4.5-OPEN-AMOUNT', 'CPR-2.3-AMOUNT-OMITTED-OPEN'],
      "amount omitted: the payer's amount becomes the payment amount (generated open-amount CPRs of every rail)",
      async () => {
        await propertyPerRail(
          CPR_RAILS,
          (rail) => fc.tuple(railCprArbitrary(rail), amountArbitrary()),
          async ([generated, payerAmount]) => {
            const cpr = structuredClone(generated);
            delete cpr.extensions;
            delete (cpr.value as JsonObject).amount;
            if (expectationOf(cpr) === 'unsupported') return;
            const r = await wallet.derive({ cpr, context: deriveContext({ payer_amount: payerAmount }) });
            const payment = paymentOrUnsupported(r, cpr, 'the derivation of an open-amount request');
            if (!payment) return;
            const amount = member(member(payment, 'value'), 'amount');
            if (amount !== payerAmount)
              fail(`payment.value.amount is ${short(amount)}, expected the payer's amount ${payerAmount}`);
          },
        );
      },
    );

    check(
      'amount-omitted-amount-payer-payment-derived-payer',
      ['CPR-4.5-OPEN-AMOUNT'],
      'amount omitted and no amount from the payer: no payment is derived (the payer must be prompted)',
      async () => {
        const cpr = await openAmountCpr(wallet);
        expectRejection(
          await wallet.derive({ cpr, context: deriveContext() }),
          'an open-amount request without context.payer_amount',
        );
      },
    );

    check(
      'open-amount-without-payer-s-amount-refused',
      ['PRF-3-DERIVE-ERROR-CODES'],
      "an open amount without the payer's amount is refused with 422 AMOUNT_REQUIRED",
      async () => {
        const cpr = await openAmountCpr(wallet);
        expectRejectionCode(
          await wallet.derive({ cpr, context: deriveContext() }),
          ['AMOUNT_REQUIRED'],
          'an open-amount request without context.payer_amount',
        );
      },
    );

    check(
      'open-amount-malformed-payer-amount-never-paid',
      ['PRF-1-AMOUNT-FORMAT'],
      'amount omitted: a payer_amount that no reading makes an amount of profile 1 (negative, zero, a fraction, empty, not digits, beyond 2^256 - 1, a JSON number that is not a safe integer, not a string or number) never reaches the Payment',
      async () => {
        const malformed: unknown[] = [
          '-5',
          '0',
          '1.5',
          '100 ',
          ' 100',
          '0100',
          '+100',
          '',
          'ten',
          (2n ** 256n).toString(),
          1.5,
          2 ** 60,
          -5,
          true,
          { amount: '100' },
        ];
        await allCases(
          malformed,
          (v) => `payer_amount ${short(v)}`,
          async (v) => {
            const cpr = await openAmountCpr(wallet);
            const context = { ...deriveContext(), payer_amount: v };
            const r = await wallet.derive({ cpr, context } as DeriveInput);
            // any refusal will do: INVALID_REQUEST (an error of the harness request) or a 422 code;
            // a Payment of another, well-formed amount is judged by the open-amount checks (the
            // payer's amount must become the payment amount), not here
            if (r.ok) {
              const amount = member(member(r.payment, 'value'), 'amount');
              if (amount !== String(v) && isProfileAmount(amount)) return;
              fail(
                `an open-amount request with payer_amount ${short(v)} was paid (payment.value.amount ${short(amount)}); an amount is base-10 digits from 1 to 2^256 - 1`,
              );
            }
            // the refusal is a profile error body: a code and a message for a person (profile 1)
            if (
              r.error.code !== undefined &&
              (typeof r.error.message !== 'string' || r.error.message.trim() === '')
            )
              fail(
                `the refusal (${r.error.code}) of payer_amount ${short(v)} has no message for a person (profile 1: every error body carries one)`,
              );
          },
        );
      },
    );

    check(
      'amount-present-full-amount-paid-request-rejected',
      ['CPR-4.5-FULL-AMOUNT', 'CPR-4.5-NO-PARTIAL', 'CPR-7-AMOUNT-NOT-PAYABLE'],
      'amount present: the full amount is paid or the request rejected, whatever amount the payer offers',
      async () => {
        const base = await baseCpr(wallet);
        const full = String((base.value as JsonObject).amount);
        const less = (BigInt(full) - 1n).toString();
        const more = (BigInt(full) + 1n).toString();
        for (const offered of ['1', less, more]) {
          const cpr = structuredClone(base);
          cpr.request_id = randomUUID();
          const r = await wallet.derive({ cpr, context: deriveContext({ payer_amount: offered }) });
          if (!r.ok) continue; // rejecting is allowed (AMB-19)
          const amount = member(member(r.payment, 'value'), 'amount');
          assertThat(
            amount === full,
            `with payer_amount ${offered}, payment.value.amount is ${short(amount)}; the request's full amount is "${full}"`,
          );
        }
      },
    );
  });
});
