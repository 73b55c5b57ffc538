/**
 * Shared helpers of the wallet suite (not a suite: it registers no check). Derivation contexts,
 * fixed and generated CPRs, what the suite may expect of a CPR given `wallet.supported_rails`,
 * and the SPEC / PROFILE assertions on derivation answers (profile section 3).
 * @packageDocumentation
 */

import { AssertionError } from 'node:assert';
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { isRail, RAIL_HINTS, type SubInterface } from '../../../src/model/cpr.js';
import { isObject } from '../../../src/model/util.js';
import {
  amountArbitrary,
  CPR_RAILS,
  type CprRail,
  cprArbitrary,
  type JsonObject,
} from '../../../src/testing/arbitraries.js';
import { appliedSubInterface } from '../../../src/validator/subinterface.js';
import { validateCpr } from '../../../src/validator/validate-cpr.js';
import {
  assertProperty,
  context,
  type DeriveContext,
  type DeriveResult,
  PropertyOutOfTime,
  perRun,
  propertyOptions,
  sharedWork,
  skip,
  type WalletDriver,
} from '../../_lib/index.js';

export type { JsonObject };

/** One hour in milliseconds. */
export const HOUR = 3_600_000;

/** The executable rails (spec 2.4 without OPEN). */
export const RAILS = RAIL_HINTS.filter((r) => r !== 'OPEN');

/** An executable rail. */
export type Rail = (typeof RAILS)[number];

/** The rails each sub-interface serves (profile section 2). */
export const RAILS_OF_SUB_INTERFACE: Readonly<Record<SubInterface, readonly Rail[]>> = {
  onchain: ['ON_CHAIN'],
  iban: ['SEPA_CT', 'SEPA_INST', 'SWIFT'],
  account: ['ACH'],
  'instant-key': ['PIX', 'UPI'],
};

/** The three codes a derivation may be refused with for a defect of the document (profile 3). */
export const DERIVE_ERROR_CODES = [
  'EXPIRED',
  'INVALID_VERSION',
  'INVALID_STRUCTURE',
  'UNSUPPORTED_RAIL',
  'AMOUNT_REQUIRED',
  'TOKEN_REJECTED',
] as const;

/**
 * A fresh DerivationContext (spec 2.9): the payer, the ExecutionContext and the authorization
 * are the paying application's own, each carrying a unique marker so a check can tell them
 * apart from anything in the CPR. The ExecutionContext names no rail (the profile leaves its
 * members open), so the wallet selects the rail (spec 4.4 step 2).
 */
export function deriveContext(
  extra: Partial<DeriveContext> = {},
  marker: string = randomUUID(),
): DeriveContext {
  return {
    payer: { id: `payer-${marker}`, display_name: 'Conformance Payer', kind: 'natural_person' },
    rail: { execution_id: `exec-${marker}`, channel: 'cpr-conformance' },
    authorization: { type: 'conformance-test', proof: `auth-${marker}` },
    ...extra,
  };
}

let generationInstant: Date | undefined;
perRun(() => {
  generationInstant = undefined;
});

/**
 * The instant generated CPRs are valid at: fixed for the run (taken at first use), so every
 * property with the same seed generates the same requests. Generated CPRs stay valid for at
 * least an hour after it.
 */
export function generationNow(): Date {
  generationInstant ??= new Date();
  return generationInstant;
}

/** An RFC 3339 instant with `Z`, `offsetMs` from now, without milliseconds. */
export function isoFromNow(offsetMs: number): string {
  return new Date(Math.floor((Date.now() + offsetMs) / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/**
 * A fixed valid CPR (SEPA Credit Transfer, IBAN sub-interface, spec 2.6) valid for one more
 * hour, with a fresh request_id; `overrides` replace or add top-level members (`undefined`
 * removes one).
 */
export function ibanCpr(overrides: Record<string, unknown> = {}): JsonObject {
  const base: JsonObject = {
    cpr_version: 'CPR-1.0',
    request_id: randomUUID(),
    created_at: isoFromNow(-HOUR),
    expires_at: isoFromNow(HOUR),
    payee: {
      display_name: 'Conformance Shop',
      rail_address: { iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' },
    },
    value: { amount: '12500', asset: { type: 'fiat', code: 'EUR' } },
    memo: 'Invoice 2026-0042',
    rail_hint: 'SEPA_CT',
    iban: 'DE89370400440532013000',
    bic: 'COBADEFFXXX',
    beneficiary_name: 'Conformance Shop GmbH',
    remittance_info: 'INV-2026-0042',
  };
  for (const [k, v] of Object.entries(overrides)) {
    if (v === undefined) delete base[k];
    else base[k] = v;
  }
  return base;
}

/** A fixed valid CPR of the instant-key sub-interface (spec 2.8) for `rail` (PIX or UPI). */
export function instantKeyCpr(rail: 'PIX' | 'UPI', overrides: Record<string, unknown> = {}): JsonObject {
  const key =
    rail === 'PIX'
      ? { key_type: 'EMAIL', key_value: 'caixa@example.com.br' }
      : { key_type: 'UPI_ID', key_value: 'shop@upi' };
  return ibanCpr({
    payee: { display_name: 'Conformance Loja', rail_address: key },
    value: { amount: '990', asset: { type: 'fiat', code: rail === 'PIX' ? 'BRL' : 'INR' } },
    rail_hint: rail,
    iban: undefined,
    bic: undefined,
    remittance_info: undefined,
    beneficiary_name: 'Conformance Loja Ltda',
    ...key,
    ...overrides,
  });
}

/** A fixed valid CPR of the given sub-interface (every one is valid under the wallet reading). */
export function cprOfSubInterface(sub: SubInterface): JsonObject {
  switch (sub) {
    case 'iban':
      return ibanCpr();
    case 'instant-key':
      return instantKeyCpr('PIX');
    case 'account':
      return ibanCpr({
        payee: {
          display_name: 'Conformance Store',
          rail_address: {
            account_number: '000123456789',
            routing_code: '021000021',
            routing_code_type: 'ABA',
          },
        },
        value: { amount: '4999', asset: { type: 'fiat', code: 'USD' } },
        rail_hint: 'ACH',
        iban: undefined,
        bic: undefined,
        account_number: '000123456789',
        routing_code: '021000021',
        routing_code_type: 'ABA',
      });
    case 'onchain':
      return ibanCpr({
        payee: {
          display_name: 'Conformance DAO',
          rail_address: { receiver_address: '0x52908400098527886E0F7030069857D2E4169EE7', chain_id: '1' },
        },
        value: { amount: '1000000', asset: { type: 'stablecoin', code: 'USDC', chain_id: 'eip155:1' } },
        rail_hint: 'ON_CHAIN',
        iban: undefined,
        bic: undefined,
        beneficiary_name: undefined,
        remittance_info: undefined,
        chain_id: '1',
        receiver_address: '0x52908400098527886E0F7030069857D2E4169EE7',
      });
  }
}

/** A fixed valid CPR hinting `rail` (one per rail, every one valid under every rule of profile 2). */
export function cprOfRail(rail: Rail, overrides: Record<string, unknown> = {}): JsonObject {
  let doc: JsonObject;
  switch (rail) {
    case 'PIX':
    case 'UPI':
      doc = instantKeyCpr(rail);
      break;
    case 'ACH':
      doc = cprOfSubInterface('account');
      break;
    case 'ON_CHAIN':
      doc = cprOfSubInterface('onchain');
      break;
    default:
      doc = ibanCpr({ rail_hint: rail });
  }
  for (const [k, v] of Object.entries(overrides)) {
    if (v === undefined) delete doc[k];
    else doc[k] = v;
  }
  return doc;
}

/** The order in which the suite looks for a rail the wallet pays (the reference's first). */
const PROBE_ORDER: readonly Rail[] = ['SEPA_CT', 'PIX', 'ACH', 'ON_CHAIN', 'UPI', 'SEPA_INST', 'SWIFT'];

/** What a wallet answered to the plain fixed request of a rail, per channel (a probe, not property state). */
let probes = new WeakMap<WalletDriver, Map<Rail, Promise<'payment' | 'unsupported' | 'other'>>>();
perRun(() => {
  probes = new WeakMap();
});

async function probe(wallet: WalletDriver, rail: Rail): Promise<'payment' | 'unsupported' | 'other'> {
  let byRail = probes.get(wallet);
  if (!byRail) {
    byRail = new Map();
    probes.set(wallet, byRail);
  }
  let answer = byRail.get(rail);
  if (!answer) {
    answer = wallet
      .derive({ cpr: cprOfRail(rail), context: deriveContext() })
      .then((r) => (r.ok ? 'payment' : r.error.code === 'UNSUPPORTED_RAIL' ? 'unsupported' : 'other'));
    byRail.set(rail, answer);
    // a transport failure is no answer: ask again next time
    answer.catch(() => byRail?.delete(rail));
  }
  return answer;
}

/**
 * A rail the wallet pays, for the checks built on one fixed request: with
 * `wallet.supported_rails`, the first of {@link PROBE_ORDER} it lists; without it (profile 3: a
 * wallet may serve any rails without saying which), the first the wallet answers with a Payment
 * (a refusal other than UNSUPPORTED_RAIL also picks the rail, so the check grades that refusal).
 * Skips the check when the wallet refuses every rail with UNSUPPORTED_RAIL.
 */
export async function payableRail(wallet: WalletDriver, exclude: readonly Rail[] = []): Promise<Rail> {
  const order = PROBE_ORDER.filter((r) => !exclude.includes(r));
  const declared = supportedRails();
  if (declared) {
    return (
      order.find((r) => declared.includes(r)) ??
      skip(`wallet.supported_rails (${declared.join(', ')}) names none of ${order.join(', ')}`)
    );
  }
  for (const rail of order) {
    if ((await probe(wallet, rail)) !== 'unsupported') return rail;
  }
  return skip(`the wallet refused the requests of every rail (${order.join(', ')}) with UNSUPPORTED_RAIL`);
}

/**
 * A fixed valid request of a rail the wallet pays ({@link payableRail}), with `overrides`
 * (`undefined` removes a member), and the rail it hints.
 */
export async function baseCpr(
  wallet: WalletDriver,
  overrides: Record<string, unknown> = {},
  exclude: readonly Rail[] = [],
): Promise<JsonObject> {
  return cprOfRail(await payableRail(wallet, exclude), overrides);
}

/**
 * Runs every one of `cases` and fails with all the failures together (one failing case never
 * hides the others); a transport error or a skip ends at once, as usual.
 */
export async function allCases<T>(
  cases: readonly T[],
  name: (c: T) => string,
  run: (c: T) => Promise<void>,
): Promise<void> {
  const failures: string[] = [];
  // cases left without a verdict because earlier ones spent the check's time shrinking
  const outOfTime: PropertyOutOfTime[] = [];
  for (const c of cases) {
    try {
      await run(c);
    } catch (err) {
      if (err instanceof PropertyOutOfTime) {
        outOfTime.push(err);
        continue;
      }
      if (!(err instanceof AssertionError)) throw err;
      failures.push(`${name(c)}: ${err.message}`);
    }
  }
  if (failures.length > 0) {
    const unjudged = outOfTime.length > 0 ? ` (${outOfTime.length} more had no time left to run)` : '';
    fail(
      `${failures.length} of ${cases.length} case(s) failed${unjudged}:\n- ${failures.map((f) => f.split('\n')[0]).join('\n- ')}`,
    );
  }
  if (outOfTime[0]) throw outOfTime[0];
}

/**
 * The result of `build` for this channel and `key`, built once per run by the first check that
 * asks (its exchanges are that check's evidence) and shared by the others: e.g. the derivations
 * of a matrix of requests that several checks each grade for one requirement. A build that fails
 * (a transport error, a skip) is not kept: the next check builds afresh. Every check that asks
 * declares `wallet:<key>` (`sharedState`), so that `cprc run --jobs` runs them in one process
 * ({@link sharedWork}).
 */
export function sharedPerChannel<T>(wallet: WalletDriver, key: string, build: () => Promise<T>): Promise<T> {
  return sharedWork(`wallet:${key}`, build, wallet.channel);
}

/** Runs per rail so that all rails together make about `--runs` runs (at least 3 each). */
export function runsPerRail(rails: readonly unknown[]): number {
  return Math.max(3, Math.ceil(propertyOptions().numRuns / Math.max(1, rails.length)));
}

/**
 * One property per rail (a failing rail never hides another: every failing rail is reported):
 * `predicate` runs on values of `arbitrary(rail)`, about `--runs` runs over all rails.
 */
export async function propertyPerRail<T>(
  rails: readonly CprRail[],
  arbitrary: (rail: CprRail) => fc.Arbitrary<T>,
  predicate: (value: T, rail: CprRail) => Promise<void>,
): Promise<void> {
  if (rails.length === 0) skip('wallet.supported_rails leaves no rail the suite can generate a request for');
  const numRuns = runsPerRail(rails);
  await allCases(
    rails,
    (rail) => `rail ${rail === 'NONE' ? 'absent' : rail}`,
    async (rail) => {
      await assertProperty(
        fc.asyncProperty(arbitrary(rail), (value) => predicate(value, rail)),
        // every run derives requests of its own
        { numRuns, overlap: true },
      );
    },
  );
}

/** `wallet.supported_rails` of the config, or undefined when the config gives no list. */
export function supportedRails(): readonly Rail[] | undefined {
  const list = context().config.wallet?.supported_rails;
  if (!list) return undefined;
  return list.filter((r): r is Rail => r !== 'OPEN');
}

/**
 * What the suite may expect of a valid CPR given `wallet.supported_rails` (spec 4.4 step 2,
 * 4.5; AMB-13, AMB-17): `payment` when the hinted rail (or, with OPEN or no hint, some rail of
 * its sub-interface) is supported; `unsupported` when no rail of its sub-interface is; `either`
 * when only the hinted rail is unsupported (the wallet may refuse or pay by another rail) or
 * when the config gives no list.
 */
export function expectationOf(cpr: JsonObject): 'payment' | 'unsupported' | 'either' {
  const supported = supportedRails();
  const sub = walletSubInterface(cpr);
  if (!supported || sub === null) return 'either';
  const candidates = RAILS_OF_SUB_INTERFACE[sub];
  if (!candidates.some((r) => supported.includes(r))) return 'unsupported';
  // only a known rail the wallet does not serve may be refused (spec 4.4 step 2); an unrecognised
  // hint is read as OPEN (profile 3), so a served rail of the sub-interface means a Payment
  const hint = cpr.rail_hint;
  if (isRail(hint) && !supported.includes(hint)) return 'either';
  return 'payment';
}

/**
 * True when `hint` is a string outside the eight values of spec 2.4, compared case-sensitively
 * (`sepa_ct` is unrecognised): profile 3 reads such a hint as OPEN.
 */
export function isUnrecognisedHint(hint: unknown): hint is string {
  return typeof hint === 'string' && !(RAIL_HINTS as readonly string[]).includes(hint);
}

/**
 * The sub-interface that applies to `cpr` in the wallet reading (profile 2 and 3): the one its
 * rail_hint names, or with OPEN, no hint or an unrecognised hint (read as OPEN) the single one its
 * fields complete (on-chain needs rail_hint ON_CHAIN); null when none or two apply.
 */
export function walletSubInterface(cpr: JsonObject): SubInterface | null {
  return appliedSubInterface(isUnrecognisedHint(cpr.rail_hint) ? { ...cpr, rail_hint: 'OPEN' } : cpr);
}

/**
 * Profile 3: an unrecognised rail_hint is read as OPEN, so `cpr` (whose hint is unrecognised) must
 * be paid when the wallet serves a rail of its sub-interface: the config says so, or the same
 * request under OPEN is paid. UNSUPPORTED_RAIL (with a message) is correct only otherwise; any
 * other answer is an error over the hint.
 */
export async function expectReadAsOpen(
  wallet: WalletDriver,
  cpr: JsonObject,
  r: DeriveResult,
): Promise<void> {
  if (r.ok) return;
  const hint = JSON.stringify(cpr.rail_hint);
  if (r.error.code !== 'UNSUPPORTED_RAIL' || (r.error.message ?? '').trim() === '')
    fail(`rail_hint ${hint} made the wallet error: ${describeResult(r)}`);
  if (expectationOf(cpr) === 'payment')
    fail(
      `rail_hint ${hint} was refused with UNSUPPORTED_RAIL although wallet.supported_rails says the wallet serves a rail of the request's sub-interface; an unrecognised hint is read as OPEN (profile 3)`,
    );
  const twin = { ...structuredClone(cpr), rail_hint: 'OPEN', request_id: randomUUID() };
  const open = await wallet.derive({ cpr: twin, context: deriveContext() });
  if (open.ok)
    fail(
      `rail_hint ${hint} was refused with UNSUPPORTED_RAIL, yet the same request with rail_hint OPEN is paid; an unrecognised hint is read as OPEN (profile 3)`,
    );
}

/**
 * True when `doc` is valid under every rule of profile section 2 (the payee reading of the
 * reference validator at {@link generationNow}: checksums, chain ids, byte lengths, purpose code,
 * display name, no payer-data names...). A wallet may refuse any document that breaks one of them
 * (profile 3), so every generated document the suite demands a Payment for passes this.
 */
export function section2Valid(doc: JsonObject): boolean {
  return validateCpr(doc, { mode: 'payee', now: generationNow() }).valid;
}

const railArbitraries = new Map<CprRail, fc.Arbitrary<JsonObject>>();

/**
 * Valid CPRs (`cprArbitrary`) of one rail, or of any rail, valid at {@link generationNow}. With
 * OPEN or no rail_hint, a CPR of a named IBAN, account or instant-key rail has its hint set to
 * OPEN or removed (the same documents `cprArbitrary` makes for those, built without rebuilding
 * an arbitrary per value, which is slow).
 */
export function railCprArbitrary(rail?: CprRail): fc.Arbitrary<JsonObject> {
  if (rail === undefined) return fc.oneof(...CPR_RAILS.map((r) => railCprArbitrary(r)));
  let arb = railArbitraries.get(rail);
  if (!arb) {
    if (rail === 'OPEN' || rail === 'NONE') {
      arb = fc
        .oneof(railCprArbitrary('SEPA_CT'), railCprArbitrary('ACH'), railCprArbitrary('PIX'))
        .map((c) => {
          const doc = structuredClone(c);
          if (rail === 'OPEN') doc.rail_hint = 'OPEN';
          else delete doc.rail_hint;
          return doc;
        })
        .filter(section2Valid);
    } else {
      arb = cprArbitrary({ rail, now: generationNow() }).filter(section2Valid);
    }
    railArbitraries.set(rail, arb);
  }
  return arb;
}

/** Rails the generator can produce a payable CPR for, given `wallet.supported_rails`. */
export function payableRails(): CprRail[] {
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
 * Valid CPRs the wallet is expected to pay: with an amount (an open amount has its own
 * checks), without extensions (they have their own checks), and of a rail the config says the
 * wallet supports (any rail when the config gives no list; a refusal with UNSUPPORTED_RAIL is
 * then tolerated by {@link paymentOrUnsupported}).
 */
export function payableCprArbitrary(rail?: CprRail): fc.Arbitrary<JsonObject> {
  return fc
    .tuple(railCprArbitrary(rail), amountArbitrary())
    .map(([cpr, amount]) => {
      const doc = structuredClone(cpr);
      delete doc.extensions;
      const value = doc.value as JsonObject;
      if (value.amount === undefined) value.amount = amount;
      return doc;
    })
    .filter((cpr) => expectationOf(cpr) !== 'unsupported' && section2Valid(cpr));
}

/** A short description of a derivation answer, for assertion messages. */
export function describeResult(r: DeriveResult): string {
  if (r.ok) return 'a payment';
  const parts: string[] = [];
  if (r.error.status !== undefined) parts.push(`HTTP ${r.error.status}`);
  if (r.error.code !== undefined) parts.push(`code ${r.error.code}`);
  if (r.error.message) parts.push(JSON.stringify(r.error.message.slice(0, 200)));
  return `a rejection (${parts.join(', ') || 'no details'})`;
}

/** Fails the check with `message`. */
export function fail(message: string): never {
  throw new AssertionError({ message });
}

/** SPEC: the wallet derived a Payment; returns it. */
export function expectPayment(r: DeriveResult, what: string): JsonObject {
  if (!r.ok) fail(`${what}: expected a payment, got ${describeResult(r)}`);
  return r.payment;
}

/**
 * The payment of `r`, or `undefined` when the wallet refused with UNSUPPORTED_RAIL (or a
 * custom binding's code-less refusal) and `cpr` allows a refusal ({@link expectationOf}).
 * Any other refusal fails the check.
 */
export function paymentOrUnsupported(r: DeriveResult, cpr: JsonObject, what: string): JsonObject | undefined {
  if (r.ok) return r.payment;
  const expectation = expectationOf(cpr);
  if (expectation !== 'payment' && (r.error.code === undefined || r.error.code === 'UNSUPPORTED_RAIL')) {
    return undefined;
  }
  fail(
    `${what}: expected a payment for a valid request (rail_hint ${String(cpr.rail_hint ?? 'absent')}), got ${describeResult(r)}`,
  );
}

/** SPEC: the wallet refused (any error answer). */
export function expectRejection(
  r: DeriveResult,
  what: string,
): NonNullable<Extract<DeriveResult, { ok: false }>['error']> {
  if (r.ok) fail(`${what}: expected the wallet to refuse, got a payment`);
  return r.error;
}

/**
 * PROFILE (profile section 3, PRF-3-DERIVE-ERROR-CODES): the refusal carries one of `codes`, a
 * non-empty message, and HTTP 422 when the channel has statuses (the stdio form has none). A
 * custom binding that reports no code skips the check.
 */
export function expectRejectionCode(r: DeriveResult, codes: readonly string[], what: string): void {
  const err = expectRejection(r, what);
  if (err.code === undefined && err.status === undefined && err.body === undefined) {
    skip('the driver reports no error code (custom binding); PROFILE check not applicable');
  }
  if (err.code === undefined || !codes.includes(err.code)) {
    fail(`${what}: expected error code ${codes.join(' or ')}, got ${describeResult(r)}`);
  }
  if (typeof err.message !== 'string' || err.message.trim() === '') {
    fail(`${what}: the ${err.code} error has no message for a person (profile 3: message non-empty)`);
  }
  if (err.status !== undefined && err.status !== 422) {
    fail(`${what}: expected HTTP 422 with ${err.code}, got HTTP ${err.status}`);
  }
}

/** Deep equality of two JSON values (member order ignored). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((v, i) => jsonEqual(v, bb[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const ak = Object.keys(ao).filter((k) => ao[k] !== undefined);
  const bk = Object.keys(bo).filter((k) => bo[k] !== undefined);
  return ak.length === bk.length && ak.every((k) => Object.hasOwn(bo, k) && jsonEqual(ao[k], bo[k]));
}

/** A member of a JSON object, or undefined. */
export function member(obj: unknown, key: string): unknown {
  return isObject(obj) ? obj[key] : undefined;
}

/** Short JSON of a value for messages (truncated). */
export function short(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 160 ? `${text.slice(0, 160)}...` : text;
}
