/**
 * CPR-1.0 section 2.10 (derived Payment mapping) and section 3 rule 3, with the Payment shape
 * of profile section 3: properties over generated valid CPRs of every rail, one requirement per
 * check so a wrong member trips only its own requirement.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { CPR_RAILS, type CprRail } from '../../src/testing/arbitraries.js';
import { ALL_FIELDS, appliedSubInterface } from '../../src/validator/subinterface.js';
import { validateMessage } from '../../src/validator/validate-message.js';
import {
  assertProperty,
  assertThat,
  check,
  forEachWalletChannel,
  propertyOptions,
  skip,
  type WalletDriver,
} from '../_lib/index.js';
import {
  deriveCached,
  deriveContext,
  deriveContextFor,
  expectPayment,
  fail,
  ibanCpr,
  type JsonObject,
  jsonEqual,
  member,
  payableCprArbitrary,
  paymentOrUnsupported,
  RAILS_OF_SUB_INTERFACE,
  short,
  supportedRails,
} from './_wallet.js';

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** Rails the generator can produce a payable CPR for, given `wallet.supported_rails`. */
function payableRails(): CprRail[] {
  const supported = supportedRails();
  if (!supported) return [...CPR_RAILS];
  const subOk = (rails: readonly string[]) => rails.some((r) => supported.includes(r as never));
  return CPR_RAILS.filter((rail) => {
    if (rail === 'OPEN' || rail === 'NONE') {
      return (['iban', 'account', 'instant-key'] as const).some((s) => subOk(RAILS_OF_SUB_INTERFACE[s]));
    }
    if (rail === 'ON_CHAIN') return subOk(RAILS_OF_SUB_INTERFACE.onchain);
    if (rail === 'ACH') return subOk(RAILS_OF_SUB_INTERFACE.account);
    if (rail === 'PIX' || rail === 'UPI') return subOk(RAILS_OF_SUB_INTERFACE['instant-key']);
    return subOk(RAILS_OF_SUB_INTERFACE.iban);
  });
}

/**
 * Runs `assertion` on the payment derived from each generated payable CPR (a refusal the
 * config allows, UNSUPPORTED_RAIL for a rail it may not serve, is skipped for that sample).
 */
async function forEachPayment(
  wallet: WalletDriver,
  assertion: (payment: JsonObject, cpr: JsonObject, ctx: ReturnType<typeof deriveContext>) => void,
): Promise<void> {
  await assertProperty(
    fc.asyncProperty(payableCprArbitrary(), async (cpr) => {
      const ctx = deriveContextFor(cpr);
      const payment = paymentOrUnsupported(await deriveCached(wallet, cpr, ctx), cpr, 'the derivation');
      if (payment) assertion(payment, cpr, ctx);
    }),
  );
}

describe('CPR-1.0 section 2.10: derived Payment mapping', () => {
  forEachWalletChannel((wallet) => {
    check(
      'value-request-value-mapped-chosen-rail-amount',
      ['CPR-2.10-VALUE', 'CPR-INV-5-VALUE-INTEGRITY', 'CPR-4.4-VALUE-FROM-REQUEST'],
      'value: request.value mapped for the chosen rail, amount and asset preserved unmodified (generated CPRs of every rail, amounts beyond 2^53)',
      async () => {
        const rails = payableRails();
        if (rails.length === 0)
          skip('wallet.supported_rails leaves no rail the suite can generate a payable CPR for');
        // every run derives one CPR of each rail; the runs are shared out so the property makes
        // about --runs derivations in all
        const { numRuns } = propertyOptions();
        await assertProperty(
          fc.asyncProperty(fc.tuple(...rails.map((r) => payableCprArbitrary(r))), async (cprs) => {
            for (const cpr of cprs) {
              const r = await wallet.derive({ cpr, context: deriveContext() });
              const payment = paymentOrUnsupported(
                r,
                cpr,
                `the derivation (rail_hint ${String(cpr.rail_hint ?? 'absent')})`,
              );
              if (!payment) continue;
              const want = cpr.value as JsonObject;
              const got = member(payment, 'value');
              if (member(got, 'amount') !== want.amount) {
                fail(
                  `payment.value.amount is ${short(member(got, 'amount'))}, the request's amount is ${short(want.amount)} (it must be preserved character for character)`,
                );
              }
              if (!jsonEqual(member(got, 'asset'), want.asset)) {
                fail(
                  `payment.value.asset is ${short(member(got, 'asset'))}, the request's asset is ${short(want.asset)}`,
                );
              }
            }
          }),
          // shrinking a tuple of one CPR per rail takes too long to be worth it: the seed replays it
          { numRuns: Math.max(1, Math.ceil(numRuns / rails.length)), endOnFailure: true },
        );
      },
    );

    check(
      'intent-reference-request-memo-present',
      ['CPR-2.10-INTENT-REFERENCE', 'CPR-4.4-INTENT-FROM-MEMO'],
      'intent.reference: request.memo when present',
      async () => {
        const cpr = ibanCpr({ memo: 'Order 7781 \u2014 thank you' });
        const payment = expectPayment(
          await wallet.derive({ cpr, context: deriveContext() }),
          'the derivation',
        );
        const ref = member(member(payment, 'intent'), 'reference');
        assertThat(
          ref === cpr.memo,
          `payment.intent.reference is ${short(ref)}, expected the memo ${short(cpr.memo)}`,
        );
      },
    );

    check(
      'intent-reference-otherwise-request-request-id',
      ['CPR-2.10-INTENT-REFERENCE', 'CPR-4.4-INTENT-FROM-MEMO'],
      'intent.reference: otherwise request.request_id',
      async () => {
        const cpr = ibanCpr({ memo: undefined });
        const payment = expectPayment(
          await wallet.derive({ cpr, context: deriveContext() }),
          'the derivation',
        );
        const ref = member(member(payment, 'intent'), 'reference');
        assertThat(
          ref === cpr.request_id,
          `payment.intent.reference is ${short(ref)}, expected the request_id ${short(cpr.request_id)} (no memo)`,
        );
      },
    );

    check(
      'intent-reference-memo-request-id-generated-cprs',
      ['CPR-2.10-INTENT-REFERENCE', 'CPR-4.4-INTENT-FROM-MEMO'],
      'intent.reference is the memo or the request_id (generated CPRs)',
      async () => {
        await forEachPayment(wallet, (payment, cpr) => {
          const want = typeof cpr.memo === 'string' ? cpr.memo : cpr.request_id;
          const ref = member(member(payment, 'intent'), 'reference');
          if (ref !== want) fail(`payment.intent.reference is ${short(ref)}, expected ${short(want)}`);
        });
      },
    );

    check(
      'intent-conditions-derived-sub-interface-fields-member',
      ['CPR-2.10-INTENT-CONDITIONS'],
      'intent.conditions: derived from the sub-interface fields (every member named after a sub-interface field equals the request)',
      async () => {
        await forEachPayment(wallet, (payment, cpr) => {
          const conditions = member(member(payment, 'intent'), 'conditions');
          if (typeof conditions !== 'object' || conditions === null || Array.isArray(conditions)) {
            fail(`payment.intent.conditions must be an object, got ${short(conditions)}`);
          }
          const sub = appliedSubInterface(cpr);
          const fields = sub ? ALL_FIELDS[sub] : [];
          for (const name of fields) {
            const got = (conditions as JsonObject)[name];
            if (got !== undefined && !jsonEqual(got, cpr[name])) {
              fail(
                `payment.intent.conditions.${name} is ${short(got)}, the request's ${name} is ${short(cpr[name])}`,
              );
            }
          }
        });
      },
    );

    check(
      'state-created-payment-created-derivation-starts-state',
      ['CPR-2.10-STATE', 'CPR-3-PAYMENT-CREATED'],
      'state: CREATED (the Payment created by derivation starts in state CREATED)',
      async () => {
        await forEachPayment(wallet, (payment) => {
          if (payment.state !== 'CREATED')
            fail(`payment.state is ${short(payment.state)}, expected "CREATED"`);
        });
      },
    );

    check(
      'derivation-carries-state-cpr-payment-state-like',
      ['CPR-3-NO-STATE-CARRIED'],
      'derivation carries no state from the CPR to the Payment (state-like data planted in extensions)',
      async () => {
        const marker = randomUUID();
        const planted = (phase: string) => ({
          phase,
          confirmation_ref: `conf-${marker}`,
          settled_by: `Mallory ${marker}`,
        });
        const documents = [
          // names the validator does not recognise as state data: a wallet must ignore them (spec 9 rule 3)
          ibanCpr({
            extensions: {
              'com.example:payment_stage': 'SETTLED',
              'org.acme:lifecycle': planted('CONFIRMED'),
            },
          }),
          // names it does recognise (spec 3 rule 1, invariant 6): the wallet may refuse the request, never use them
          ibanCpr({
            extensions: { 'com.example:state': 'SETTLED', 'com.example:status': planted('AUTHORIZED') },
          }),
        ];
        let payments = 0;
        for (const cpr of documents) {
          const ctx = deriveContext();
          const r = await wallet.derive({ cpr, context: ctx });
          if (!r.ok) continue;
          payments += 1;
          const bare = structuredClone(cpr);
          delete bare.extensions;
          const plain = expectPayment(
            await wallet.derive({ cpr: bare, context: ctx }),
            'the derivation of the same request without the planted state',
          );
          assertThat(
            r.payment.state === plain.state,
            `payment.state is ${short(r.payment.state)} with state-like data ${short(cpr.extensions)} in the CPR, ${short(plain.state)} without it: the state came from the CPR`,
          );
          assertThat(
            !JSON.stringify(r.payment).includes(marker),
            `the payment carries state-like data planted in the CPR's extensions: ${short(r.payment)}`,
          );
        }
        if (payments === 0)
          skip(
            'the wallet refused both requests carrying state-like extensions, so no state could be compared',
          );
      },
    );

    check(
      'id-newly-generated-derivation-also-same-request',
      ['CPR-2.10-ID', 'CPR-4.4-SEVERAL-ATTEMPTS'],
      'id: newly generated for every derivation, also of the same request',
      async () => {
        const cpr = ibanCpr();
        const first = expectPayment(
          await wallet.derive({ cpr, context: deriveContext() }),
          'the first derivation',
        );
        const second = expectPayment(
          await wallet.derive({ cpr, context: deriveContext() }),
          'the second derivation of the same request',
        );
        assertThat(
          typeof first.id === 'string' && first.id !== '',
          `payment.id must be a non-empty identifier, got ${short(first.id)}`,
        );
        assertThat(
          first.id !== second.id,
          `two derivations of the same request gave the same payment id ${short(first.id)}`,
        );
        const seen = new Set<unknown>([first.id, second.id]);
        await forEachPayment(wallet, (payment) => {
          if (seen.has(payment.id))
            fail(`payment id ${short(payment.id)} was already given to an earlier payment`);
          seen.add(payment.id);
        });
      },
    );

    check('id-uuid-profile-3', ['PRF-3-PAYMENT-ID-UUID'], 'id is a UUID (profile 3)', async () => {
      const payment = expectPayment(
        await wallet.derive({ cpr: ibanCpr(), context: deriveContext() }),
        'the derivation',
      );
      assertThat(
        typeof payment.id === 'string' && UUID.test(payment.id),
        `payment.id is ${short(payment.id)}, not a UUID`,
      );
    });

    check(
      'request-id-bound-payment-s-context-traceability',
      ['CPR-2.10-REQUEST-ID-BOUND'],
      "the request_id is bound to the payment's context for traceability",
      async () => {
        await forEachPayment(wallet, (payment, cpr) => {
          const bound = member(member(payment, 'context'), 'request_id');
          if (bound !== cpr.request_id)
            fail(
              `payment.context.request_id is ${short(bound)}, expected the request's ${short(cpr.request_id)}`,
            );
        });
      },
    );

    check('payer-context-payer', ['CPR-2.10-PAYER'], 'payer: context.payer', async () => {
      await forEachPayment(wallet, (payment, _cpr, ctx) => {
        if (!jsonEqual(payment.payer, ctx.payer))
          fail(`payment.payer is ${short(payment.payer)}, expected context.payer ${short(ctx.payer)}`);
      });
    });

    check(
      'payer-resolved-application-s-own-user-nothing',
      ['CPR-4.4-PAYER-FROM-APPLICATION', 'CPR-2.9-CONTEXT-FROM-APPLICATION'],
      "the payer is resolved from the application's own user; nothing comes from the CPR (payer-looking data planted in extensions)",
      async () => {
        const marker = randomUUID();
        const planted = (kind: string) => ({
          id: `planted-${kind}-${marker}`,
          name: `Mallory ${marker}`,
          iban: 'GB29NWBK60161331926819',
        });
        const documents = [
          // names the validator does not recognise as payer data: a wallet must ignore them (spec 9 rule 3)
          ibanCpr({
            extensions: { 'com.example:buyer': planted('buyer'), 'org.acme:customer': planted('customer') },
          }),
          // names it does recognise (invariant 1): the wallet may refuse the request, never use them
          ibanCpr({
            extensions: {
              'com.example:payer': planted('payer'),
              'com.example:debtor_account': planted('debtor'),
            },
          }),
        ];
        let payments = 0;
        for (const cpr of documents) {
          const ctx = deriveContext();
          const r = await wallet.derive({ cpr, context: ctx });
          if (!r.ok) continue;
          payments += 1;
          const payer = r.payment.payer;
          assertThat(
            !JSON.stringify(payer ?? null).includes(marker),
            `payment.payer carries data planted in the CPR's extensions: ${short(payer)}`,
          );
          assertThat(
            jsonEqual(payer, ctx.payer),
            `payment.payer is ${short(payer)}, expected context.payer ${short(ctx.payer)}`,
          );
        }
        if (payments === 0)
          skip(
            'the wallet refused both requests carrying payer-looking extensions, so no payer could be compared',
          );
      },
    );

    check(
      'authorization-context-authorization',
      ['CPR-2.10-AUTHORIZATION', 'CPR-4.4-OWN-AUTHORIZATION'],
      'authorization: context.authorization',
      async () => {
        await forEachPayment(wallet, (payment, _cpr, ctx) => {
          if (!jsonEqual(payment.authorization, ctx.authorization)) {
            fail(
              `payment.authorization is ${short(payment.authorization)}, expected context.authorization ${short(ctx.authorization)}`,
            );
          }
        });
      },
    );

    check(
      'context-context-rail-executioncontext-chosen-paying-application',
      ['CPR-2.10-CONTEXT'],
      'context: context.rail (the ExecutionContext chosen by the paying application)',
      async () => {
        await forEachPayment(wallet, (payment, _cpr, ctx) => {
          const c = member(payment, 'context');
          if (!jsonEqual(member(c, 'rail'), ctx.rail) && !jsonEqual(c, ctx.rail)) {
            fail(
              `payment.context is ${short(c)}; it does not carry the ExecutionContext given ${short(ctx.rail)}`,
            );
          }
        });
      },
    );

    check(
      'context-rail-executioncontext-given-profile-3',
      ['PRF-3-PAYMENT-CONTEXT-RAIL'],
      'context.rail is the ExecutionContext given (profile 3)',
      async () => {
        const ctx = deriveContext();
        const payment = expectPayment(
          await wallet.derive({ cpr: ibanCpr(), context: ctx }),
          'the derivation',
        );
        const rail = member(member(payment, 'context'), 'rail');
        assertThat(
          jsonEqual(rail, ctx.rail),
          `payment.context.rail is ${short(rail)}, expected ${short(ctx.rail)}`,
        );
      },
    );

    check(
      'payee-resolved-request-payee',
      ['CPR-2.10-PAYEE'],
      'payee: resolved from request.payee',
      async () => {
        await forEachPayment(wallet, (payment, cpr) => {
          const want = cpr.payee as JsonObject;
          const got = member(payment, 'payee');
          if (!jsonEqual(member(got, 'rail_address'), want.rail_address)) {
            fail(
              `payment.payee.rail_address is ${short(member(got, 'rail_address'))}, the request's is ${short(want.rail_address)}`,
            );
          }
          if (want.display_name !== undefined && member(got, 'display_name') !== want.display_name) {
            fail(
              `payment.payee.display_name is ${short(member(got, 'display_name'))}, the request's is ${short(want.display_name)}`,
            );
          }
        });
      },
    );

    check(
      'payee-cpr-s-payee-descriptor-sub-interface',
      ['PRF-3-PAYMENT-PAYEE'],
      "payee is the CPR's payee descriptor with every sub-interface field of the CPR beside display_name and rail_address (profile 3)",
      async () => {
        await forEachPayment(wallet, (payment, cpr) => {
          const got = member(payment, 'payee');
          const sub = appliedSubInterface(cpr);
          for (const name of sub ? ALL_FIELDS[sub] : []) {
            if (cpr[name] !== undefined && !jsonEqual(member(got, name), cpr[name])) {
              fail(
                `payment.payee.${name} is ${short(member(got, name))}, the request's ${name} is ${short(cpr[name])}`,
              );
            }
          }
        });
      },
    );

    check(
      'payment-has-members-profile-3-id-payer',
      ['PRF-3-PAYMENT-SHAPE', 'PRF-3-HARNESS-MESSAGE-SCHEMA'],
      'the Payment has the members of profile 3: {id, payer, payee, value, intent, authorization, state, context: {rail, request_id}}',
      async () => {
        await forEachPayment(wallet, (payment) => {
          const verdict = validateMessage('harness/derive-response', { payment });
          const errors = verdict.findings.filter((f) => f.severity === 'error');
          if (errors.length > 0) {
            fail(
              `the payment does not have the profile shape: ${errors
                .slice(0, 3)
                .map((f) => `${f.path || '(root)'} ${f.message}`)
                .join('; ')}`,
            );
          }
        });
      },
    );
  });
});
