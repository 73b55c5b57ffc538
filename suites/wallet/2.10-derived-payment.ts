/**
 * CPR-1.0 section 2.10 (derived Payment mapping) and section 3 rule 3, with the Payment shape
 * of profile section 3: properties over generated valid CPRs of every rail, one requirement per
 * check so a wrong member trips only its own requirement.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { ALL_FIELDS } from '../../src/model/cpr.js';
import { appliedSubInterface } from '../../src/validator/subinterface.js';
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
  allCases,
  baseCpr,
  cprOfRail,
  deriveContext,
  expectPayment,
  expectRejectionCode,
  fail,
  type JsonObject,
  jsonEqual,
  member,
  payableCprArbitrary,
  payableRail,
  payableRails,
  paymentOrUnsupported,
  runsPerRail,
  short,
} from './_support/index.js';

/** The value an absent acquirer_id stands for (profile 3: written or not). */
const ZERO_UUID = '00000000-0000-0000-0000-000000000000';

/** Amounts beyond 2^53 that every rail must carry digit for digit (INV-5, profile 1). */
const BIG_AMOUNTS = [2n ** 53n + 1n, 2n ** 64n + 3n, 2n ** 128n + 17n, 2n ** 256n - 1n].map(String);

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/**
 * Runs `assertion` on the payment derived from generated payable CPRs, one property per rail
 * (so a failing rail never hides another: every failing rail is reported). Each run derives its
 * CPR afresh, with a fresh context: nothing one run did survives into another or into shrinking.
 * A refusal the config allows (UNSUPPORTED_RAIL for a rail the wallet may not serve) skips that run.
 */
async function forEachPayment(
  wallet: WalletDriver,
  assertion: (payment: JsonObject, cpr: JsonObject, ctx: ReturnType<typeof deriveContext>) => void,
): Promise<void> {
  const rails = payableRails();
  if (rails.length === 0)
    skip('wallet.supported_rails leaves no rail the suite can generate a payable CPR for');
  const numRuns = runsPerRail(rails);
  await allCases(
    rails,
    (rail) => `rail ${rail === 'NONE' ? 'absent' : rail}`,
    async (rail) => {
      await assertProperty(
        fc.asyncProperty(payableCprArbitrary(rail), async (cpr) => {
          const ctx = deriveContext();
          const payment = paymentOrUnsupported(
            await wallet.derive({ cpr, context: ctx }),
            cpr,
            'the derivation',
          );
          if (payment) assertion(payment, cpr, ctx);
        }),
        { numRuns, overlap: true },
      );
    },
  );
}

/**
 * Like {@link forEachPayment}, deriving each generated request twice (two contexts) and handing
 * both payments to `assertion`.
 */
async function forEachPaymentPair(
  wallet: WalletDriver,
  assertion: (a: JsonObject, b: JsonObject) => void,
): Promise<void> {
  const rails = payableRails();
  if (rails.length === 0)
    skip('wallet.supported_rails leaves no rail the suite can generate a payable CPR for');
  const numRuns = Math.max(2, Math.ceil(runsPerRail(rails) / 2));
  await allCases(
    rails,
    (rail) => `rail ${rail === 'NONE' ? 'absent' : rail}`,
    async (rail) => {
      await assertProperty(
        fc.asyncProperty(payableCprArbitrary(rail), async (cpr) => {
          const a = paymentOrUnsupported(
            await wallet.derive({ cpr, context: deriveContext() }),
            cpr,
            'the first derivation',
          );
          if (!a) return;
          const b = expectPayment(
            await wallet.derive({ cpr, context: deriveContext() }),
            'the second derivation of the same request',
          );
          assertion(a, b);
        }),
        { numRuns, overlap: true },
      );
    },
  );
}

describe('CPR-1.0 section 2.10: derived Payment mapping', () => {
  forEachWalletChannel((wallet) => {
    check(
      'value-request-value-mapped-chosen-rail-amount',
      ['CPR-2.10-VALUE', 'CPR-INV-5-VALUE-INTEGRITY', 'CPR-4.4-VALUE-FROM-REQUEST'],
      'value: request.value mapped for the chosen rail, amount and asset preserved unmodified (every rail: amounts beyond 2^53 up to 2^256 - 1, and generated CPRs)',
      async () => {
        const rails = payableRails();
        if (rails.length === 0)
          skip('wallet.supported_rails leaves no rail the suite can generate a payable CPR for');
        const { seed } = propertyOptions();
        const compare = (payment: JsonObject, cpr: JsonObject): void => {
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
        };
        await allCases(
          rails,
          (rail) => `rail ${rail === 'NONE' ? 'absent' : rail}`,
          async (rail) => {
            // value integrity beyond 2^53 through the live wallet, on this rail
            const [sample] = fc.sample(payableCprArbitrary(rail), { seed, numRuns: 1 });
            if (sample) {
              for (const amount of BIG_AMOUNTS) {
                const cpr = structuredClone(sample);
                cpr.request_id = randomUUID();
                (cpr.value as JsonObject).amount = amount;
                const payment = paymentOrUnsupported(
                  await wallet.derive({ cpr, context: deriveContext() }),
                  cpr,
                  `the derivation of amount ${amount}`,
                );
                if (!payment) break; // this rail is not served (allowed without a declared list)
                compare(payment, cpr);
              }
            }
            await assertProperty(
              fc.asyncProperty(payableCprArbitrary(rail), async (cpr) => {
                const payment = paymentOrUnsupported(
                  await wallet.derive({ cpr, context: deriveContext() }),
                  cpr,
                  'the derivation',
                );
                if (payment) compare(payment, cpr);
              }),
              { numRuns: runsPerRail(rails), overlap: true },
            );
          },
        );
      },
    );

    check(
      'intent-reference-request-memo-present',
      ['CPR-2.10-INTENT-REFERENCE', 'CPR-4.4-INTENT-FROM-MEMO'],
      'intent.reference: request.memo when present',
      async () => {
        const cpr = await baseCpr(wallet, { memo: 'Order 7781 \u2014 thank you' });
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
        const cpr = await baseCpr(wallet, { memo: undefined });
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
      ['CPR-2.10-INTENT-CONDITIONS', 'PRF-3-INTENT-CONDITIONS'],
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
            if (got === undefined) continue; // which fields it repeats is the wallet's choice (profile 3)
            // profile 3: an absent acquirer_id equals the zero UUID, written or not
            const want = name === 'acquirer_id' && cpr[name] === undefined ? ZERO_UUID : cpr[name];
            if (!jsonEqual(got, want)) {
              fail(
                `payment.intent.conditions.${name} is ${short(got)}, the request's ${name} is ${cpr[name] === undefined ? `absent (which stands for ${short(want)})` : short(want)}`,
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
          await baseCpr(wallet, {
            extensions: {
              'com.example:payment_stage': 'SETTLED',
              'org.acme:lifecycle': planted('CONFIRMED'),
            },
          }),
          // names it does recognise (spec 3 rule 1, invariant 6): the wallet may refuse the request, never use them
          await baseCpr(wallet, {
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
        const cpr = await baseCpr(wallet);
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
        const earlier = new Set<unknown>([first.id, second.id]);
        // every run derives its request twice: two payments, two ids, none of the two above
        // (fixed before the property: nothing a run adds survives into another run or into shrinking)
        await forEachPaymentPair(wallet, (a, b) => {
          if (typeof a.id !== 'string' || a.id === '')
            fail(`payment.id must be a non-empty identifier, got ${short(a.id)}`);
          if (a.id === b.id)
            fail(`two derivations of the same request gave the same payment id ${short(a.id)}`);
          for (const p of [a, b]) {
            if (earlier.has(p.id)) fail(`payment id ${short(p.id)} was already given to an earlier payment`);
          }
        });
      },
    );

    check('id-uuid-profile-3', ['PRF-3-PAYMENT-ID-UUID'], 'id is a UUID (profile 3)', async () => {
      const payment = expectPayment(
        await wallet.derive({ cpr: await baseCpr(wallet), context: deriveContext() }),
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
          await baseCpr(wallet, {
            extensions: { 'com.example:buyer': planted('buyer'), 'org.acme:customer': planted('customer') },
          }),
          // names it does recognise (invariant 1): the wallet may refuse the request, never use them
          await baseCpr(wallet, {
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
          await wallet.derive({ cpr: await baseCpr(wallet), context: ctx }),
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

    check(
      'context-rail-opaque-copied-never-refused',
      ['PRF-3-CONTEXT-RAIL-OPAQUE'],
      'context.rail is opaque: whatever members it holds, the wallet derives the payment and copies it unchanged',
      async () => {
        const fixed: JsonObject[] = [
          {},
          { execution_id: `exec-${randomUUID()}`, nested: { deep: [1, 'two', null, { three: true }] } },
          { 'x-vendor:session': { id: randomUUID(), ttl: 30 }, channel: 'mobile', flags: [] },
          { note: '\u00e9\u{1F4B6} \u202e', amount_hint: '999', list: [{}, []] },
        ];
        const opaque = fc.dictionary(
          fc.string({ minLength: 1, maxLength: 12 }).map((k) => `x_${k}`),
          fc.jsonValue({ maxDepth: 2 }),
          { maxKeys: 4 },
        );
        const rail = await payableRail(wallet);
        const derive = async (execution: JsonObject): Promise<void> => {
          const ctx = deriveContext({ rail: execution });
          const r = await wallet.derive({ cpr: cprOfRail(rail), context: ctx });
          const payment = expectPayment(r, `the derivation under context.rail ${short(execution)}`);
          const got = member(member(payment, 'context'), 'rail');
          if (!jsonEqual(got, execution))
            fail(`payment.context.rail is ${short(got)}, the ExecutionContext given is ${short(execution)}`);
        };
        await allCases(fixed, (e) => `context.rail ${short(e)}`, derive);
        await assertProperty(
          fc.asyncProperty(opaque, async (execution) => derive(execution as JsonObject)),
          { numRuns: Math.min(propertyOptions().numRuns, 25), overlap: true },
        );
      },
    );

    /** Payer, authorization and state data planted in a CPR, each with a unique marker. */
    const plantedData = (
      marker: string,
    ): {
      kind: 'payer' | 'authorization' | 'state';
      what: string;
      overrides: (cpr: JsonObject) => JsonObject;
    }[] => {
      const ext = (cpr: JsonObject, add: JsonObject): JsonObject => ({
        extensions: { ...((cpr.extensions as JsonObject | undefined) ?? {}), ...add },
      });
      // inside the CPR's own objects (payee, payee.rail_address, value), which a wallet copies from
      const inPayee = (cpr: JsonObject, add: JsonObject): JsonObject => ({
        payee: { ...(cpr.payee as JsonObject), ...add },
      });
      const inAddress = (cpr: JsonObject, add: JsonObject): JsonObject => {
        const payee = cpr.payee as JsonObject;
        return { payee: { ...payee, rail_address: { ...(payee.rail_address as JsonObject), ...add } } };
      };
      const inValue = (cpr: JsonObject, add: JsonObject): JsonObject => ({
        value: { ...(cpr.value as JsonObject), ...add },
      });
      return [
        {
          kind: 'payer',
          what: 'a payee.payer_ref',
          overrides: (c) => inPayee(c, { payer_ref: `ref-${marker}` }),
        },
        {
          kind: 'payer',
          what: 'a payee.rail_address.debtor_name',
          overrides: (c) => inAddress(c, { debtor_name: `Mallory ${marker}` }),
        },
        {
          kind: 'payer',
          what: 'a value.payer',
          overrides: (c) => inValue(c, { payer: { id: `payer-${marker}` } }),
        },
        {
          kind: 'payer',
          what: 'a payer_email in an array inside payee',
          overrides: (c) => inPayee(c, { contacts: [{ payer_email: `${marker}@example.org` }] }),
        },
        {
          kind: 'authorization',
          what: 'a payee.authorization',
          overrides: (c) => inPayee(c, { authorization: `auth-${marker}` }),
        },
        {
          kind: 'authorization',
          what: 'a payee.rail_address.mandate_id',
          overrides: (c) => inAddress(c, { mandate_id: `mandate-${marker}` }),
        },
        {
          kind: 'authorization',
          what: 'a value.permit',
          overrides: (c) => inValue(c, { permit: `permit-${marker}` }),
        },
        { kind: 'state', what: 'a payee.status', overrides: (c) => inPayee(c, { status: `PAID-${marker}` }) },
        {
          kind: 'state',
          what: 'a payee.rail_address.settlement_ref',
          overrides: (c) => inAddress(c, { settlement_ref: `settled-${marker}` }),
        },
        {
          kind: 'state',
          what: 'a value.state',
          overrides: (c) => inValue(c, { state: `SETTLED-${marker}` }),
        },
        {
          kind: 'payer',
          what: 'a top-level payer',
          overrides: () => ({ payer: { id: `payer-${marker}`, name: `Mallory ${marker}` } }),
        },
        {
          kind: 'payer',
          what: 'a payer_id extension',
          overrides: (c) => ext(c, { 'com.example:payer_id': `payer-${marker}` }),
        },
        {
          kind: 'payer',
          what: 'a debtor account extension',
          overrides: (c) =>
            ext(c, { 'org.acme:debtorAccount': { iban: 'GB29NWBK60161331926819', ref: marker } }),
        },
        {
          kind: 'payer',
          what: 'a payer nested in an extension',
          overrides: (c) => ext(c, { 'com.example:order': { payer: { id: `payer-${marker}` } } }),
        },
        {
          kind: 'authorization',
          what: 'a top-level signature',
          overrides: () => ({ signature: `sig-${marker}` }),
        },
        {
          kind: 'authorization',
          what: 'an authorization extension',
          overrides: (c) => ext(c, { 'foundation:auth': { authorization: `auth-${marker}` } }),
        },
        {
          kind: 'authorization',
          what: 'a signed_tx extension',
          overrides: (c) => ext(c, { 'com.example:signed_tx': `0x${marker.replace(/-/g, '')}` }),
        },
        {
          kind: 'authorization',
          what: 'a mandate extension',
          overrides: (c) => ext(c, { 'org.acme:mandate_ref': `mandate-${marker}` }),
        },
        {
          kind: 'authorization',
          what: 'a top-level rail (the ExecutionContext of spec 2.9)',
          overrides: () => ({ rail: { execution_id: `exec-${marker}` } }),
        },
        { kind: 'state', what: 'a top-level status', overrides: () => ({ status: `PAID-${marker}` }) },
        {
          kind: 'state',
          what: 'a state extension',
          overrides: (c) => ext(c, { 'com.example:state': `SETTLED-${marker}` }),
        },
        {
          kind: 'state',
          what: 'a settlement extension',
          overrides: (c) => ext(c, { 'com.example:settlement_date': `2026-01-01-${marker}` }),
        },
        {
          kind: 'state',
          what: 'an execution_date extension',
          overrides: (c) => ext(c, { 'com.example:execution_date': `2026-01-02-${marker}` }),
        },
        // the readings of profile 2: the name and every tail after a `:`, `/` or `.`, each
        // case-insensitive with `_`, `-`, `.` and white space removed
        {
          kind: 'payer',
          what: 'an "acme:payer.email" member (a payer tail between two separators)',
          overrides: (c) =>
            ext(c, { 'com.example:checkout': { 'acme:payer.email': `${marker}@example.org` } }),
        },
        {
          kind: 'payer',
          what: 'a "Checkout Data/payer_ref" member (a slashed prefix with white space)',
          overrides: (c) =>
            ext(c, { 'com.example:checkout': { 'Checkout Data/payer_ref': `ref-${marker}` } }),
        },
        {
          kind: 'payer',
          what: 'a "com.example.Payer-Email" extension (a dotted prefix)',
          overrides: (c) => ext(c, { 'com.example.Payer-Email': `${marker}@example.org` }),
        },
        {
          kind: 'payer',
          what: 'a "x/y.z:PAYER\u00a0ID.v2" member three levels down (several separators, a no-break space)',
          overrides: (c) =>
            ext(c, { 'com.example:a': { b: [{ 'x/y.z:PAYER\u00a0ID.v2': `id-${marker}` }] } }),
        },
        {
          kind: 'authorization',
          what: 'an "org.acme/Mandate.Ref" member (slashed and dotted)',
          overrides: (c) => ext(c, { 'com.example:sepa': { 'org.acme/Mandate.Ref': `mandate-${marker}` } }),
        },
        {
          kind: 'state',
          what: 'a "com.example.status" extension (a dotted prefix)',
          overrides: (c) => ext(c, { 'com.example.status': `PAID-${marker}` }),
        },
        {
          kind: 'state',
          what: 'an "acme:Settlement.Date." member (a trailing separator)',
          overrides: (c) =>
            ext(c, { 'com.example:checkout': { 'acme:Settlement.Date.': `2026-01-03-${marker}` } }),
        },
        {
          kind: 'state',
          what: 'an "Order/State " member (trailing white space)',
          overrides: (c) => ext(c, { 'com.example:checkout': { 'Order/State ': `SETTLED-${marker}` } }),
        },
      ];
    };

    check(
      'payer-authorization-state-data-refused-422-or-ignored',
      ['PRF-3-PAYER-DATA-REFUSED-OR-IGNORED'],
      'a CPR carrying payer, authorization or state data is refused with 422 INVALID_STRUCTURE or derived with the data ignored',
      async () => {
        const marker = randomUUID();
        const rail = await payableRail(wallet);
        await allCases(
          plantedData(marker),
          (p) => p.what,
          async (p) => {
            const base = cprOfRail(rail);
            const cpr = { ...base, ...p.overrides(base) };
            const r = await wallet.derive({ cpr, context: deriveContext() });
            if (r.ok) return; // derived: whether the data reached the payment is graded by the SPEC checks
            expectRejectionCode(r, ['INVALID_STRUCTURE'], `the request carrying ${p.what}`);
          },
        );
      },
    );

    for (const [kind, ids] of [
      ['payer', ['CPR-4.4-PAYER-FROM-APPLICATION', 'CPR-2.9-CONTEXT-FROM-APPLICATION']],
      ['authorization', ['CPR-4.4-OWN-AUTHORIZATION', 'CPR-2.9-CONTEXT-FROM-APPLICATION']],
      ['state', ['CPR-3-NO-STATE-CARRIED']],
    ] as const) {
      check(
        `${kind}-data-in-cpr-never-reaches-payment`,
        [...ids],
        `${kind} data carried by a CPR (top level, payee, payee.rail_address, value, nested objects and arrays, extensions) never reaches the Payment: the wallet refuses the CPR or ignores the data`,
        async () => {
          const marker = randomUUID();
          const rail = await payableRail(wallet);
          let derived = 0;
          await allCases(
            plantedData(marker).filter((p) => p.kind === kind),
            (p) => p.what,
            async (p) => {
              const base = cprOfRail(rail);
              const cpr = { ...base, ...p.overrides(base) };
              const r = await wallet.derive({ cpr, context: deriveContext() });
              if (!r.ok) return; // refusing is allowed (profile 3)
              derived += 1;
              if (JSON.stringify(r.payment).includes(marker)) {
                fail(`the payment carries ${kind} data planted in the CPR (${p.what}): ${short(r.payment)}`);
              }
            },
          );
          if (derived === 0)
            skip(
              `the wallet refused every CPR carrying ${kind} data (allowed: profile 3), so none reached a payment`,
            );
        },
      );
    }
  });
});
