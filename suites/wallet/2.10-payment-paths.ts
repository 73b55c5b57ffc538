/**
 * The Payment invariants (CPR-1.0 2.10, 3 rule 3, 4.4, 4.5, 7 rule 2, 9 rule 1, INV-5; profile
 * section 3) on every path a request reaches the wallet by: the matrix of delivery form (the CPR
 * object, an inline URI, a reference URI through the suite's mock payee) x rail_hint (each of the
 * seven rails, OPEN and no hint for each sub-interface OPEN can select) x amount (fixed, open with
 * the payer's amount), plus cells sampled from the run's seed. Every cell is derived once per
 * channel and graded by one check per requirement, so an invariant that holds for a fixed amount,
 * one rail or one delivery form and breaks on another fails naming the cells it broke in. Beside
 * the Payments, the refusals: an expired request, a wrong cpr_version, an open amount without the
 * payer's amount and planted payer data, on every path and rail.
 */

import { AssertionError } from 'node:assert';
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { encodeInlineUri } from '../../src/codec/uri.js';
import { ALL_FIELDS, type SubInterface } from '../../src/model/cpr.js';
import type { CprRail } from '../../src/testing/arbitraries.js';
import { validateMessage } from '../../src/validator/validate-message.js';
import {
  check,
  type DeriveContext,
  type DeriveResult,
  eachOverlapping,
  forEachWalletChannel,
  note,
  onCheckEnd,
  perRun,
  propertyOptions,
  sharedState,
  skip,
  type WalletDriver,
} from '../_lib/index.js';
import { type MockPayee, startMockPayee } from '../_lib/mock-payee.js';
import {
  deriveContext,
  describeResult,
  expectationOf,
  fail,
  HOUR,
  isoFromNow,
  type JsonObject,
  jsonEqual,
  member,
  RAILS,
  railCprArbitrary,
  sharedPerChannel,
  short,
  supportedRails,
  walletSubInterface,
} from './_support/index.js';

// These checks judge the derived cells, built once per process (`cprc run
// --jobs` runs them in one process: suites/_lib sharedWork).
sharedState('wallet:payment-paths', [
  'paths-every-payable-request-paid',
  'paths-value-amount-asset-preserved',
  'paths-open-amount-payer-amount',
  'paths-state-created',
  'paths-intent-reference-memo-or-request-id',
  'paths-intent-conditions-sub-interface-fields',
  'paths-context-execution-context',
  'paths-context-rail-copied',
  'paths-request-id-bound',
  'paths-payer',
  'paths-authorization',
  'paths-payee-resolved-from-request',
  'paths-payee-every-sub-interface-field',
  'paths-id-newly-generated',
  'paths-id-uuid',
  'paths-payment-shape',
]);

// These checks judge the refused cells, built once per process (`cprc run
// --jobs` runs them in one process: suites/_lib sharedWork).
sharedState('wallet:payment-paths-refusals', [
  'paths-expired-refused',
  'paths-wrong-version-refused',
  'paths-open-amount-without-payer-amount-refused',
  'paths-refusal-codes',
  'paths-payer-data-never-in-payment',
  'paths-payer-data-refused-422-or-ignored',
]);

/** How the request reaches the wallet (spec 4.2, 4.3; profile 2 and 3). */
type Path = 'cpr' | 'inline' | 'reference';
const PATHS: readonly Path[] = ['cpr', 'inline', 'reference'];
const PATH_TEXT: Readonly<Record<Path, string>> = {
  cpr: 'CPR object',
  inline: 'inline URI',
  reference: 'reference URI',
};

/** One rail_hint of the matrix: a rail, or OPEN / no hint over a sub-interface OPEN can select. */
interface HintCase {
  /** How a failure names it: `ACH`, `OPEN (iban)`, `no hint (account)`. */
  label: string;
  /** The generator's rail for the document. */
  generate: CprRail;
  /** The rail_hint written (undefined: none). */
  hint: string | undefined;
}

/** The generator's rail for the documents of each sub-interface OPEN can select. */
const OPEN_GENERATED: ReadonlyArray<[SubInterface, CprRail]> = [
  ['iban', 'SEPA_CT'],
  ['account', 'ACH'],
  ['instant-key', 'PIX'],
];

const HINTS: readonly HintCase[] = [
  ...RAILS.map((rail) => ({ label: rail, generate: rail, hint: rail })),
  ...OPEN_GENERATED.flatMap(([sub, generate]): HintCase[] => [
    { label: `OPEN (${sub})`, generate, hint: 'OPEN' },
    { label: `no hint (${sub})`, generate, hint: undefined },
  ]),
];

/** One cell: a request, how it is delivered, and the context it is derived under. */
interface Cell {
  /** `reference URI / ACH / open amount / memo`: how a failure names the cell. */
  label: string;
  path: Path;
  hint: HintCase;
  open: boolean;
  cpr: JsonObject;
  context: DeriveContext;
}

/** A cell and the wallet's answer to it. */
interface Derived {
  cell: Cell;
  result: DeriveResult;
}

/** Amounts of the payer for open cells: beyond 2^53, each cell its own. */
function payerAmountOf(k: number): string {
  return (2n ** 70n + BigInt(k) * 7919n).toString();
}

/** `doc` made into the cell's request: its own request_id, the hint, the amount kind, memo or not. */
function shape(doc: JsonObject, hint: HintCase, open: boolean, memo: boolean, k: number): JsonObject {
  const cpr = structuredClone(doc);
  delete cpr.extensions; // unknown extensions have their own checks (section 9, profile 3)
  cpr.request_id = randomUUID();
  if (hint.hint === undefined) delete cpr.rail_hint;
  else cpr.rail_hint = hint.hint;
  const value = cpr.value as JsonObject;
  if (open) delete value.amount;
  else value.amount ??= (10n ** 20n + BigInt(k)).toString();
  if (!memo) delete cpr.memo;
  else if (typeof cpr.memo !== 'string') cpr.memo = `Matrix ${hint.label} ${k}`;
  return cpr;
}

function labelOf(path: Path, hint: HintCase, open: boolean, memo: boolean): string {
  return `${PATH_TEXT[path]} / ${hint.label} / ${open ? 'open' : 'fixed'} amount / ${memo ? 'memo' : 'no memo'}`;
}

/**
 * The cells: every path x hint x amount once (memo alternating so that each path, each hint and
 * each amount kind meets both), then cells sampled from the run's seed (any path, hint, amount
 * and memo). Documents are generated (`railCprArbitrary`: valid under every rule of profile 2,
 * optional sub-interface fields included) from the run's seed.
 */
function cellsOf(): Cell[] {
  cellsOfRun ??= makeCells();
  return cellsOfRun;
}

/** The cells of this run (generated once, derived on each channel). */
let cellsOfRun: Cell[] | undefined;
perRun(() => {
  cellsOfRun = undefined;
});

function makeCells(): Cell[] {
  const { seed, numRuns } = propertyOptions();
  const cells: Cell[] = [];
  let k = 0;
  HINTS.forEach((hint, h) => {
    const docs = fc.sample(railCprArbitrary(hint.generate), { seed: seed + h, numRuns: PATHS.length * 2 });
    PATHS.forEach((path, p) => {
      for (const open of [false, true]) {
        const memo = (p + h + (open ? 1 : 0)) % 2 === 0;
        const doc = docs[p * 2 + (open ? 1 : 0)] as JsonObject;
        const payerAmount = payerAmountOf(k);
        cells.push({
          label: labelOf(path, hint, open, memo),
          path,
          hint,
          open,
          cpr: shape(doc, hint, open, memo, k),
          context: deriveContext(open ? { payer_amount: payerAmount } : {}),
        });
        k += 1;
      }
    });
  });
  const sampled = Math.min(16, Math.max(4, Math.ceil(numRuns / 8)));
  const picks = fc.sample(
    fc.record({
      path: fc.constantFrom(...PATHS),
      hint: fc.constantFrom(...HINTS),
      open: fc.boolean(),
      memo: fc.boolean(),
    }),
    { seed: seed + 7001, numRuns: sampled },
  );
  picks.forEach((pick, i) => {
    const [doc] = fc.sample(railCprArbitrary(pick.hint.generate), { seed: seed + 9001 + i, numRuns: 1 });
    cells.push({
      label: `sampled ${i + 1}: ${labelOf(pick.path, pick.hint, pick.open, pick.memo)}`,
      path: pick.path,
      hint: pick.hint,
      open: pick.open,
      cpr: shape(doc as JsonObject, pick.hint, pick.open, pick.memo, k),
      context: deriveContext(pick.open ? { payer_amount: payerAmountOf(k) } : {}),
    });
    k += 1;
  });
  return cells;
}

/**
 * The mock payee for the reference cells, stopped when the check building the matrix ends; or
 * undefined (with a note) when the run has no suite CA: the reference cells are then left out.
 */
async function mockForCells(): Promise<MockPayee | undefined> {
  const mock = await startMockPayee();
  if (!mock) {
    note(
      'reference-URI cells left out: no suite CA is configured (tls.suite_ca_cert_file, tls.suite_ca_key_file)',
    );
    return undefined;
  }
  onCheckEnd(() => mock.close());
  return mock;
}

/** Derives `cpr` through `path` (a reference URI: offered once by `mock`). */
function deliver(
  wallet: WalletDriver,
  path: Path,
  cpr: JsonObject,
  context: DeriveContext,
  mock: MockPayee | undefined,
): Promise<DeriveResult> {
  if (path === 'cpr') return wallet.derive({ cpr, context });
  if (path === 'inline') return wallet.derive({ uri: encodeInlineUri(cpr), context });
  return wallet.derive({ uri: (mock as MockPayee).offer(cpr).uri, context });
}

/**
 * Each of `cells` delivered to the wallet once, with its answer; the reference cells left out when
 * the run has no mock payee (no suite CA).
 */
async function deliverCells<C extends Pick<Cell, 'path' | 'cpr' | 'context'>>(
  wallet: WalletDriver,
  all: readonly C[],
): Promise<{ cell: C; result: DeriveResult }[]> {
  const mock = await mockForCells();
  const cells = all.filter((cell) => cell.path !== 'reference' || mock);
  const results = await eachOverlapping(cells, (cell) =>
    deliver(wallet, cell.path, cell.cpr, cell.context, mock),
  );
  return cells.map((cell, i) => ({ cell, result: results[i] as DeriveResult }));
}

/** Every cell derived once on this channel (shared by the checks below). */
function derivedCells(wallet: WalletDriver): Promise<Derived[]> {
  return sharedPerChannel(wallet, 'payment-paths', () => deliverCells(wallet, cellsOf()));
}

/**
 * Hint labels whose requests the wallet must pay: those `wallet.supported_rails` says it serves
 * (expectationOf); without the list, those it paid on some path or amount (which rails a wallet
 * serves depends on neither the delivery form nor the amount, spec 4.5: an open amount is
 * prompted for). With the list, a refusal of a rail it does not declare is never demanded away.
 */
function mustPay(derived: readonly Derived[]): Set<string> {
  const declared = supportedRails() !== undefined;
  const out = new Set<string>();
  for (const { cell, result } of derived) {
    if (expectationOf(cell.cpr) === 'payment' || (!declared && result.ok)) out.add(cell.hint.label);
  }
  return out;
}

/** Fails naming every cell `grade` failed on (at most 12 listed), or skips when no cell was paid. */
function gradeCells(derived: readonly Derived[], grade: (payment: JsonObject, cell: Cell) => void): void {
  const failures: string[] = [];
  let paid = 0;
  for (const { cell, result } of derived) {
    if (!result.ok) continue; // a refusal is graded by the check that every payable cell is paid
    paid += 1;
    try {
      grade(result.payment, cell);
    } catch (err) {
      if (!(err instanceof AssertionError)) throw err;
      failures.push(`${cell.label}: ${err.message.split('\n')[0]}`);
    }
  }
  if (paid === 0) skip('the wallet paid no request of the matrix (every rail refused with UNSUPPORTED_RAIL)');
  report(failures, derived.length);
}

function report(failures: readonly string[], of: number): void {
  if (failures.length === 0) return;
  const listed = failures.slice(0, 12);
  const more = failures.length > listed.length ? `\n- ... and ${failures.length - listed.length} more` : '';
  fail(`${failures.length} of ${of} cell(s) failed:\n- ${listed.join('\n- ')}${more}`);
}

/** Whether the cell's sub-interface lists `name` among its fields. */
function fieldsOfCell(cell: Cell): readonly string[] {
  const sub = walletSubInterface(cell.cpr);
  return sub ? ALL_FIELDS[sub] : [];
}

/** The value an absent acquirer_id stands for (profile 3: written or not). */
const ZERO_UUID = '00000000-0000-0000-0000-000000000000';
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

// ---------------------------------------------------------------------------------------------
// Refusals on every path: each kind of defect on every path and every hint (see refusalCellsOf)

type RefusalKind = 'expired' | 'version' | 'amount-required' | 'payer-data';

interface RefusalCell {
  label: string;
  path: Path;
  kind: RefusalKind;
  cpr: JsonObject;
  context: DeriveContext;
  /** Marker planted as payer data (payer-data cells). */
  marker?: string;
  /** Whether the config says the wallet serves the request's rail (else UNSUPPORTED_RAIL may come first). */
  served: boolean;
}

interface Refused {
  cell: RefusalCell;
  result: DeriveResult;
}

/** The defect of each kind applied to a valid request. */
function withDefect(kind: RefusalKind, cpr: JsonObject, marker: string, k: number): JsonObject {
  const doc = structuredClone(cpr);
  switch (kind) {
    case 'expired':
      doc.created_at = isoFromNow(-3 * HOUR);
      doc.expires_at = isoFromNow(-HOUR);
      break;
    case 'version':
      doc.cpr_version = 'CPR-1.1';
      break;
    case 'amount-required':
      delete (doc.value as JsonObject).amount;
      break;
    case 'payer-data':
      if (k % 2 === 0) doc.payer = { id: `payer-${marker}`, name: `Mallory ${marker}` };
      else
        doc.extensions = { 'com.example:payer': { id: `payer-${marker}`, iban: 'GB29NWBK60161331926819' } };
      break;
  }
  return doc;
}

const KINDS: readonly RefusalKind[] = ['expired', 'version', 'amount-required', 'payer-data'];

const KIND_TEXT: Readonly<Record<RefusalKind, string>> = {
  expired: 'expired an hour ago',
  version: 'cpr_version CPR-1.1',
  'amount-required': 'open amount, no payer_amount',
  'payer-data': 'payer data planted',
};

/**
 * The refusal cells: each kind of defect on every path and every hint, half the pairs each (a
 * path x hint pair gets two of the four kinds, by parity), the amount alternating by hint so that
 * each kind meets fixed and open amounts on every path. 78 cells instead of 156: a fault bound to
 * one path, one rail or one amount kind still meets each kind there.
 */
function refusalCellsOf(): RefusalCell[] {
  const cells: RefusalCell[] = [];
  // the documents of the enumerated payment cells (fixed amount)
  const docs = cellsOf().filter((c) => !c.open && !c.label.startsWith('sampled'));
  let k = 0;
  HINTS.forEach((hint, h) => {
    PATHS.forEach((path, p) => {
      const open = Math.floor(h / 2) % 2 === 1;
      const doc = docs[h * PATHS.length + p]?.cpr as JsonObject;
      const base = shape(doc, hint, open, (p + h) % 3 === 0, k);
      KINDS.forEach((kind, q) => {
        if ((p + h + q) % 2 !== 0) return;
        const marker = randomUUID();
        const cpr = withDefect(kind, { ...base, request_id: randomUUID() }, marker, k);
        const isOpen = kind === 'amount-required' || open;
        cells.push({
          label: `${PATH_TEXT[path]} / ${hint.label} / ${isOpen ? 'open' : 'fixed'} amount / ${KIND_TEXT[kind]}`,
          path,
          kind,
          cpr,
          context: deriveContext(
            isOpen && kind !== 'amount-required' ? { payer_amount: payerAmountOf(k) } : {},
          ),
          ...(kind === 'payer-data' ? { marker } : {}),
          served: expectationOf(base) === 'payment',
        });
        k += 1;
      });
    });
  });
  return cells;
}

function refusedCells(wallet: WalletDriver): Promise<Refused[]> {
  return sharedPerChannel(wallet, 'payment-paths-refusals', () => deliverCells(wallet, refusalCellsOf()));
}

/** Fails naming every refusal cell of `kind` that `grade` failed on. */
function gradeRefusals(
  refused: readonly Refused[],
  kind: RefusalKind,
  grade: (r: DeriveResult, cell: RefusalCell) => void,
): void {
  const mine = refused.filter((r) => r.cell.kind === kind);
  const failures: string[] = [];
  for (const { cell, result } of mine) {
    try {
      grade(result, cell);
    } catch (err) {
      if (!(err instanceof AssertionError)) throw err;
      failures.push(`${cell.label}: ${err.message.split('\n')[0]}`);
    }
  }
  report(failures, mine.length);
}

/** PROFILE: the refusal carries `code` (or UNSUPPORTED_RAIL where the rail is not known served), a message, 422. */
function expectCode(r: DeriveResult, code: string, served: boolean): void {
  if (r.ok) fail(`expected a refusal with ${code}, got a payment`);
  if (r.error.code === undefined && r.error.body === undefined) return; // a custom binding reports no code
  const allowed = served ? [code] : [code, 'UNSUPPORTED_RAIL'];
  if (!allowed.includes(r.error.code ?? ''))
    fail(`expected ${allowed.join(' or ')}, got ${describeResult(r)}`);
  if (typeof r.error.message !== 'string' || r.error.message.trim() === '')
    fail(`the ${r.error.code} refusal has no message for a person`);
  if (r.error.status !== undefined && r.error.status !== 422)
    fail(`expected HTTP 422 with ${r.error.code}, got HTTP ${r.error.status}`);
}

describe('CPR-1.0 2.10, 3, 4.4, 4.5, 7, 9 and INV-5 on every path: delivery form x rail x amount', () => {
  forEachWalletChannel((wallet) => {
    check(
      'paths-every-payable-request-paid',
      ['CPR-INV-7-DERIVATION', 'CPR-4.4-ASSEMBLE-PAYMENT'],
      'every valid request the wallet can pay yields a Payment on every path: CPR object, inline URI and reference URI, each rail, OPEN and no hint, fixed and open amounts',
      async () => {
        const derived = await derivedCells(wallet);
        const payable = mustPay(derived);
        const failures: string[] = [];
        for (const { cell, result } of derived) {
          if (result.ok || !payable.has(cell.hint.label)) continue;
          const why =
            expectationOf(cell.cpr) === 'payment'
              ? 'wallet.supported_rails says it serves this rail'
              : 'it paid this rail on another path or amount';
          failures.push(`${cell.label}: expected a payment (${why}), got ${describeResult(result)}`);
        }
        report(failures, derived.length);
      },
    );

    check(
      'paths-value-amount-asset-preserved',
      ['CPR-2.10-VALUE', 'CPR-INV-5-VALUE-INTEGRITY'],
      "value on every path, rail and amount kind: a fixed amount character for character, the asset unmodified (an open amount's asset too)",
      async () => {
        gradeCells(await derivedCells(wallet), (payment, cell) => {
          const want = cell.cpr.value as JsonObject;
          const got = member(payment, 'value');
          if (!cell.open && member(got, 'amount') !== want.amount)
            fail(
              `payment.value.amount is ${short(member(got, 'amount'))}, the request's is ${short(want.amount)}`,
            );
          if (!jsonEqual(member(got, 'asset'), want.asset))
            fail(
              `payment.value.asset is ${short(member(got, 'asset'))}, the request's is ${short(want.asset)}`,
            );
        });
      },
    );

    check(
      'paths-open-amount-payer-amount',
      ['CPR-4.5-OPEN-AMOUNT'],
      "amount omitted, on every path and rail: the payer's amount becomes the payment amount",
      async () => {
        const derived = await derivedCells(wallet);
        const payable = mustPay(derived);
        const failures: string[] = [];
        for (const { cell, result } of derived) {
          if (!cell.open) continue;
          if (!result.ok) {
            if (payable.has(cell.hint.label))
              failures.push(`${cell.label}: the payer gave an amount, yet ${describeResult(result)}`);
            continue;
          }
          const amount = member(member(result.payment, 'value'), 'amount');
          if (amount !== cell.context.payer_amount)
            failures.push(
              `${cell.label}: payment.value.amount is ${short(amount)}, the payer's amount is ${cell.context.payer_amount}`,
            );
        }
        report(failures, derived.filter((d) => d.cell.open).length);
      },
    );

    check(
      'paths-state-created',
      ['CPR-2.10-STATE', 'CPR-3-PAYMENT-CREATED'],
      'state is CREATED on every path, rail and amount kind',
      async () => {
        gradeCells(await derivedCells(wallet), (payment) => {
          if (payment.state !== 'CREATED')
            fail(`payment.state is ${short(payment.state)}, expected "CREATED"`);
        });
      },
    );

    check(
      'paths-intent-reference-memo-or-request-id',
      ['CPR-2.10-INTENT-REFERENCE', 'CPR-4.4-INTENT-FROM-MEMO'],
      'intent.reference is the memo when present, otherwise the request_id, on every path, rail and amount kind',
      async () => {
        gradeCells(await derivedCells(wallet), (payment, cell) => {
          const want = typeof cell.cpr.memo === 'string' ? cell.cpr.memo : cell.cpr.request_id;
          const got = member(member(payment, 'intent'), 'reference');
          if (got !== want)
            fail(
              `payment.intent.reference is ${short(got)}, expected the ${typeof cell.cpr.memo === 'string' ? 'memo' : 'request_id'} ${short(want)}`,
            );
        });
      },
    );

    check(
      'paths-intent-conditions-sub-interface-fields',
      ['CPR-2.10-INTENT-CONDITIONS', 'PRF-3-INTENT-CONDITIONS'],
      'intent.conditions is an object whose members named after sub-interface fields equal the request, on every path, rail and amount kind',
      async () => {
        gradeCells(await derivedCells(wallet), (payment, cell) => {
          const conditions = member(member(payment, 'intent'), 'conditions');
          if (typeof conditions !== 'object' || conditions === null || Array.isArray(conditions))
            fail(`payment.intent.conditions must be an object, got ${short(conditions)}`);
          for (const name of fieldsOfCell(cell)) {
            const got = (conditions as JsonObject)[name];
            if (got === undefined) continue; // which fields it repeats is the wallet's choice (profile 3)
            const want = name === 'acquirer_id' && cell.cpr[name] === undefined ? ZERO_UUID : cell.cpr[name];
            if (!jsonEqual(got, want))
              fail(
                `payment.intent.conditions.${name} is ${short(got)}, the request's ${name} is ${short(want)}`,
              );
          }
        });
      },
    );

    check(
      'paths-context-execution-context',
      ['CPR-2.10-CONTEXT'],
      'context carries the ExecutionContext given (context.rail), on every path, rail and amount kind',
      async () => {
        gradeCells(await derivedCells(wallet), (payment, cell) => {
          const c = member(payment, 'context');
          if (!jsonEqual(member(c, 'rail'), cell.context.rail) && !jsonEqual(c, cell.context.rail))
            fail(
              `payment.context is ${short(c)}; it does not carry the ExecutionContext given ${short(cell.context.rail)}`,
            );
        });
      },
    );

    check(
      'paths-context-rail-copied',
      ['PRF-3-PAYMENT-CONTEXT-RAIL'],
      'context.rail is the ExecutionContext given, unchanged, on every path, rail and amount kind (profile 3)',
      async () => {
        gradeCells(await derivedCells(wallet), (payment, cell) => {
          const rail = member(member(payment, 'context'), 'rail');
          if (!jsonEqual(rail, cell.context.rail))
            fail(`payment.context.rail is ${short(rail)}, expected ${short(cell.context.rail)}`);
        });
      },
    );

    check(
      'paths-request-id-bound',
      ['CPR-2.10-REQUEST-ID-BOUND'],
      "the request's request_id is bound to the payment's context, on every path, rail and amount kind",
      async () => {
        gradeCells(await derivedCells(wallet), (payment, cell) => {
          const bound = member(member(payment, 'context'), 'request_id');
          if (bound !== cell.cpr.request_id)
            fail(
              `payment.context.request_id is ${short(bound)}, expected the request's ${short(cell.cpr.request_id)}`,
            );
        });
      },
    );

    check(
      'paths-payer',
      ['CPR-2.10-PAYER'],
      'payer is context.payer on every path, rail and amount kind',
      async () => {
        gradeCells(await derivedCells(wallet), (payment, cell) => {
          if (!jsonEqual(payment.payer, cell.context.payer))
            fail(
              `payment.payer is ${short(payment.payer)}, expected context.payer ${short(cell.context.payer)}`,
            );
        });
      },
    );

    check(
      'paths-authorization',
      ['CPR-2.10-AUTHORIZATION'],
      'authorization is context.authorization on every path, rail and amount kind',
      async () => {
        gradeCells(await derivedCells(wallet), (payment, cell) => {
          if (!jsonEqual(payment.authorization, cell.context.authorization))
            fail(
              `payment.authorization is ${short(payment.authorization)}, expected context.authorization ${short(cell.context.authorization)}`,
            );
        });
      },
    );

    check(
      'paths-payee-resolved-from-request',
      ['CPR-2.10-PAYEE'],
      'payee is resolved from request.payee (rail_address, display_name) on every path, rail and amount kind',
      async () => {
        gradeCells(await derivedCells(wallet), (payment, cell) => {
          const want = cell.cpr.payee as JsonObject;
          const got = member(payment, 'payee');
          if (!jsonEqual(member(got, 'rail_address'), want.rail_address))
            fail(
              `payment.payee.rail_address is ${short(member(got, 'rail_address'))}, the request's is ${short(want.rail_address)}`,
            );
          if (want.display_name !== undefined && member(got, 'display_name') !== want.display_name)
            fail(
              `payment.payee.display_name is ${short(member(got, 'display_name'))}, the request's is ${short(want.display_name)}`,
            );
        });
      },
    );

    check(
      'paths-payee-every-sub-interface-field',
      ['PRF-3-PAYMENT-PAYEE'],
      'payee carries every sub-interface field of the request, on every path, rail and amount kind (profile 3)',
      async () => {
        gradeCells(await derivedCells(wallet), (payment, cell) => {
          const got = member(payment, 'payee');
          for (const name of fieldsOfCell(cell)) {
            if (cell.cpr[name] !== undefined && !jsonEqual(member(got, name), cell.cpr[name]))
              fail(
                `payment.payee.${name} is ${short(member(got, name))}, the request's ${name} is ${short(cell.cpr[name])}`,
              );
          }
        });
      },
    );

    check(
      'paths-id-newly-generated',
      ['CPR-2.10-ID'],
      "id is newly generated on every path, rail and amount kind: no two payments share one, and none is the request's request_id",
      async () => {
        const seen = new Map<unknown, string>();
        gradeCells(await derivedCells(wallet), (payment, cell) => {
          if (typeof payment.id !== 'string' || payment.id === '')
            fail(`payment.id must be a non-empty identifier, got ${short(payment.id)}`);
          if (payment.id === cell.cpr.request_id)
            fail(`payment.id is the request's request_id ${short(payment.id)}, not a newly generated id`);
          const earlier = seen.get(payment.id);
          if (earlier !== undefined)
            fail(`payment.id ${short(payment.id)} was already given to the payment of ${earlier}`);
          seen.set(payment.id, cell.label);
        });
      },
    );

    check(
      'paths-id-uuid',
      ['PRF-3-PAYMENT-ID-UUID'],
      'id is a UUID on every path, rail and amount kind (profile 3)',
      async () => {
        gradeCells(await derivedCells(wallet), (payment) => {
          if (typeof payment.id !== 'string' || !UUID.test(payment.id))
            fail(`payment.id is ${short(payment.id)}, not a UUID`);
        });
      },
    );

    check(
      'paths-payment-shape',
      ['PRF-3-PAYMENT-SHAPE', 'PRF-3-HARNESS-MESSAGE-SCHEMA'],
      'the Payment has the members of profile 3 on every path, rail and amount kind',
      async () => {
        gradeCells(await derivedCells(wallet), (payment) => {
          const errors = validateMessage('harness/derive-response', { payment }).findings.filter(
            (f) => f.severity === 'error',
          );
          if (errors.length > 0)
            fail(
              `the payment does not have the profile shape: ${errors
                .slice(0, 3)
                .map((f) => `${f.path || '(root)'} ${f.message}`)
                .join('; ')}`,
            );
        });
      },
    );

    check(
      'paths-expired-refused',
      ['CPR-7-EXPIRED-REJECTED', 'CPR-INV-2-EXPIRY-ENFORCEMENT', 'CPR-INV-7-REJECTS-EXPIRED'],
      'an expired request is refused on every path, rail and amount kind',
      async () => {
        gradeRefusals(await refusedCells(wallet), 'expired', (r) => {
          if (r.ok) fail('the wallet derived a payment from an expired request');
        });
      },
    );

    check(
      'paths-wrong-version-refused',
      ['CPR-9-VERSION-VALIDATED', 'CPR-4.3-VALIDATE-BEFORE-PROCESSING', 'CPR-4.4-PARSE-VALIDATE'],
      'a request whose cpr_version is not CPR-1.0 is refused on every path, rail and amount kind',
      async () => {
        gradeRefusals(await refusedCells(wallet), 'version', (r) => {
          if (r.ok) fail('the wallet derived a payment from a CPR-1.1 request');
        });
      },
    );

    check(
      'paths-open-amount-without-payer-amount-refused',
      ['CPR-4.5-OPEN-AMOUNT'],
      "an open amount without the payer's amount yields no payment on any path or rail (the payer must be prompted)",
      async () => {
        gradeRefusals(await refusedCells(wallet), 'amount-required', (r) => {
          if (r.ok)
            fail(
              `the wallet derived a payment (amount ${short(member(member(r.payment, 'value'), 'amount'))}) from an open-amount request without the payer's amount`,
            );
        });
      },
    );

    check(
      'paths-refusal-codes',
      ['PRF-3-DERIVE-ERROR-CODES'],
      "on every path, rail and amount kind: an expired request is refused with 422 EXPIRED, a wrong version with INVALID_VERSION, an open amount without the payer's amount with AMOUNT_REQUIRED",
      async () => {
        const refused = await refusedCells(wallet);
        const failures: string[] = [];
        const codes: ReadonlyArray<[RefusalKind, string]> = [
          ['expired', 'EXPIRED'],
          ['version', 'INVALID_VERSION'],
          ['amount-required', 'AMOUNT_REQUIRED'],
        ];
        for (const [kind, code] of codes) {
          for (const { cell, result } of refused.filter((r) => r.cell.kind === kind)) {
            try {
              expectCode(result, code, cell.served);
            } catch (err) {
              if (!(err instanceof AssertionError)) throw err;
              failures.push(`${cell.label}: ${err.message}`);
            }
          }
        }
        report(failures, refused.filter((r) => r.cell.kind !== 'payer-data').length);
      },
    );

    check(
      'paths-payer-data-never-in-payment',
      ['CPR-4.4-PAYER-FROM-APPLICATION', 'CPR-2.9-CONTEXT-FROM-APPLICATION'],
      "payer data planted in a request (top level or extensions) never reaches the Payment, on any path, rail or amount kind: the payer is the application's own",
      async () => {
        gradeRefusals(await refusedCells(wallet), 'payer-data', (r, cell) => {
          if (!r.ok) return; // refusing is allowed (profile 3)
          if (JSON.stringify(r.payment).includes(cell.marker as string))
            fail(`the payment carries the payer data planted in the request: ${short(r.payment)}`);
          if (!jsonEqual(r.payment.payer, cell.context.payer))
            fail(
              `payment.payer is ${short(r.payment.payer)}, expected context.payer ${short(cell.context.payer)}`,
            );
        });
      },
    );

    check(
      'paths-payer-data-refused-422-or-ignored',
      ['PRF-3-PAYER-DATA-REFUSED-OR-IGNORED'],
      'a request carrying payer data is refused with 422 INVALID_STRUCTURE or derived, on every path, rail and amount kind',
      async () => {
        gradeRefusals(await refusedCells(wallet), 'payer-data', (r, cell) => {
          if (!r.ok) expectCode(r, 'INVALID_STRUCTURE', cell.served);
        });
      },
    );
  });
});
