/**
 * CPR-1.0 section 4.4 (derivation operation), step 1 "parse and validate" and step 7
 * "assemble", with 4.3 rule 3 (validate cpr_version, request_id and expires_at before
 * processing) and invariant 7: generated valid requests yield a Payment; every single-defect
 * mutation of one is refused, with the profile's code.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { encodeInlineUri } from '../../src/codec/uri.js';
import { REQUIRED_FIELDS } from '../../src/model/cpr.js';
import { amountArbitrary, CPR_RAILS } from '../../src/testing/arbitraries.js';
import { CPR_MUTATIONS, type CprMutation } from '../../src/testing/mutations.js';
import { appliedSubInterface } from '../../src/validator/subinterface.js';
import { validateMessage } from '../../src/validator/validate-message.js';
import {
  check,
  type DeriveInput,
  type DeriveResult,
  eachOverlapping,
  forEachWalletChannel,
  perRun,
  propertyOptions,
  skip,
} from '../_lib/index.js';
import {
  allCases,
  baseCpr,
  deriveContext,
  describeResult,
  expectationOf,
  expectPayment,
  expectRejection,
  expectRejectionCode,
  fail,
  generationNow,
  type JsonObject,
  jsonEqual,
  payableCprArbitrary,
  paymentOrUnsupported,
  propertyPerRail,
  railCprArbitrary,
  short,
} from './_support/index.js';

/**
 * Mutations a wallet is not graded on: a non-UUID request_id (profile 1: a wallet accepts any
 * non-empty string; checked on its own), created_at after expires_at (AMB-14: a wallet checks only
 * that expires_at is in the future), and members named after payer or state data (profile 3: a
 * wallet may refuse such a CPR or derive it with the data ignored; checked in section 2.10).
 */
const NOT_GRADED_IN_WALLET = new Set([
  'request-id-not-uuid',
  'created-after-expires',
  'payer-data-top-level',
  'payer-data-in-extensions',
  'status-field',
  'authorization-in-extensions',
]);

/**
 * Mutations that break a rule beyond the document's structure: a code list (ISO 4217), a checksum
 * (IBAN, EIP-55), the BIC form, a 140-code-point length, the rail_address copy agreeing with the
 * top level. Profile 3 lets a wallet refuse such a document ("may refuse any document that breaks
 * a SPEC or PROFILE rule of section 2 (a bad IBAN checksum, disagreeing chain ids)") without
 * obliging it to: it is refused with 422 INVALID_STRUCTURE or derived with its value unmodified
 * (AMB-41). A wallet must refuse what breaks the structure (required members, types,
 * enumerations, the amount and timestamp formats), the version, the expiry and the sub-interface
 * (spec 4.3 rule 3, 4.4 step 1, profile 2).
 */
const REFUSAL_OPTIONAL = new Set([
  'fiat-code-not-iso4217',
  'receiver-address-bad-checksum',
  'iban-bad-checksum',
  'bic-malformed',
  'memo-too-long',
  'remittance-too-long-iban',
  'remittance-too-long-account',
  'rail-address-disagrees',
]);

/** The wallet-reading mutations graded here. */
const WALLET_MUTATIONS: readonly CprMutation[] = CPR_MUTATIONS.filter(
  (m) => m.modes.includes('wallet') && !NOT_GRADED_IN_WALLET.has(m.name) && !REFUSAL_OPTIONAL.has(m.name),
);

/** The wallet-reading mutations a wallet may refuse or derive (see {@link REFUSAL_OPTIONAL}). */
const OPTIONAL_MUTATIONS: readonly CprMutation[] = CPR_MUTATIONS.filter(
  (m) => m.modes.includes('wallet') && REFUSAL_OPTIONAL.has(m.name),
);

/** The profile 3 code(s) a wallet answers for a mutation. */
function codesFor(m: CprMutation): string[] {
  if (m.name === 'version-wrong') return ['INVALID_VERSION'];
  if (m.name === 'version-missing') return ['INVALID_VERSION', 'INVALID_STRUCTURE'];
  if (m.name === 'expired') return ['EXPIRED'];
  return ['INVALID_STRUCTURE'];
}

/** One defective request: a payable CPR with one mutation applied. */
interface MutatedRequest {
  /** The mutation's name. */
  mutation: string;
  /** The requirement the mutation breaks in the wallet reading. */
  requirement: string;
  /** The profile 3 code(s) the refusal may carry. */
  codes: string[];
  /** The mutated document. */
  cpr: JsonObject;
}

/** Mutations grouped by the requirement each breaks in the wallet reading, in order of first use. */
function byRequirement(mutations: readonly CprMutation[]): ReadonlyMap<string, readonly CprMutation[]> {
  const by = new Map<string, CprMutation[]>();
  for (const m of mutations) {
    const list = by.get(m.requirement.wallet) ?? [];
    list.push(m);
    by.set(m.requirement.wallet, list);
  }
  return by;
}

/** The requirement IDs the graded wallet-reading mutations break, each with its mutations. */
const MUTATIONS_BY_REQUIREMENT = byRequirement(WALLET_MUTATIONS);

/** Fewest requests a requirement's check derives (when the generated CPRs allow that many). */
const MIN_RUNS_PER_REQUIREMENT = 2;

/**
 * The defective requests of every requirement, generated once per run and shared by the
 * per-requirement checks and the error-code check (derivations are cached per channel, so each
 * request is derived once). One pool of payable CPRs (at least `runs`, from the run's seed) is
 * generated; each requirement gets about its share of `runs` (by its number of mutations, at
 * least {@link MIN_RUNS_PER_REQUIREMENT}), taken in pool order from the pairs (CPR, mutation)
 * whose mutation applies, the mutations of the requirement taken in turn.
 */
const mutatedRequests = requestPool(MUTATIONS_BY_REQUIREMENT, WALLET_MUTATIONS.length);

/** The requests breaking a rule a wallet may refuse or derive, made as {@link mutatedRequests} are. */
const optionalRequests = requestPool(byRequirement(OPTIONAL_MUTATIONS), OPTIONAL_MUTATIONS.length);

function requestPool(
  groups: ReadonlyMap<string, readonly CprMutation[]>,
  total: number,
): () => Map<string, MutatedRequest[]> {
  let made: Map<string, MutatedRequest[]> | undefined;
  perRun(() => {
    made = undefined;
  });
  return (): Map<string, MutatedRequest[]> => {
    if (made) return made;
    const { seed, numRuns } = propertyOptions();
    const pool = fc.sample(payableCprArbitrary(), { seed, numRuns: Math.max(numRuns, 120) });
    const now = generationNow();
    const out = new Map<string, MutatedRequest[]>();
    for (const [requirement, mutations] of groups) {
      const runs = Math.max(MIN_RUNS_PER_REQUIREMENT, Math.ceil((numRuns * mutations.length) / total));
      const picked: MutatedRequest[] = [];
      let turn = 0;
      for (const cpr of pool) {
        if (picked.length >= runs) break;
        for (let k = 0; k < mutations.length; k++) {
          const m = mutations[(turn + k) % mutations.length] as CprMutation;
          if (!m.applies(cpr)) continue;
          picked.push({ mutation: m.name, requirement, codes: codesFor(m), cpr: m.apply(cpr, now) });
          turn++;
          break;
        }
      }
      out.set(requirement, picked);
    }
    made = out;
    return out;
  };
}

/** The defective requests of one requirement; skips when no generated CPR admits its mutations. */
function requestsBreaking(requirement: string): MutatedRequest[] {
  const requests = mutatedRequests().get(requirement) ?? [];
  if (requests.length === 0) {
    const names = (MUTATIONS_BY_REQUIREMENT.get(requirement) ?? []).map((m) => m.name).join(', ');
    skip(
      `no generated CPR the wallet is expected to pay admits the mutation(s) ${names} (wallet.supported_rails)`,
    );
  }
  return requests;
}

/** The required top-level members of a CPR (spec 2.1). */
const TOP_LEVEL_REQUIRED = [
  'cpr_version',
  'request_id',
  'created_at',
  'expires_at',
  'payee',
  'value',
] as const;

/** Required nested members (spec 2.2, 2.3). */
const NESTED_REQUIRED: string[][] = [
  ['payee', 'rail_address'],
  ['value', 'asset'],
  ['value', 'asset', 'type'],
  ['value', 'asset', 'code'],
];

/** A deep copy of `doc` without the member at `path`. */
function withoutPath(doc: JsonObject, path: readonly string[]): JsonObject {
  const copy = structuredClone(doc);
  let at: JsonObject = copy;
  for (const key of path.slice(0, -1)) at = at[key] as JsonObject;
  delete at[path.at(-1) as string];
  return copy;
}

/** A deep copy of `doc` with the member at `path` set to `value`. */
function withPath(doc: JsonObject, path: readonly string[], value: unknown): JsonObject {
  const copy = structuredClone(doc);
  let at: JsonObject = copy;
  for (const key of path.slice(0, -1)) at = at[key] as JsonObject;
  at[path.at(-1) as string] = value;
  return copy;
}

/** Members of `base` given the wrong type or shape, one at a time. */
function wrongShapes(base: JsonObject): { what: string; cpr: JsonObject }[] {
  const sub = appliedSubInterface(base);
  const address = sub === null ? undefined : REQUIRED_FIELDS[sub].find((f) => f !== 'rail_hint');
  const cases: [string, string[], unknown][] = [
    ['request_id as a number', ['request_id'], 42],
    ['request_id as an empty string', ['request_id'], ''],
    ['request_id as an object', ['request_id'], { id: 'x' }],
    ['created_at as a number', ['created_at'], Math.floor(Date.now() / 1000) - 60],
    ['expires_at as a number', ['expires_at'], Math.floor(Date.now() / 1000) + 3600],
    ['expires_at as an empty string', ['expires_at'], ''],
    ['payee as an array', ['payee'], [base.payee]],
    [
      'payee.rail_address as a string',
      ['payee', 'rail_address'],
      JSON.stringify((base.payee as JsonObject).rail_address),
    ],
    ['payee.rail_address as an array', ['payee', 'rail_address'], [(base.payee as JsonObject).rail_address]],
    ['value as a string', ['value'], '100 EUR'],
    ['value as an array', ['value'], [base.value]],
    ['value.amount as an object', ['value', 'amount'], { digits: '100' }],
    ['value.amount as a boolean', ['value', 'amount'], true],
    ['value.asset as a string', ['value', 'asset'], 'EUR'],
    ['value.asset.code as a number', ['value', 'asset', 'code'], 978],
    ['value.asset.type as an array', ['value', 'asset', 'type'], ['fiat']],
    ['memo as a number', ['memo'], 42],
    ['memo as an object', ['memo'], { text: 'Invoice' }],
    ['extensions as a string', ['extensions'], 'loyalty'],
  ];
  if (address !== undefined) {
    cases.push(
      [`${address} as a number`, [address], 1234567890],
      [`${address} as an object`, [address], { value: base[address] }],
    );
  }
  return cases.map(([what, path, value]) => ({ what, cpr: withPath(base, path, value) }));
}

/** A harness request body sent as it is: text that is not JSON. */
class NotJson {
  constructor(readonly text: string) {}
}

/** The fields that complete each other sub-interface (valid values), added to a request to make it complete two. */
const SECOND_SET: Readonly<Record<'iban' | 'account' | 'instant-key', JsonObject>> = {
  iban: { iban: 'DE89370400440532013000', beneficiary_name: 'Second Set GmbH' },
  account: { account_number: '000123456789', beneficiary_name: 'Second Set Inc' },
  'instant-key': { key_type: 'EMAIL', key_value: 'second@example.com' },
};

describe('CPR-1.0 section 4.4: derivation operation', () => {
  forEachWalletChannel((wallet) => {
    check(
      'conformant-paying-application-performs-derivation-4-4',
      ['CPR-INV-7-DERIVATION', 'CPR-4.4-ASSEMBLE-PAYMENT', 'CPR-4.3-DIRECT-JSON'],
      'a conformant paying application performs derivation as in 4.4: every valid request it can pay yields a Payment',
      async () => {
        await propertyPerRail(
          CPR_RAILS,
          (rail) => fc.tuple(railCprArbitrary(rail), amountArbitrary()),
          async ([generated, payerAmount]) => {
            const cpr = structuredClone(generated);
            delete cpr.extensions; // unknown extensions have their own checks (section 9)
            if (expectationOf(cpr) === 'unsupported') return;
            const open = (cpr.value as JsonObject).amount === undefined;
            const context = deriveContext(open ? { payer_amount: payerAmount } : {});
            // a payment, or UNSUPPORTED_RAIL where the config allows it; anything else fails
            paymentOrUnsupported(await wallet.derive({ cpr, context }), cpr, 'the derivation');
          },
        );
      },
    );

    for (const requirement of MUTATIONS_BY_REQUIREMENT.keys()) {
      check(
        `wallet-rejects-cpr-breaks-single-${requirement}`,
        [requirement, 'CPR-4.4-PARSE-VALIDATE', 'CPR-INV-7-VALIDATES-BASE'],
        `the wallet rejects a CPR that breaks ${requirement} (single-defect mutations)`,
        async () => {
          const { seed } = propertyOptions();
          for (const { mutation, cpr } of requestsBreaking(requirement)) {
            const r = await wallet.derive({ cpr, context: deriveContext() });
            if (r.ok)
              fail(
                `the wallet derived a payment from a request with the defect "${mutation}" (breaks ${requirement}; seed ${seed}): ${short(cpr)}`,
              );
          }
        },
      );
    }

    check(
      'defective-request-refused-422-profile-code-invalid',
      ['PRF-3-DERIVE-ERROR-CODES'],
      'a defective request is refused with 422 and its profile code (INVALID_VERSION, EXPIRED, INVALID_STRUCTURE) and a message',
      async () => {
        const { seed } = propertyOptions();
        await eachOverlapping(
          [...mutatedRequests().values()].flat(),
          ({ cpr }) => wallet.derive({ cpr, context: deriveContext() }),
          (r, { mutation, codes }) =>
            expectRejectionCode(r, codes, `the request with the defect "${mutation}" (seed ${seed})`),
        );
      },
    );

    check(
      'rule-beyond-structure-refused-invalid-structure-or-derived',
      ['PRF-3-DERIVE-ERROR-CODES'],
      'a request breaking a rule beyond its structure (ISO 4217 code, IBAN or EIP-55 checksum, BIC, 140-code-point lengths, rail_address agreeing) is derived, or refused with 422 INVALID_STRUCTURE and a message',
      async () => {
        const { seed } = propertyOptions();
        await eachOverlapping(
          [...optionalRequests().values()].flat(),
          ({ cpr }) => wallet.derive({ cpr, context: deriveContext() }),
          (r, { mutation, cpr }) => {
            // a rail the wallet does not serve may also be refused as such (spec 4.4 step 2)
            const codes =
              expectationOf(cpr) === 'payment'
                ? ['INVALID_STRUCTURE']
                : ['INVALID_STRUCTURE', 'UNSUPPORTED_RAIL'];
            if (!r.ok)
              expectRejectionCode(r, codes, `the request with the defect "${mutation}" (seed ${seed})`);
          },
        );
      },
    );

    check(
      'rule-beyond-structure-derived-value-unmodified',
      ['CPR-INV-5-VALUE-INTEGRITY', 'CPR-2.10-VALUE'],
      'a request breaking a rule beyond its structure that the wallet derives keeps its amount and asset unmodified in the Payment (no code or amount repaired)',
      async () => {
        const { seed } = propertyOptions();
        await eachOverlapping(
          [...optionalRequests().values()].flat(),
          ({ cpr }) => wallet.derive({ cpr, context: deriveContext() }),
          (r, { mutation, cpr }) => {
            if (!r.ok) return; // refusing is allowed: graded by the check above
            const value = r.payment.value;
            if (!jsonEqual(value, cpr.value))
              fail(
                `the request with the defect "${mutation}" (seed ${seed}) was derived with value ${short(value)}, not the request's ${short(cpr.value)}`,
              );
          },
        );
      },
    );

    for (const [what, overrides] of [
      ['without request_id', { request_id: undefined }],
      ['whose request_id is not a string', { request_id: 42 }],
    ] as const) {
      check(
        `paying-application-validates-request-id-${what}`,
        ['CPR-4.3-VALIDATE-BEFORE-PROCESSING', 'CPR-4.4-PARSE-VALIDATE'],
        `the paying application validates request_id before processing: a request ${what} is refused`,
        async () => {
          expectRejection(
            await wallet.derive({ cpr: await baseCpr(wallet, overrides), context: deriveContext() }),
            `a request ${what}`,
          );
        },
      );
      check(
        `request-refused-422-invalid-structure-${what}`,
        ['PRF-3-DERIVE-ERROR-CODES'],
        `a request ${what} is refused with 422 INVALID_STRUCTURE`,
        async () => {
          const r = await wallet.derive({ cpr: await baseCpr(wallet, overrides), context: deriveContext() });
          expectRejectionCode(r, ['INVALID_STRUCTURE'], `a request ${what}`);
        },
      );
    }

    check(
      'wallet-accepts-any-non-empty-string-request-id',
      ['PRF-1-WALLET-ANY-REQUEST-ID'],
      'a wallet accepts any non-empty string request_id (a non-UUID one is derived)',
      async () => {
        const ids = [
          'order-42',
          'x',
          `INV/2026/${randomUUID().slice(0, 8)}`,
          '\u00e9t\u00e9-\u{1F4B6}-1',
          'a'.repeat(200),
        ];
        await allCases(
          ids,
          (id) => `request_id ${short(id)}`,
          async (id) => {
            const cpr = await baseCpr(wallet, { request_id: id });
            expectPayment(
              await wallet.derive({ cpr, context: deriveContext() }),
              `the request whose request_id is ${short(id)}`,
            );
          },
        );
      },
    );

    check(
      'wallet-accepts-blank-display-name',
      ['PRF-2-DISPLAY-NAME-NOT-BLANK'],
      'a wallet accepts a payee.display_name that is empty or only white space (ASCII or Unicode), as a CPR object and as an inline URI (profile 2: only a payee must not emit it)',
      async () => {
        const names = ['', ' ', '   ', '\t', '\n', ' \r\n\t ', '\u00a0', '\u2003', '\u3000', '\u2028'];
        const cases = names.flatMap((name) => [
          { name, inline: false },
          { name, inline: true },
        ]);
        await allCases(
          cases,
          (c) =>
            `display_name ${JSON.stringify(c.name)} ${c.inline ? 'in an inline URI' : 'in the CPR object'}`,
          async (c) => {
            const base = await baseCpr(wallet);
            const cpr = { ...base, payee: { ...(base.payee as JsonObject), display_name: c.name } };
            const body = c.inline ? { uri: encodeInlineUri(cpr) } : { cpr };
            expectPayment(
              await wallet.derive({ ...body, context: deriveContext() }),
              `the request whose payee.display_name is ${JSON.stringify(c.name)}${c.inline ? ' (inline URI)' : ''}`,
            );
          },
        );
      },
    );

    check(
      'every-required-member-omitted-one-at-a-time-refused',
      ['CPR-2.1-REQUIRED-FIELDS', 'CPR-4.4-PARSE-VALIDATE', 'CPR-INV-7-VALIDATES-BASE'],
      'parse and validate the structure: a request missing any one required member (cpr_version, request_id, created_at, expires_at, payee, value) is refused',
      async () => {
        const base = await baseCpr(wallet);
        await allCases(
          TOP_LEVEL_REQUIRED,
          (m) => `without ${m}`,
          async (m) => {
            expectRejection(
              await wallet.derive({ cpr: withoutPath(base, [m]), context: deriveContext() }),
              `a request without ${m}`,
            );
          },
        );
      },
    );

    check(
      'payee-rail-address-asset-members-omitted-one-at-a-time-refused',
      [
        'CPR-2.2-RAIL-ADDRESS',
        'CPR-2.3-ASSET-REQUIRED',
        'CPR-4.4-PARSE-VALIDATE',
        'CPR-INV-7-VALIDATES-BASE',
      ],
      'parse and validate the structure: a request missing payee.rail_address, value.asset, asset.type or asset.code is refused',
      async () => {
        const base = await baseCpr(wallet);
        await allCases(
          NESTED_REQUIRED,
          (path) => `without ${path.join('.')}`,
          async (path) => {
            expectRejection(
              await wallet.derive({ cpr: withoutPath(base, path), context: deriveContext() }),
              `a request without ${path.join('.')}`,
            );
          },
        );
      },
    );

    check(
      'sub-interface-required-fields-omitted-one-at-a-time-refused',
      ['CPR-4.4-PARSE-VALIDATE', 'CPR-INV-7-VALIDATES-BASE'],
      'parse and validate the structure: a request missing any one required field of its sub-interface is refused',
      async () => {
        const base = await baseCpr(wallet);
        const sub =
          appliedSubInterface(base) ??
          fail(`the suite's base request ${short(base)} applies no sub-interface`);
        const fields = REQUIRED_FIELDS[sub].filter((f) => f !== 'rail_hint');
        await allCases(
          fields,
          (f) => `without ${f}`,
          async (f) => {
            expectRejection(
              await wallet.derive({ cpr: withoutPath(base, [f]), context: deriveContext() }),
              `a ${sub} request without ${f}`,
            );
          },
        );
      },
    );

    check(
      'required-member-omitted-refused-422-invalid-structure',
      ['PRF-3-DERIVE-ERROR-CODES'],
      'a request missing a required member is refused with 422 INVALID_STRUCTURE (INVALID_VERSION also for cpr_version)',
      async () => {
        const base = await baseCpr(wallet);
        const sub = appliedSubInterface(base);
        const paths: string[][] = [
          ...TOP_LEVEL_REQUIRED.map((m) => [m]),
          ...NESTED_REQUIRED,
          ...(sub ? REQUIRED_FIELDS[sub].filter((f) => f !== 'rail_hint').map((f) => [f]) : []),
        ];
        await allCases(
          paths,
          (path) => `without ${path.join('.')}`,
          async (path) => {
            const r = await wallet.derive({ cpr: withoutPath(base, path), context: deriveContext() });
            const codes =
              path[0] === 'cpr_version' ? ['INVALID_VERSION', 'INVALID_STRUCTURE'] : ['INVALID_STRUCTURE'];
            expectRejectionCode(r, codes, `a request without ${path.join('.')}`);
          },
        );
      },
    );

    check(
      'member-wrong-type-or-shape-refused',
      ['CPR-2.1-FIELD-TYPES', 'CPR-4.4-PARSE-VALIDATE', 'CPR-INV-7-VALIDATES-BASE'],
      'parse and validate the structure: a request with any one member of the wrong type or shape (a number for a string, a string for an object, an array for an object...) is refused',
      async () => {
        const base = await baseCpr(wallet);
        await allCases(
          wrongShapes(base),
          (w) => w.what,
          async (w) => {
            expectRejection(
              await wallet.derive({ cpr: w.cpr, context: deriveContext() }),
              `a request with ${w.what}`,
            );
          },
        );
      },
    );

    check(
      'member-wrong-type-or-shape-refused-422-invalid-structure',
      ['PRF-3-DERIVE-ERROR-CODES'],
      'a request with a member of the wrong type or shape is refused with 422 INVALID_STRUCTURE',
      async () => {
        const base = await baseCpr(wallet);
        await allCases(
          wrongShapes(base),
          (w) => w.what,
          async (w) => {
            const r = await wallet.derive({ cpr: w.cpr, context: deriveContext() });
            expectRejectionCode(r, ['INVALID_STRUCTURE'], `a request with ${w.what}`);
          },
        );
      },
    );

    check(
      'document-completing-two-sub-interfaces-refused-422-invalid-structure',
      ['PRF-2-WALLET-ONE-SUB-INTERFACE'],
      'a document completing two sub-interfaces is refused with 422 INVALID_STRUCTURE whatever its rail_hint',
      async () => {
        const base = await baseCpr(wallet);
        const sub = appliedSubInterface(base);
        const others = (['iban', 'account', 'instant-key'] as const).filter((s) => s !== sub);
        const cases: { what: string; cpr: JsonObject }[] = others.map((other) => ({
          what: `a ${String(base.rail_hint)} request that also completes the ${other} set`,
          cpr: { ...structuredClone(base), ...SECOND_SET[other] },
        }));
        if (sub !== 'onchain') {
          const other = others[0] as (typeof others)[number];
          cases.push({
            what: `a request with rail_hint OPEN that completes the ${sub} and ${other} sets`,
            cpr: { ...structuredClone(base), rail_hint: 'OPEN', ...SECOND_SET[other] },
          });
        }
        await allCases(
          cases,
          (c) => c.what,
          async (c) => {
            const r = await wallet.derive({ cpr: c.cpr, context: deriveContext() });
            if (r.ok)
              fail(`the wallet derived a payment from ${c.what}; such a document is invalid (profile 2)`);
            expectRejectionCode(r, ['INVALID_STRUCTURE'], c.what);
          },
        );
      },
    );

    check(
      'harness-request-error-invalid-request-400',
      ['PRF-3-HARNESS-REQUEST-ERROR'],
      'an error in the harness request itself (a body that is not JSON or not an object, a context or a cpr/uri of the wrong shape) is INVALID_REQUEST (HTTP 400; the same code on stdio) with a non-empty message',
      async () => {
        const cpr = await baseCpr(wallet);
        const ctx = deriveContext();
        const { payer, rail, authorization } = ctx;
        const cases: [string, unknown][] = [
          ['no context', { cpr }],
          ['a context that is a string', { cpr, context: 'payer=1' }],
          ['a context that is null', { cpr, context: null }],
          ['a context that is an array', { cpr, context: [payer, rail, authorization] }],
          ['a context without payer', { cpr, context: { rail, authorization } }],
          ['a context without rail', { cpr, context: { payer, authorization } }],
          ['a context without authorization', { cpr, context: { payer, rail } }],
          ['neither cpr nor uri', { context: ctx }],
          ['both cpr and uri', { cpr, uri: encodeInlineUri(cpr), context: ctx }],
          ['a cpr that is a string', { cpr: JSON.stringify(cpr), context: ctx }],
          ['a cpr that is an array', { cpr: [cpr], context: ctx }],
          ['a cpr that is a number', { cpr: 42, context: ctx }],
          ['a uri that is a number', { uri: 42, context: ctx }],
          ['a uri that is an object', { uri: { href: encodeInlineUri(cpr) }, context: ctx }],
          ['a body that is JSON null', null],
          ['a body that is an array', [{ cpr, context: ctx }]],
          ['a body that is a string', JSON.stringify({ cpr, context: ctx })],
          ['a body that is a number', 42],
        ];
        // bodies that are not JSON at all (one line each: the stdio form reads one request per line)
        const notJson: [string, string][] = [
          ['a body that is not JSON (truncated)', JSON.stringify({ cpr, context: ctx }).slice(0, 40)],
          ['a body that is not JSON (single quotes)', "{'cpr': {}, 'context': {}}"],
          ['a body that is not JSON (a form)', 'cpr=1&context=2'],
        ];
        const send = (body: unknown): Promise<DeriveResult> =>
          body instanceof NotJson
            ? (wallet.deriveText?.(body.text) ??
              skip('the driver cannot send a body that is not JSON (custom binding)'))
            : wallet.derive(body as DeriveInput);
        await allCases(
          [...cases, ...notJson.map(([what, text]): [string, unknown] => [what, new NotJson(text)])],
          ([what]) => what,
          async ([what, body]) => {
            const r = await send(body);
            if (r.ok) fail(`the wallet derived a payment from a harness request with ${what}`);
            if (r.error.code === undefined && r.error.body === undefined)
              skip('the driver reports no error code (custom binding); PROFILE check not applicable');
            if (r.error.code !== 'INVALID_REQUEST')
              fail(`a harness request with ${what}: expected INVALID_REQUEST, got ${describeResult(r)}`);
            if (r.error.status !== undefined && r.error.status !== 400)
              fail(
                `a harness request with ${what}: expected HTTP 400 with INVALID_REQUEST, got HTTP ${r.error.status}`,
              );
            if (typeof r.error.message !== 'string' || r.error.message.trim() === '')
              fail(
                `a harness request with ${what}: the INVALID_REQUEST error has no message for a person (profile 1: every error body carries one)`,
              );
          },
        );
      },
    );

    const malformed: [string, Record<string, unknown>][] = [
      ['without payee', { payee: undefined }],
      ['without value', { value: undefined }],
      ['whose value has no asset', { value: { amount: '100' } }],
      ['whose payee is a string', { payee: 'Conformance Shop' }],
    ];
    for (const [what, overrides] of malformed) {
      check(
        `parse-validate-structure-request-refused-${what}`,
        ['CPR-4.4-PARSE-VALIDATE', 'CPR-INV-7-VALIDATES-BASE'],
        `parse and validate the structure: a request ${what} is refused`,
        async () => {
          expectRejection(
            await wallet.derive({ cpr: await baseCpr(wallet, overrides), context: deriveContext() }),
            `a request ${what}`,
          );
        },
      );
    }
    check(
      'malformed-request-refused-422-invalid-structure',
      ['PRF-3-DERIVE-ERROR-CODES'],
      'a malformed request is refused with 422 INVALID_STRUCTURE',
      async () => {
        for (const [what, overrides] of malformed) {
          const r = await wallet.derive({ cpr: await baseCpr(wallet, overrides), context: deriveContext() });
          expectRejectionCode(r, ['INVALID_STRUCTURE'], `a request ${what}`);
        }
      },
    );

    check(
      'refusal-answer-has-profile-shape-error-code',
      ['PRF-3-HARNESS-MESSAGE-SCHEMA'],
      'a refusal answer has the profile shape {error: {code, message}} on the wire',
      async () => {
        const r = await wallet.derive({
          cpr: await baseCpr(wallet, { value: undefined }),
          context: deriveContext(),
        });
        const err = expectRejection(r, 'a request without value');
        if (err.body === undefined)
          skip('the driver reports no answer body (custom binding); PROFILE check not applicable');
        const verdict = validateMessage('harness/derive-error', err.body);
        const errors = verdict.findings.filter((f) => f.severity === 'error');
        if (errors.length > 0) {
          fail(
            `the refusal ${short(err.body)} does not have the profile shape: ${errors
              .slice(0, 3)
              .map((f) => `${f.path || '(root)'} ${f.message}`)
              .join('; ')}`,
          );
        }
      },
    );
  });
});
