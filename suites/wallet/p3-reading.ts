/**
 * Profile sections 2 and 3 on how a wallet reads a document: a known enum value written in another
 * case (rail_hint is compared case-sensitively, so `sepa_ct` is an unrecognised hint read as OPEN;
 * `FIAT` is no asset type; `cpf` is a key type like any other and is kept as written); members of
 * `extensions` never stand for base or sub-interface fields (spec 9.3), at any depth or prefix;
 * and a document that completes no sub-interface, or two, in every way the fields can fail to
 * complete one (missing, only in `payee.rail_address`, only in `extensions`, empty, of the wrong
 * type, on-chain fields without `rail_hint: ON_CHAIN`, mixed sets) is refused with 422
 * INVALID_STRUCTURE.
 */

import { AssertionError } from 'node:assert';
import { randomUUID } from 'node:crypto';
import { ADDRESS_FIELDS, REQUIRED_FIELDS, type SubInterface } from '../../src/model/cpr.js';
import { validateCpr } from '../../src/validator/validate-cpr.js';
import {
  check,
  type DeriveResult,
  eachOverlapping,
  forEachWalletChannel,
  sharedState,
  skip,
} from '../_lib/index.js';
import {
  cprOfRail,
  cprOfSubInterface,
  deriveContext,
  describeResult,
  expectPayment,
  expectReadAsOpen,
  expectRejectionCode,
  fail,
  generationNow,
  HOUR,
  isoFromNow,
  type JsonObject,
  jsonEqual,
  member,
  payableRail,
  RAILS_OF_SUB_INTERFACE,
  type Rail,
  sharedPerChannel,
  short,
  supportedRails,
} from './_support/index.js';

// These checks judge the open-vocabulary derivations, built once per process (`cprc run
// --jobs` runs them in one process: suites/_lib sharedWork).
sharedState('wallet:open-vocabulary', [
  'open-vocabulary-value-kept-as-written-payee',
  'open-vocabulary-value-kept-as-written-conditions',
]);

// These checks judge the documents completing no sub-interface, built once per process (`cprc run
// --jobs` runs them in one process: suites/_lib sharedWork).
sharedState('wallet:no-sub-interface', [
  'document-completing-no-sub-interface-refused',
  'document-completing-no-sub-interface-refused-422-invalid-structure',
]);

/** One request of a table, and how a failure names it. */
interface Case {
  what: string;
  cpr: JsonObject;
  /** It completes two sub-interfaces (invalid by profile 2 only: the spec names no such rule). */
  two?: boolean;
}

/**
 * Runs `grade` on every case and fails listing every case that failed (transport errors and skips
 * end at once). The cases are independent: in a `--jobs` run they overlap (suites/_lib eachOverlapping).
 */
async function everyCase<T extends { what: string }>(
  cases: readonly T[],
  grade: (c: T) => Promise<void> | void,
) {
  const failures: string[] = [];
  await eachOverlapping(
    cases,
    async (c) => {
      try {
        await grade(c);
        return undefined;
      } catch (err) {
        if (!(err instanceof AssertionError)) throw err;
        return err;
      }
    },
    (err, c) => {
      if (err) failures.push(`${c.what}: ${err.message.split('\n')[0]}`);
    },
  );
  if (failures.length > 0) {
    const listed = failures.slice(0, 14);
    const more = failures.length > listed.length ? `\n- ... and ${failures.length - listed.length} more` : '';
    fail(`${failures.length} of ${cases.length} case(s) failed:\n- ${listed.join('\n- ')}${more}`);
  }
}

/** A copy of `doc` with `overrides` (`undefined` removes a member). */
function edited(doc: JsonObject, overrides: Record<string, unknown>): JsonObject {
  const copy = structuredClone(doc);
  copy.request_id = randomUUID();
  for (const [k, v] of Object.entries(overrides)) {
    if (v === undefined) delete copy[k];
    else copy[k] = v;
  }
  return copy;
}

/** The sub-interfaces OPEN can select, and the rail whose fixed request stands for each. */
const OPEN_SUBS: ReadonlyArray<[SubInterface, Rail]> = [
  ['iban', 'SEPA_CT'],
  ['account', 'ACH'],
  ['instant-key', 'PIX'],
];

/**
 * A fixed request of each sub-interface OPEN can select that the wallet may serve: with
 * `wallet.supported_rails`, the first listed rail of each served sub-interface; without it, one
 * per sub-interface (whether it is served is then learnt from the same request under OPEN).
 */
function requestsPerSubInterface(): { sub: SubInterface; cpr: JsonObject }[] {
  const declared = supportedRails();
  const out: { sub: SubInterface; cpr: JsonObject }[] = [];
  for (const [sub, rail] of OPEN_SUBS) {
    const served = declared ? RAILS_OF_SUB_INTERFACE[sub].find((r) => declared.includes(r)) : rail;
    if (served) out.push({ sub, cpr: cprOfRail(served) });
  }
  return out;
}

/** Names of base fields (spec 2.1-2.3) and of every sub-interface field (spec 2.5-2.8), with valid-looking values of their own. */
function planted(): JsonObject {
  return {
    cpr_version: 'CPR-2.0',
    request_id: randomUUID(),
    created_at: isoFromNow(-48 * HOUR),
    expires_at: isoFromNow(-24 * HOUR),
    memo: `planted memo ${randomUUID()}`,
    rail_hint: 'SWIFT',
    amount: '1',
    value: { amount: '1', asset: { type: 'fiat', code: 'USD' } },
    payee: { display_name: 'Mallory Ltd', rail_address: { iban: 'GB29NWBK60161331926819' } },
    iban: 'GB29NWBK60161331926819',
    bic: 'NWBKGB2L',
    beneficiary_name: 'Mallory Ltd',
    remittance_info: 'planted remittance',
    end_to_end_id: 'PLANTED1',
    purpose_code: 'SALA',
    account_number: '999999999999',
    routing_code: '011000015',
    routing_code_type: 'ABA',
    bank_name: 'Planted Bank',
    key_type: 'PHONE',
    key_value: '+5511999999999',
    txid: 'PLANTED2',
    chain_id: '137',
    receiver_address: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    domain_separator: `0x${'ab'.repeat(32)}`,
    order_reference: 'ffffffffffffffffffffffffffffffff',
    acquirer_id: '11111111-2222-4333-8444-555555555555',
    contract_address: '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
  };
}

/** The same members under a `foundation:` prefix (spec 9.5: the standards body's sub-interfaces). */
function prefixed(prefix: string, members: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(members).map(([k, v]) => [`${prefix}${k}`, v]));
}

/** The Payment without its id (fresh every time). */
function withoutId(payment: JsonObject): JsonObject {
  const { id: _id, ...rest } = payment;
  return rest;
}

// ---------------------------------------------------------------------------------------------
// Documents that complete no sub-interface, or two

/** A value of the wrong type for a string field. */
const WRONG_TYPES: ReadonlyArray<[string, (v: unknown) => unknown]> = [
  ['a number', () => 1234567890],
  ['an array', (v) => [v]],
  ['null', () => null],
];

/** Every way the fields of `sub`'s fixed request can fail to complete it (each document invalid). */
function incompleteCases(sub: SubInterface): Case[] {
  const base = cprOfSubInterface(sub);
  const hint = String(base.rail_hint);
  const required = REQUIRED_FIELDS[sub].filter((f) => f !== 'rail_hint');
  const cases: Case[] = [];
  const add = (what: string, overrides: Record<string, unknown>) =>
    cases.push({ what: `${hint} request ${what}`, cpr: edited(base, overrides) });
  for (const f of required) {
    const kept = ADDRESS_FIELDS[sub].includes(f) ? ' (payee.rail_address still carries it)' : '';
    add(`without ${f} at the top level${kept}`, { [f]: undefined });
    if (sub !== 'onchain') {
      for (const other of ['OPEN', undefined, 'FEDNOW'])
        add(`without ${f}, rail_hint ${other ?? 'absent'}`, { [f]: undefined, rail_hint: other });
    }
    add(`with ${f} only in extensions`, { [f]: undefined, extensions: { [f]: base[f] } });
    add(`with ${f} only in extensions as foundation:${f}`, {
      [f]: undefined,
      extensions: { [`foundation:${f}`]: base[f] },
    });
    add(`whose ${f} is an empty string`, { [f]: '' });
    for (const [what, value] of WRONG_TYPES) add(`whose ${f} is ${what}`, { [f]: value(base[f]) });
  }
  if (sub === 'onchain') {
    for (const other of [undefined, 'OPEN', 'FEDNOW'])
      add(`with its on-chain fields but rail_hint ${other ?? 'absent'}`, { rail_hint: other });
    add('with its on-chain fields and rail_hint ON_CHAIN only in extensions', {
      rail_hint: undefined,
      extensions: { rail_hint: 'ON_CHAIN' },
    });
    add('that also completes the IBAN set', {
      iban: 'DE89370400440532013000',
      beneficiary_name: 'Second Set GmbH',
    });
    (cases.at(-1) as Case).two = true;
  }
  return cases;
}

/** Mixed sets: fields of two sub-interfaces of which none is complete, or two are. */
function mixedCases(): Case[] {
  const iban = cprOfSubInterface('iban');
  const strip = { iban: undefined, bic: undefined, beneficiary_name: undefined, remittance_info: undefined };
  return [
    {
      what: 'OPEN request with iban but no beneficiary_name, and key_value but no key_type',
      cpr: edited(iban, {
        ...strip,
        rail_hint: 'OPEN',
        iban: 'DE89370400440532013000',
        key_value: 'shop@example.com',
      }),
    },
    {
      what: 'request without rail_hint with account_number and key_type, no beneficiary_name, no key_value',
      cpr: edited(iban, {
        ...strip,
        rail_hint: undefined,
        account_number: '000123456789',
        key_type: 'EMAIL',
      }),
    },
    {
      what: 'SEPA_CT request completing the account set instead of the IBAN set',
      cpr: edited(iban, { iban: undefined, bic: undefined, account_number: '000123456789' }),
    },
    {
      two: true,
      what: 'request with unrecognised rail_hint FEDNOW completing both the IBAN and instant-key sets',
      cpr: edited(iban, { rail_hint: 'FEDNOW', key_type: 'EMAIL', key_value: 'shop@example.com' }),
    },
    {
      what: 'PIX request with key_type only, completing the IBAN set',
      cpr: edited(cprOfSubInterface('instant-key'), {
        key_value: undefined,
        iban: 'DE89370400440532013000',
      }),
    },
  ];
}

/** Every invalid document of this section, checked invalid under the wallet reading (else a suite bug). */
function noSubInterfaceCases(): Case[] {
  const cases = [
    ...(['iban', 'account', 'instant-key', 'onchain'] as const).flatMap(incompleteCases),
    ...mixedCases(),
  ];
  for (const c of cases) {
    if (validateCpr(c.cpr, { mode: 'wallet', now: generationNow() }).valid)
      throw new Error(`suite defect: the ${c.what} is valid under the wallet reading`);
  }
  return cases;
}

describe('Profile 2 and 3: how a wallet reads a document', () => {
  forEachWalletChannel((wallet) => {
    check(
      'known-rail-hint-in-another-case-read-as-open',
      ['PRF-3-UNKNOWN-RAIL-HINT-AS-OPEN'],
      'a rail_hint that differs from one of the eight values only in case (sepa_ct, Swift, ach, Pix, open...) is unrecognised and read as OPEN: the request is paid when the wallet serves a rail of its sub-interface',
      async () => {
        const variants: Readonly<Record<string, readonly string[]>> = {
          iban: ['sepa_ct', 'Sepa_Inst', 'swift', 'open'],
          account: ['ach', 'Ach', 'Open'],
          'instant-key': ['pix', 'Upi', 'oPEN'],
        };
        const requests = requestsPerSubInterface();
        if (requests.length === 0)
          skip('wallet.supported_rails names no rail of the IBAN, account or instant-key sub-interfaces');
        const cases = requests.flatMap(({ sub, cpr }) =>
          (variants[sub] ?? []).map((hint) => ({
            what: `${sub} request with rail_hint ${hint}`,
            cpr: edited(cpr, { rail_hint: hint }),
          })),
        );
        await everyCase(cases, async (c) => {
          await expectReadAsOpen(
            wallet,
            c.cpr,
            await wallet.derive({ cpr: c.cpr, context: deriveContext() }),
          );
        });
      },
    );

    check(
      'on-chain-hint-in-another-case-completes-no-sub-interface',
      ['PRF-3-UNKNOWN-RAIL-HINT-AS-OPEN', 'PRF-2-WALLET-ONE-SUB-INTERFACE'],
      'an on-chain request whose rail_hint is ON_CHAIN in another case (on_chain, On_Chain) is read as OPEN, so it completes no sub-interface (on-chain fields need ON_CHAIN): refused with 422 INVALID_STRUCTURE',
      async () => {
        const base = cprOfSubInterface('onchain');
        await everyCase(
          ['on_chain', 'On_Chain', 'on_CHAIN'].map((hint) => ({
            what: `on-chain request with rail_hint ${hint}`,
            cpr: edited(base, { rail_hint: hint }),
          })),
          async (c) => {
            const r = await wallet.derive({ cpr: c.cpr, context: deriveContext() });
            if (r.ok)
              fail(
                'the wallet derived a payment: it read the hint as ON_CHAIN (profile 3 compares case-sensitively)',
              );
            expectRejectionCode(r, ['INVALID_STRUCTURE'], c.what);
          },
        );
      },
    );

    check(
      'asset-type-in-another-case-refused',
      ['CPR-2.3-ASSET-TYPE', 'CPR-4.4-PARSE-VALIDATE', 'CPR-INV-7-VALIDATES-BASE'],
      'an asset type written in another case (FIAT, Fiat, STABLECOIN) is none of fiat, stablecoin, crypto, tokenized: the request is refused',
      async () => {
        const cpr = cprOfRail(await payableRail(wallet));
        const asset = (cpr.value as JsonObject).asset as JsonObject;
        const upper = String(asset.type).toUpperCase();
        const title = `${String(asset.type).slice(0, 1).toUpperCase()}${String(asset.type).slice(1)}`;
        await everyCase(
          [upper, title].map((type) => ({
            what: `asset.type ${type}`,
            cpr: edited(cpr, { value: { ...(cpr.value as JsonObject), asset: { ...asset, type } } }),
          })),
          async (c) => {
            const r = await wallet.derive({ cpr: c.cpr, context: deriveContext() });
            if (r.ok)
              fail(
                `the wallet derived a payment (value.asset ${short(member(member(r.payment, 'value'), 'asset'))}); asset types are compared as written`,
              );
          },
        );
      },
    );

    check(
      'asset-type-in-another-case-refused-422-invalid-structure',
      ['PRF-3-DERIVE-ERROR-CODES'],
      'an asset type written in another case is refused with 422 INVALID_STRUCTURE',
      async () => {
        const cpr = cprOfRail(await payableRail(wallet));
        const asset = (cpr.value as JsonObject).asset as JsonObject;
        const type = String(asset.type).toUpperCase();
        expectRejectionCode(
          await wallet.derive({
            cpr: edited(cpr, { value: { ...(cpr.value as JsonObject), asset: { ...asset, type } } }),
            context: deriveContext(),
          }),
          ['INVALID_STRUCTURE'],
          `a request with asset.type ${type}`,
        );
      },
    );

    /** Open-vocabulary values in a case of their own: paid with the value as written, or refused. */
    const openVocabulary = () =>
      sharedPerChannel(wallet, 'open-vocabulary', async () => {
        const declared = supportedRails();
        const cases: Case[] = [];
        const pays = (sub: SubInterface) =>
          !declared || RAILS_OF_SUB_INTERFACE[sub].some((r) => declared.includes(r));
        if (pays('instant-key')) {
          const base = cprOfSubInterface('instant-key');
          for (const keyType of ['cpf', 'Email']) {
            const address = { ...((base.payee as JsonObject).rail_address as JsonObject), key_type: keyType };
            cases.push({
              what: `key_type ${keyType}`,
              cpr: edited(base, {
                key_type: keyType,
                payee: { ...(base.payee as JsonObject), rail_address: address },
              }),
            });
          }
        }
        if (pays('account')) {
          const base = cprOfSubInterface('account');
          for (const routing of ['aba', 'Sort_Code']) {
            const address = {
              ...((base.payee as JsonObject).rail_address as JsonObject),
              routing_code_type: routing,
            };
            cases.push({
              what: `routing_code_type ${routing}`,
              cpr: edited(base, {
                routing_code_type: routing,
                payee: { ...(base.payee as JsonObject), rail_address: address },
              }),
            });
          }
        }
        const out: { what: string; cpr: JsonObject; r: DeriveResult }[] = [];
        for (const c of cases)
          out.push({ ...c, r: await wallet.derive({ cpr: c.cpr, context: deriveContext() }) });
        return out;
      });

    check(
      'open-vocabulary-value-kept-as-written-payee',
      ['PRF-3-PAYMENT-PAYEE'],
      "a key_type or routing_code_type outside the spec's examples or in another case (cpf, Email, aba) is a value like any other: a Payment carries it in payee exactly as written (or the wallet refuses the request)",
      async () => {
        const answers = await openVocabulary();
        if (answers.length === 0) skip('wallet.supported_rails names no account or instant-key rail');
        await everyCase(answers, ({ cpr, r }) => {
          if (!r.ok) return; // a key type or routing scheme the wallet cannot serve may be refused
          for (const name of ['key_type', 'routing_code_type']) {
            if (cpr[name] === undefined) continue;
            const got = member(r.payment.payee, name);
            if (got !== cpr[name])
              fail(
                `payment.payee.${name} is ${short(got)}, the request's is ${short(cpr[name])} (kept as written)`,
              );
          }
        });
      },
    );

    check(
      'open-vocabulary-value-kept-as-written-conditions',
      ['CPR-2.10-INTENT-CONDITIONS', 'PRF-3-INTENT-CONDITIONS'],
      'a key_type or routing_code_type in a case of its own is repeated in intent.conditions, if at all, exactly as written',
      async () => {
        const answers = await openVocabulary();
        if (answers.length === 0) skip('wallet.supported_rails names no account or instant-key rail');
        await everyCase(answers, ({ cpr, r }) => {
          if (!r.ok) return;
          const conditions = member(r.payment.intent, 'conditions');
          for (const name of ['key_type', 'routing_code_type']) {
            const got = member(conditions, name);
            if (got !== undefined && got !== cpr[name])
              fail(
                `payment.intent.conditions.${name} is ${short(got)}, the request's is ${short(cpr[name])}`,
              );
          }
        });
      },
    );

    check(
      'extensions-named-like-fields-change-nothing',
      ['CPR-9-IGNORE-UNKNOWN-EXTENSIONS', 'PRF-3-EXTENSIONS-NEVER-FIELDS'],
      'members of extensions named like base or sub-interface fields (amount, iban, receiver_address, expires_at, rail_hint, memo, request_id, cpr_version..., bare, foundation:-prefixed or nested) stand for nothing: the Payment, the expiry, the version and the amount decisions are those of the request without them',
      async () => {
        const rail = await payableRail(wallet);
        const base = cprOfRail(rail, { memo: undefined });
        const fields = planted();
        const variants: JsonObject[] = [
          fields,
          prefixed('foundation:', fields),
          { 'com.example:order': { ...fields, 'org.acme:deeper': { ...fields } } },
        ];
        const same: Case[] = [];
        for (const [k, extensions] of variants.entries()) {
          const kind = ['bare', 'foundation:-prefixed', 'nested'][k];
          same.push({
            what: `a fixed-amount request with ${kind} field names in extensions`,
            cpr: edited(base, { extensions }),
          });
          const open = edited(base, { extensions });
          delete (open.value as JsonObject).amount;
          same.push({ what: `an open-amount request with ${kind} field names in extensions`, cpr: open });
        }
        await everyCase(same, async (c) => {
          const open = (c.cpr.value as JsonObject).amount === undefined;
          const ctx = deriveContext(open ? { payer_amount: '4242' } : {});
          const bare = structuredClone(c.cpr);
          delete bare.extensions;
          const withExt = await wallet.derive({ cpr: c.cpr, context: ctx });
          if (!withExt.ok)
            fail(
              `refused with its extensions (${describeResult(withExt)}) although the request is valid and payable`,
            );
          const plain = expectPayment(
            await wallet.derive({ cpr: bare, context: ctx }),
            'the same request without extensions',
          );
          if (!jsonEqual(withoutId(withExt.payment), withoutId(plain)))
            fail(
              `the payment changed with the extensions: ${short(withoutId(withExt.payment))} instead of ${short(withoutId(plain))}`,
            );
        });

        // decisions the extensions must not change: each of these requests is refused without its
        // extensions (where it is not, that wallet's fault is graded elsewhere: expiry, version,
        // amount, structure), so with them it is refused too, or at least not paid by what they say
        const iban = cprOfSubInterface('iban');
        const refused: Case[] = [
          {
            what: 'an expired request with a future expires_at in extensions',
            cpr: edited(base, {
              created_at: isoFromNow(-3 * HOUR),
              expires_at: isoFromNow(-HOUR),
              extensions: { expires_at: isoFromNow(HOUR), 'foundation:expires_at': isoFromNow(HOUR) },
            }),
          },
          {
            what: 'a CPR-2.0 request with cpr_version CPR-1.0 in extensions',
            cpr: edited(base, { cpr_version: 'CPR-2.0', extensions: { cpr_version: 'CPR-1.0' } }),
          },
          (() => {
            const open = edited(base, {
              extensions: { amount: '500', value: { amount: '500' }, 'foundation:amount': '500' },
            });
            delete (open.value as JsonObject).amount;
            return {
              what: "an open-amount request without the payer's amount, with an amount in extensions",
              cpr: open,
            };
          })(),
          {
            what: 'a SEPA_CT request whose iban and beneficiary_name are only in extensions',
            cpr: edited(iban, {
              iban: undefined,
              beneficiary_name: undefined,
              extensions: { iban: iban.iban, beneficiary_name: iban.beneficiary_name },
            }),
          },
        ];
        await everyCase(refused, async (c) => {
          const ctx = deriveContext();
          const r = await wallet.derive({ cpr: c.cpr, context: ctx });
          if (!r.ok) return;
          const bare = structuredClone(c.cpr);
          delete bare.extensions;
          const plain = await wallet.derive({ cpr: bare, context: ctx });
          if (!plain.ok)
            fail(
              `the wallet derived a payment (${short(withoutId(r.payment))}) and refuses the same request without its extensions (${describeResult(plain)}): it read a field from extensions`,
            );
          if (!jsonEqual(withoutId(r.payment), withoutId(plain.payment)))
            fail(
              `the payment changed with the extensions: ${short(withoutId(r.payment))} instead of ${short(withoutId(plain.payment))}`,
            );
        });
      },
    );

    const incomplete = () =>
      sharedPerChannel(wallet, 'no-sub-interface', async () => {
        const cases = noSubInterfaceCases();
        const answers = await eachOverlapping(cases, (c) =>
          wallet.derive({ cpr: c.cpr, context: deriveContext() }),
        );
        return cases.map((c, i) => ({ what: c.what, two: c.two, r: answers[i] as DeriveResult }));
      });

    check(
      'document-completing-no-sub-interface-refused',
      ['CPR-4.4-PARSE-VALIDATE', 'CPR-INV-7-VALIDATES-BASE'],
      'parse and validate the structure: a document that completes no sub-interface is refused in every way it can (a required field missing, only in payee.rail_address, only in extensions, empty or of the wrong type; on-chain fields without rail_hint ON_CHAIN; mixed sets), whatever its rail_hint',
      async () => {
        // a document completing two sub-interfaces is invalid by profile 2 only: graded below
        await everyCase(
          (await incomplete()).filter((c) => !c.two),
          ({ r }) => {
            if (r.ok) fail('the wallet derived a payment from an invalid document');
          },
        );
      },
    );

    check(
      'document-completing-no-sub-interface-refused-422-invalid-structure',
      ['PRF-2-WALLET-ONE-SUB-INTERFACE'],
      'a document that completes no sub-interface, or two, is refused with 422 INVALID_STRUCTURE in every way it can, whatever its rail_hint (profile 2)',
      async () => {
        await everyCase(await incomplete(), ({ what, r }) => {
          expectRejectionCode(r, ['INVALID_STRUCTURE'], `the ${what}`);
        });
      },
    );
  });
});
