/**
 * The suite library: what every conformance suite under `suites/<target>/` uses.
 *
 * A suite file is an ordinary mocha ESM file run by `cprc run` in a child process. It registers
 * checks with {@link check}; each check names the requirement IDs it covers and its title is the
 * normative sentence it tests. A check is a value: {@link check} decides its whole outcome once
 * (state, failure level, message, skip reason, requirements, channel, property info, evidence)
 * and attaches it to the mocha test it registers; the runner only serialises it. Classification
 * (one place: {@link classifyFailure}) is automatic:
 * - an assertion that fails (node:assert, or the helpers below) records the level of what failed
 *   (`spec`: a SPEC MUST among the IDs; `profile`: a PROFILE MUST; `advisory`: only SHOULD/MAY)
 *   and is `failed` or `warning` at the level asked (`cprc run --level`: at `profile` a PROFILE
 *   MUST fails, at `spec` it warns; SHOULD/MAY always warn);
 * - {@link warn} -> `warning` (advisory) whatever the IDs: a MUST whose reading is doubtful;
 * - a driver transport error (refused, timeout, oversize, dead wallet process) -> `error`;
 * - any other exception (a bug in the suite) -> `error`, marked "suite error";
 * - {@link skip} -> `skipped`, with its reason;
 * - returning normally -> `passed`.
 * Exchanges recorded by the drivers while a check runs attach to it as evidence.
 *
 * @example
 * ```ts
 * import { check, context, expectErrorCode, expectOk, payee, skip } from '../_lib/index.js';
 *
 * describe('CPR-1.0 section 5: authentication', () => {
 *   check('token-repeated-use-error', ['CPR-5-TOKEN-SINGLE-USE'], 'a repeated use of the same token returns an error', async () => {
 *     const p = payee();
 *     const h = p.harness ?? skip('the payee harness is not configured (payee.harness_url)');
 *     const created = expectOk(await h.createRequest({ delivery: 'reference' }), 'harness createRequest');
 *     expectOk(await p.retrieve(created.uri), 'first retrieval');
 *     expectErrorCode(await p.retrieve(created.uri), 'TOKEN_CONSUMED');
 *   });
 * });
 * ```
 * @packageDocumentation
 */
import { AssertionError } from 'node:assert';
import { AsyncLocalStorage } from 'node:async_hooks';
import fc from 'fast-check';
import { failureLevelOf } from '../../src/catalog/index.js';
import type {
  DriverError,
  HarnessResult,
  OperatorDriver,
  PayeeDriver,
  WalletDriver,
} from '../../src/drivers/types.js';
import { isTransportError } from '../../src/drivers/types.js';
import {
  CHECK_OUTCOME,
  type CheckOutcome,
  type Exchange,
  type FailureLevel,
  type Level,
  type State,
  stateAtLevel,
  type WalletChannel,
} from '../../src/model/results.js';
import { getRunContext, type RunContext } from '../../src/runner/context.js';
import { type MockPayee, startMockPayee } from './mock-payee.js';

export type * from '../../src/drivers/types.js';
export type { CheckOutcome, FailureLevel, Level, WalletChannel } from '../../src/model/results.js';
export type { RunContext } from '../../src/runner/context.js';
export type {
  MockCertificate,
  MockHost,
  MockListener,
  MockListenerOptions,
  MockPayee,
  MockRedirect,
  MockRequest,
  Offer,
  OfferOptions,
  RedirectStatus,
} from './mock-payee.js';
export { mockToken, retrievalTargets } from './mock-payee.js';
export {
  DOMAIN_MEMBER_NAMES,
  describeUndefinedRequest,
  undefinedRequestProblems,
} from './undefined-requests.js';

/**
 * The run context: configuration (with secrets: never print it), drivers, seed, runs, grep,
 * targets and configured wallet channels. Available both when a suite file is loaded (to decide
 * which checks to register) and while checks run.
 * @example
 * ```ts
 * const { seed, runs, channels } = context();
 * ```
 */
export function context(): RunContext {
  return getRunContext();
}

/** Thrown by {@link skip}; caught by {@link check}. */
class SkipSignal extends Error {
  readonly reason: string;
  constructor(reason: string) {
    super(`skipped: ${reason}`);
    this.name = 'SkipSignal';
    this.reason = reason;
  }
}

/**
 * Skips the running check with a reason recorded in the report (a harness capability absent,
 * not applicable...). Skipped is never counted as passed. Only valid inside a {@link check}.
 * @example
 * ```ts
 * const h = payee().harness ?? skip('the payee harness is not configured (payee.harness_url)');
 * ```
 */
export function skip(reason: string): never {
  throw new SkipSignal(reason);
}

/** Thrown by {@link warn}; caught by {@link check}. */
class WarningSignal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WarningSignal';
  }
}

/**
 * Ends the running check as a `warning` graded `advisory` whatever the level of its IDs: for a
 * deviation from a MUST whose reading is doubtful (an entry of the ambiguity register makes the
 * suite grade it as a warning, never a failure, at every level). Ordinary SHOULD/MAY checks need
 * not call it: a failed assertion on them is advisory through the catalog. Only valid inside a
 * {@link check}.
 * @example
 * ```ts
 * if (doubtful.length > 0) warn(`payee.display_name is absent (AMB-1): ${doubtful.join('; ')}`);
 * ```
 */
export function warn(message: string): never {
  throw new WarningSignal(message);
}

/** Thrown by {@link retake}; caught by {@link check}, which takes the check again. */
class RetakeSignal extends WarningSignal {
  /** What went wrong, in a few words, for the message of the attempt that stands. */
  readonly brief: string;
  constructor(message: string, brief: string) {
    super(message);
    this.name = 'RetakeSignal';
    this.brief = brief;
  }
}

/**
 * How many times in all {@link check} takes a check whose attempts end in {@link retake}: the
 * first attempt and two more.
 */
export const CHECK_ATTEMPTS = 3;

/**
 * Ends this attempt of the running check as inconclusive for a cause that lies in the machine
 * running the suite, not in the target (a race whose requests a loaded machine sent too far
 * apart): {@link check} takes the whole check again, setup included, up to
 * {@link CHECK_ATTEMPTS} attempts in all while its timeout leaves room for one more; the last
 * attempt's message stands as the check's warning (`advisory`), never a pass. What an attempt
 * used on the target (a request, a pack) stays used, and the check's message says how many
 * attempts it took, with the `brief` of each earlier one. Only valid inside a {@link check}.
 * @example
 * ```ts
 * if (race.spreadMs > RACE_SPREAD_BOUND_MS)
 *   retake(`inconclusive race: 32 first uses of one token: the requests left over ${ms} ms`, `left over ${ms} ms`);
 * ```
 */
export function retake(message: string, brief: string = message): never {
  throw new RetakeSignal(message, brief);
}

/** What forgets each piece of state a suite keeps for one run ({@link perRun}). */
const runResets: Array<() => void> = [];

/**
 * Registers how a suite forgets what it learned of the target during a run (a memo of answers, a
 * clock offset, a balance spent). A process runs its suites once, so the state lives as long as
 * the run; a runner that runs the loaded suites again against a target started afresh (the
 * mutation judge, docs/mutation.md) calls {@link resetRunState} between runs, and every run then
 * starts as it would in a fresh process.
 * @example
 * ```ts
 * let offsetMs = 0;
 * perRun(() => {
 *   offsetMs = 0;
 * });
 * ```
 */
export function perRun(reset: () => void): void {
  runResets.push(reset);
}

/** Forgets the state every loaded suite keeps for one run ({@link perRun}). */
export function resetRunState(): void {
  for (const reset of runResets) reset();
}

/** What belongs to one running check: its outcome record, deadline, cleanups and notes. */
interface CheckScope {
  /** Outcome record of the check (undefined once its body ended, while its cleanups run). */
  outcome: CheckOutcome | undefined;
  /** When the check's timeout ends it (epoch ms), if it has one. */
  deadline: number | undefined;
  /** Cleanups registered by the check, run when it ends (last first). */
  cleanups: Array<() => unknown>;
  /** Notes of the check ({@link note}). */
  notes: string[];
}

/**
 * The scope of the check the calling code runs in: async-local when a `--jobs` process runs
 * several checks at once (one mocha runner each), so that each check's work (its exchanges, its
 * properties' overlapping runs) carries its own scope however it interleaves with another's; a
 * plain variable when checks run one at a time (async-local storage costs every promise a hook).
 */
const checkScopes = new AsyncLocalStorage<CheckScope>();
/** The running check's scope when checks run one at a time. */
let serialScope: CheckScope | undefined;
/** Where what is called outside any check goes (the library's own tests call it so). */
const outsideScope: CheckScope = { outcome: undefined, deadline: undefined, cleanups: [], notes: [] };
const scope = (): CheckScope => checkScopes.getStore() ?? serialScope ?? outsideScope;

/** Runs `body` in the check scope `own`. */
async function inScope(own: CheckScope, body: () => Promise<void>): Promise<void> {
  if ((getRunContext().checksAtOnce ?? 1) > 1) return checkScopes.run(own, body);
  serialScope = own;
  try {
    await body();
  } finally {
    // a check that mocha timed out ends later, when the next one runs: that one keeps its scope
    if (serialScope === own) serialScope = undefined;
  }
}

/**
 * Registers `fn` to run when the current check ends, whatever its result (e.g. stop a server).
 * @example
 * ```ts
 * const server = await startSomething();
 * onCheckEnd(() => server.close());
 * ```
 */
export function onCheckEnd(fn: () => unknown): void {
  scope().cleanups.push(fn);
}

/**
 * Records how the running check did its work, shown as the message of a passed check (for example
 * whether an expiry check advanced the target's test clock or waited in real time, or the spread
 * of a race). A failure's own message replaces the notes.
 * @example
 * ```ts
 * note('expiry reached by advancing the payee test clock 901 s (no real wait)');
 * ```
 */
export function note(text: string): void {
  scope().notes.push(text);
}

/** The notes of the running check so far ({@link note}; what the library's own tests read). */
export function notesSoFar(): readonly string[] {
  return scope().notes;
}

/**
 * Longest real wait (ms) an expiry check may make when the target has no test clock: `--max-wait`,
 * else `timeouts.max_wait_ms` of the configuration, else 30 s. A check needing longer skips,
 * naming the wait it would need.
 */
export function maxWaitMs(): number {
  return getRunContext().maxWaitMs;
}

/**
 * Sleeps `ms` of real time so that an instant passes on a target without a test clock, and
 * records the wait in the running check's result (`waited_ms`; the reports name the run's
 * longest wait). Callers bound `ms` by {@link maxWaitMs} and skip instead when it is longer.
 * @example
 * ```ts
 * if (waitMs > maxWaitMs()) skip(`needs a real wait of ${waitMs} ms, above --max-wait`);
 * await waitRealTime(waitMs);
 * ```
 */
export async function waitRealTime(ms: number): Promise<void> {
  const wait = Math.max(0, Math.round(ms));
  const outcome = scope().outcome;
  await new Promise((resolve) => setTimeout(resolve, wait));
  if (outcome && wait > 0) outcome.waited_ms = (outcome.waited_ms ?? 0) + wait;
}

/** Work built once per process and shared by checks ({@link sharedWork}), by name. */
const sharedWorks = new Map<string, Promise<unknown>>();
perRun(() => sharedWorks.clear());

/**
 * Work several checks judge, built once per process by the first of them to ask (a corpus of the
 * target's answers, a matrix of derivations) and reused by the others: `build` runs once per run
 * (again after a failure, so the next check reports its own). Every check that asks declares
 * `name` among its shares (`sharedState(name, [...])` or `check(..., { shares: [name] })`), so
 * that `cprc run --jobs` runs them in one process: otherwise each process would build it again,
 * with the target's exchanges and time that costs, and the check that pays for it (its exchanges
 * the evidence) would differ from a serial run's. A check that asks without declaring `name` is a
 * suite error, in a serial run too, so a missing declaration cannot go unnoticed. `variant` keeps
 * several builds under one name apart (a wallet's channels: one process runs them all).
 * @example
 * ```ts
 * sharedState('payee:corpus', ['cpr-timestamps-rfc-3339-z']);
 * const docs = await sharedWork('payee:corpus', () => buildCorpus());
 * ```
 */
export function sharedWork<T>(name: string, build: () => Promise<T>, variant = ''): Promise<T> {
  const outcome = scope().outcome;
  if (outcome && !(outcome.shares ?? []).includes(name)) {
    const slug = outcome.channel ? outcome.slug.slice(outcome.channel.length + 1) : outcome.slug;
    throw new Error(
      `check "${slug}" uses the work "${name}" that checks share, but does not declare it (sharedState("${name}", [...]) in its file), so a --jobs run would build it again in another process`,
    );
  }
  const key = `${name}\u0000${variant}`;
  let made = sharedWorks.get(key) as Promise<T> | undefined;
  if (!made) {
    made = build();
    sharedWorks.set(key, made);
    made.catch(() => {
      if (sharedWorks.get(key) === made) sharedWorks.delete(key);
    });
  }
  return made;
}

/** Channel of the {@link forEachWalletChannel} block being defined. */
let definingChannel: WalletChannel | undefined;

/** Check slugs registered so far (per process: one run per process). */
const registeredSlugs = new Set<string>();

/**
 * The stable form of a check slug: lower-case words of letters and digits joined by `-`, at most
 * 96 characters. The slug, not the title, identifies a check across runs (results.json `id` is
 * `<target>/<channel>/<slug>`), so rewording a title keeps its history.
 */
export function normalizeSlug(slug: string): string {
  const s = slug
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 96)
    .replace(/-+$/, '');
  if (s === '') throw new Error(`check slug "${slug}" has no letter or digit`);
  return s;
}

/** Options of one check. */
export interface CheckOptions {
  /** Overrides the run's per-test timeout (ms) for this check, e.g. for a long property. */
  timeoutMs?: number;
  /**
   * State on the target this check shares with other checks, by name: `cprc run --jobs` runs the
   * checks naming one name in one process, one after another, never beside each other. Name what
   * a check changes or relies on that another check also does: a principal's balance
   * (`operator:low-balance-principal`), a target's test clock (`<target>:clock`: its checks run
   * after every other check of that target, since moving the clock changes what they all see).
   * A serial run ignores it.
   */
  shares?: readonly string[];
  /**
   * The check runs with no other check of its target running but a `long` one, and beside no
   * other race (`cprc run --jobs`): a race, whose outcome other traffic to the target would
   * muddle. A serial run ignores it.
   */
  alone?: boolean;
  /**
   * The check is far longer than the others, one exchange after another (a model-based run of
   * hundreds of exchanges): `cprc run --jobs` starts it first, so that the run does not wait for
   * it at its end, nor a race for it to end. A serial run ignores it.
   */
  long?: boolean;
}

/** Shared state declared by slug ({@link sharedState}, {@link runsAlone}), and the outcomes of the checks registered so far by slug. */
const declaredShares = new Map<string, Set<string>>();
const declaredAlone = new Set<string>();
const outcomesBySlug = new Map<string, CheckOutcome[]>();

function applyDeclarations(slug: string, outcome: CheckOutcome): void {
  const names = declaredShares.get(slug);
  if (names && names.size > 0) outcome.shares = [...new Set([...(outcome.shares ?? []), ...names])].sort();
  if (declaredAlone.has(slug)) outcome.alone = true;
}

/**
 * Declares that the checks with these slugs share the state `name` on the target (the same as
 * `check(..., { shares: [name] })`, written once for a file's checks): `cprc run --jobs` runs them
 * in one process, one after another, never beside each other; a `<target>:clock` name (a test
 * clock) after every other check of that target. A wallet slug names the check of every channel.
 * A serial run ignores it.
 * @example
 * ```ts
 * sharedState('payee:clock', ['token-expired-one-second-past-expiry', 'token-serves-two-seconds-before-expiry']);
 * ```
 */
export function sharedState(name: string, slugs: readonly string[]): void {
  for (const raw of slugs) {
    const slug = normalizeSlug(raw);
    const names = declaredShares.get(slug) ?? new Set<string>();
    names.add(name);
    declaredShares.set(slug, names);
    for (const o of outcomesBySlug.get(slug) ?? []) applyDeclarations(slug, o);
  }
}

/**
 * Declares that the checks with these slugs run with no other check of their target running
 * and beside no other race (the same as `check(..., { alone: true })`): races, whose outcome
 * other traffic to the target would muddle. A serial run ignores it.
 * @example
 * ```ts
 * runsAlone(['concurrent-retrievals-one-succeeds']);
 * ```
 */
export function runsAlone(slugs: readonly string[]): void {
  for (const raw of slugs) {
    const slug = normalizeSlug(raw);
    declaredAlone.add(slug);
    for (const o of outcomesBySlug.get(slug) ?? []) applyDeclarations(slug, o);
  }
}

function isAssertion(err: unknown): boolean {
  if (err instanceof AssertionError) return true;
  if (err instanceof Error) {
    return (
      err.name === 'AssertionError' ||
      (err as { code?: unknown }).code === 'ERR_ASSERTION' ||
      // fc.assert used directly (prefer assertProperty, which also records the counterexample)
      /^Property failed after \d+ tests?/.test(err.message)
    );
  }
  return false;
}

function messageOf(err: unknown): string {
  const raw = err instanceof Error ? err.message : String(err);
  return getRunContext().recorder.redact(raw);
}

/** What a check's end decides: its state and what goes with it. */
export interface CheckVerdict {
  state: State;
  failure_level?: FailureLevel;
  message?: string;
  skip_reason?: string;
}

/**
 * The one classification of how a check ended (docs/conventions.md, "Result states"): returning
 * normally (`err` undefined) is `passed`; {@link skip} is `skipped` with its reason; {@link warn}
 * is a `warning` graded `advisory`; a driver transport error is an `error`; a failed assertion
 * records the level of what failed ({@link failureLevelOf} of the check's IDs) and is `failed` or
 * `warning` at the level asked; anything else is a bug of the suite: an `error` marked "suite error".
 * @example
 * ```ts
 * classifyFailure(new AssertionError({ message: 'x' }), ['PRF-2-TOKEN-CONSUMED-410'], 'spec');
 * // { state: 'warning', failure_level: 'profile', message: 'x' }
 * ```
 */
export function classifyFailure(err: unknown, ids: readonly string[], level: Level): CheckVerdict {
  if (err === undefined) return { state: 'passed' };
  if (err instanceof SkipSignal) return { state: 'skipped', skip_reason: err.reason };
  if (err instanceof WarningSignal)
    return { state: 'warning', failure_level: 'advisory', message: messageOf(err) };
  if (isTransportError(err)) return { state: 'error', message: messageOf(err) };
  if (isAssertion(err)) {
    const failure = failureLevelOf(ids);
    return { state: stateAtLevel(failure, level), failure_level: failure, message: messageOf(err) };
  }
  return { state: 'error', message: `suite error: ${messageOf(err)}` };
}

/** Runs the cleanups the check's attempt registered, last first; a failing one changes nothing. */
async function runCleanups(own: CheckScope): Promise<void> {
  const pending = own.cleanups.reverse();
  own.cleanups = [];
  for (const c of pending) {
    try {
      await c();
    } catch {
      // a failing cleanup must not change the check's result
    }
  }
}

/**
 * Registers one conformance check: a mocha `it` titled `[ID1 ID2] title`. `slug` is the check's
 * stable identity (kebab-case, unique within its target and channel; never reworded once
 * published); `ids` are the catalog requirement IDs it covers (at least one); `title` is the
 * normative sentence.
 * @example
 * ```ts
 * check('pubkey-is-jwk', ['CP-4-WELL-KNOWN-PUBKEY'], 'the public key is served as a JWK', async () => {
 *   const r = expectOk(await operator().publicKey(), 'GET the public key');
 *   assertThat(typeof r === 'object', 'the public key body is a JSON object');
 * });
 * ```
 */
export function check(
  slug: string,
  ids: string[],
  title: string,
  fn: () => void | Promise<void>,
  options: CheckOptions = {},
): Mocha.Test {
  if (ids.length === 0) throw new Error(`check "${title}": name at least one requirement ID`);
  const channel = definingChannel;
  const checkSlug = [channel, normalizeSlug(slug)].filter(Boolean).join('/');
  if (registeredSlugs.has(checkSlug))
    throw new Error(`check "${title}": the check id "${checkSlug}" is used twice`);
  registeredSlugs.add(checkSlug);
  const outcome: CheckOutcome = {
    requirements: [...ids],
    slug: checkSlug,
    ...(channel ? { channel } : {}),
    ...(options.shares && options.shares.length > 0 ? { shares: [...options.shares] } : {}),
    ...(options.alone ? { alone: true } : {}),
    ...(options.long ? { long: true } : {}),
  };
  const baseSlug = normalizeSlug(slug);
  outcomesBySlug.set(baseSlug, [...(outcomesBySlug.get(baseSlug) ?? []), outcome]);
  applyDeclarations(baseSlug, outcome);
  const test = it(`[${ids.join(' ')}] ${title}`, async function () {
    const timeout = this.timeout();
    const deadline = timeout > 0 ? Date.now() + timeout : undefined;
    // each attempt sets the outcome and deadline, and clears them before its cleanups run
    const own: CheckScope = { outcome: undefined, deadline: undefined, cleanups: [], notes: [] };
    let thrown: unknown;
    const retaken: string[] = [];
    await inScope(own, async () => {
      for (let attempt = 1; ; attempt++) {
        const started = Date.now();
        own.outcome = outcome;
        own.deadline = deadline;
        thrown = undefined;
        try {
          await fn();
        } catch (err) {
          thrown = err ?? new Error('the check threw undefined');
        } finally {
          own.outcome = undefined;
          own.deadline = undefined;
          await runCleanups(own);
        }
        // another attempt when the cause lay in this machine, while the timeout leaves room for one
        const room = deadline === undefined || Date.now() + 2 * (Date.now() - started) < deadline;
        if (!(thrown instanceof RetakeSignal) || attempt >= CHECK_ATTEMPTS || !room) break;
        retaken.push(`attempt ${attempt}: ${getRunContext().recorder.redact(thrown.brief)}`);
        own.notes = [];
      }
    });
    const verdict = classifyFailure(thrown, ids, getRunContext().level);
    if (retaken.length > 0) {
      const taken = `taken ${retaken.length + 1} times (${retaken.join('; ')})`;
      if (verdict.message !== undefined) verdict.message = `${verdict.message}; ${taken}`;
      else if (verdict.skip_reason !== undefined) verdict.skip_reason = `${verdict.skip_reason}; ${taken}`;
      else own.notes.push(taken);
    }
    Object.assign(outcome, verdict);
    if (verdict.state === 'passed' && own.notes.length > 0) outcome.message = own.notes.join('; ');
    // mocha is told only what it acts on: a skip, and a failure or error (for --bail)
    if (verdict.state === 'skipped') this.skip();
    if (verdict.state === 'failed' || verdict.state === 'error') throw thrown;
  });
  (test as { [CHECK_OUTCOME]?: CheckOutcome })[CHECK_OUTCOME] = outcome;
  if (options.timeoutMs !== undefined) test.timeout(options.timeoutMs);
  return test;
}

/**
 * Registers the wallet checks written by `fn` once per configured wallet channel (HTTP harness,
 * stdio command: profile section 3), each group in a `describe("through <channel>")` and each
 * result labelled by its channel. With no wallet channel, one skipped test says so.
 * @example
 * ```ts
 * forEachWalletChannel((wallet) => {
 *   check('expired-rejected', ['CPR-7-EXPIRED-REJECTED'], 'an expired request is rejected', async () => {
 *     expectDeriveError(await wallet.derive({ cpr: expired, context }), 'EXPIRED');
 *   });
 * });
 * ```
 */
export function forEachWalletChannel(fn: (wallet: WalletDriver, channel: WalletChannel) => void): void {
  const wallets = getRunContext().drivers.wallets ?? [];
  if (wallets.length === 0) {
    const outcome: CheckOutcome = {
      requirements: [],
      slug: 'no-wallet-channel',
      state: 'skipped',
      skip_reason:
        'no wallet channel is configured (set wallet.harness_url or wallet.command, or provide a wallet driver)',
    };
    const test = it('wallet checks', function () {
      this.skip();
    });
    (test as { [CHECK_OUTCOME]?: CheckOutcome })[CHECK_OUTCOME] = outcome;
    return;
  }
  for (const wallet of wallets) {
    describe(`through ${wallet.channel}`, () => {
      definingChannel = wallet.channel;
      try {
        fn(wallet, wallet.channel);
      } finally {
        definingChannel = undefined;
      }
    });
  }
}

/** The payee driver; skips the check when the run has none. */
export function payee(): PayeeDriver {
  return getRunContext().drivers.payee ?? skip('no payee is configured (the "payee" section of the config)');
}

/** The Operator driver; skips the check when the run has none. */
export function operator(): OperatorDriver {
  return (
    getRunContext().drivers.operator ??
    skip('no operator is configured (the "operator" section of the config)')
  );
}

/**
 * A mock payee for this check (stopped when the check ends), serving CPRs over HTTPS with a
 * certificate signed by the suite CA the wallet trusts (profile section 3). Skips the check when
 * the config names no suite CA (`tls.suite_ca_cert_file`, `tls.suite_ca_key_file`).
 * @example
 * ```ts
 * const mock = await mockPayee();
 * const { uri, token } = mock.offer(validCpr);
 * expectOk(await wallet.derive({ uri, context }), 'derivation from a reference URI');
 * assertThat(mock.retrievals(token) === 1, 'the wallet retrieved the CPR once');
 * ```
 */
export async function mockPayee(): Promise<MockPayee> {
  const mock =
    (await startMockPayee()) ??
    skip(
      'no suite CA is configured (tls.suite_ca_cert_file and tls.suite_ca_key_file): a mock payee is needed',
    );
  onCheckEnd(() => mock.close());
  return mock;
}

/**
 * fast-check parameters of this run: `{ seed, numRuns }` from `--seed` and `--runs`.
 * Prefer {@link assertProperty}, which also records the seed, path and counterexample.
 */
export function propertyOptions(): { seed: number; numRuns: number } {
  const { seed, runs } = getRunContext();
  return { seed, numRuns: runs };
}

/** Options of {@link assertProperty} beside fast-check's own. */
export interface PropertyOptions<Ts>
  extends Partial<Pick<fc.Parameters<Ts>, 'numRuns' | 'endOnFailure' | 'verbose'>> {
  /**
   * Runs before every run of the predicate, shrinking runs and the final replay included: reset
   * here whatever state the predicate builds (caches, seen-sets, fresh payees), so nothing one
   * case did survives into another or into shrinking.
   */
  freshState?: () => void | Promise<void>;
  /**
   * The runs are independent of one another: each makes its own requests (its own ids, packs,
   * contexts) and reads nothing another run made, so they may overlap. In a child of
   * `cprc run --jobs` up to `propertyLanes` runs are then in flight at once (a serial run makes
   * them one at a time). The values are those a serial run generates, in the same order, and
   * their exchanges are kept in that order; when a run fails, the property is run again one run
   * at a time, so that it fails, shrinks and reports exactly as in a serial run (a run that failed
   * only beside others leaves the serial verdict and a note saying so). Not with `freshState`,
   * which resets state the runs share.
   */
  overlap?: boolean;
}

/**
 * Runs a fast-check property with the run's seed and runs. When it fails, the check fails with
 * the assertion that failed on the shrunk counterexample (not only "Property failed after N
 * tests"), the result records the seed, replay path, counterexample and that assertion, and the
 * evidence is the exchanges of the counterexample itself: the predicate is replayed once on it
 * (after `freshState`, with the recorder cleared), its exchanges marked `counterexample`, the last
 * one `failing`. A transport error inside the property makes the check an `error`. With a fixed
 * `--seed` the same cases run in the same order, so a deterministic target gets the same verdict.
 * @example
 * ```ts
 * check('rejects-other-version', ['CPR-2.1-VERSION'], 'a wallet rejects any other cpr_version', async () => {
 *   const seen = new Set<string>();
 *   await assertProperty(
 *     fc.asyncProperty(fc.string(), async (v) => {
 *       const r = await wallet.derive({ cpr: { ...valid, cpr_version: v }, context });
 *       assertThat(v === 'CPR-1.0' || !r.ok, `cpr_version ${JSON.stringify(v)} is rejected`);
 *     }),
 *     { freshState: () => seen.clear() },
 *   );
 * });
 * ```
 */
export async function assertProperty<Ts>(
  property: fc.IAsyncProperty<Ts> | fc.IProperty<Ts>,
  options: PropertyOptions<Ts> = {},
): Promise<void> {
  const { freshState, overlap, ...overrides } = options;
  if (overlap && freshState)
    throw new Error('assertProperty: a property with freshState has runs that share state; drop overlap');
  const opts = { ...propertyOptions(), ...overrides };
  // Every run (generated, shrinking, replay) starts with freshState, then the property's own hook.
  const prop: fc.IAsyncProperty<Ts> = {
    isAsync: () => true,
    generate: (mrng, runId) => property.generate(mrng, runId),
    shrink: (value) => property.shrink(value),
    run: async (value) => property.run(value),
    runBeforeEach: async () => {
      await freshState?.();
      await property.runBeforeEach();
    },
    runAfterEach: async () => {
      await property.runAfterEach();
    },
  };
  // Against a live target, shrinking a failure can take far longer than the runs themselves:
  // stop it (with the counterexample shrunk so far) well before the check's own timeout would,
  // counted from what is left of the check's time (a check may run several properties, and one
  // that shrinks must leave the others time to run and the check time to report).
  const { recorder, timeoutMs } = getRunContext();
  const deadline = scope().deadline;
  const left = deadline === undefined ? timeoutMs : deadline - Date.now();
  // kept for what follows the property: the replay of a counterexample, the check's other work
  const budget = left - Math.min(PROPERTY_RESERVE_MS, timeoutMs * PROPERTY_RESERVE_SHARE);
  if (budget <= 0) {
    throw new PropertyOutOfTime(
      `the property had no time left to run (${Math.max(0, Math.round(left))} ms of the check's time left; the check's timeout is --timeout or timeouts.test_ms)`,
    );
  }
  let timeLimit = Math.max(1, Math.floor(budget * PROPERTY_TIME_SHARE));
  const outcome = scope().outcome;
  const info: NonNullable<CheckOutcome['property']> = { seed: opts.seed, num_runs: opts.numRuns };
  let overlapped: OverlappedFailure | undefined;
  const lanes = getRunContext().propertyLanes ?? 1;
  if (overlap && lanes > 1) {
    const started = Date.now();
    const result = await overlappingRuns(prop, opts, lanes, timeLimit);
    if (result === 'passed') {
      if (outcome) outcome.property = info;
      return;
    }
    overlapped = result;
    // made again one run at a time: fast-check then fails and shrinks it as a serial run does
    timeLimit = Math.max(1, timeLimit - (Date.now() - started));
  }
  const details = await fc.check(prop, { ...opts, interruptAfterTimeLimit: timeLimit });
  if (outcome) outcome.property = info;
  if (overlapped?.failure && !details.failed && !details.interrupted) {
    // Every run passed one at a time, yet one failed beside others: the target's answer depends
    // on what else it is answering. The verdict stays the serial run's (a check grades its
    // requirement, and answers that change under overlap are the concurrency checks' to grade:
    // the races, the wallet's concurrent derivations); what was seen is said in the result.
    const assertion = getRunContext().recorder.redact(failureText(overlapped.failure).split('\n')[0] ?? '');
    note(
      `run ${overlapped.run + 1} of ${opts.numRuns} (${fc.stringify(overlapped.value).slice(0, 200)}) failed while up to ${lanes} runs were in flight at once and passed when the runs were made again one at a time, as in a serial run: ${assertion}`,
    );
  }
  if (details.interrupted && details.counterexample === null) {
    // fewer runs than asked, none failing (fast-check calls it failed when none had finished): no
    // verdict either way, neither a pass claiming runs never made nor a failure without a case
    throw new PropertyOutOfTime(
      `the property ran out of the check's time after ${details.numRuns} of ${opts.numRuns} runs (${timeLimit} ms left to it; the check's timeout is --timeout or timeouts.test_ms)`,
    );
  }
  if (!details.failed) return;
  if (isTransportError(details.errorInstance)) throw details.errorInstance;
  if (details.counterexamplePath !== null) info.path = details.counterexamplePath;
  const counterexample = details.counterexample;
  if (counterexample !== null) info.counterexample = fc.stringify(counterexample);
  let assertion = failureText(details.errorInstance);
  if (counterexample !== null) {
    // Replay the shrunk counterexample alone: its exchanges are the evidence (not other cases').
    recorder.take();
    let replay: Awaited<ReturnType<typeof prop.run>>;
    try {
      await prop.runBeforeEach();
      replay = await prop.run(counterexample);
      await prop.runAfterEach();
    } catch (err) {
      replay = { error: err };
    }
    const exchanges: Exchange[] = recorder.take().map((e) => ({ ...e, counterexample: true }));
    const last = exchanges.at(-1);
    if (last) last.failing = true;
    if (outcome) outcome.exchanges = exchanges;
    if (replay === null || fc.PreconditionFailure.isFailure(replay)) {
      assertion += ' (the counterexample passed when replayed alone: the target is not deterministic)';
    } else if (isTransportError(replay.error)) {
      throw replay.error;
    }
  }
  info.error = getRunContext().recorder.redact(assertion);
  const where = `counterexample ${info.counterexample ?? '(none)'} after ${details.numRuns} runs and ${details.numShrinks} shrinks; seed ${opts.seed}${info.path !== undefined ? `, path ${info.path}` : ''}`;
  throw new AssertionError({ message: `${assertion} [property: ${where}]` });
}

/**
 * Does `work` on every item and hands each answer to `judge` in the items' order: what a loop of
 * `judge(await work(item))` does in a serial run. In a child of `cprc run --jobs` the items' work
 * overlaps (up to `propertyLanes` at once; the work of one item must not depend on another's),
 * and the answers are judged in the items' order with their exchanges kept in that order. From
 * the first item whose work threw or whose judge failed, the loop goes on one item at a time, as
 * a serial run does (that item's work made again): so the verdict and the evidence are a serial
 * run's, and an item that failed only beside others leaves a note saying so.
 * @example
 * ```ts
 * await eachOverlapping(mutated, (m) => wallet.derive({ cpr: m.cpr, context: deriveContext() }),
 *   (r, m) => expectRejectionCode(r, m.codes, m.mutation));
 * ```
 */
export async function eachOverlapping<T, R>(
  items: readonly T[],
  work: (item: T, index: number) => Promise<R>,
  judge: (result: R, item: T, index: number) => void | Promise<void> = () => undefined,
): Promise<R[]> {
  const lanes = getRunContext().propertyLanes ?? 1;
  const results: R[] = [];
  let from = 0;
  let beside: unknown;
  if (lanes > 1 && items.length > 1) {
    const done = await inLanes(
      items.length,
      lanes,
      async (i) => {
        try {
          return { ok: true as const, value: await work(items[i] as T, i) };
        } catch (error) {
          return { ok: false as const, error };
        }
      },
      (answer) => !answer.ok, // nothing after an item whose work threw is started
    );
    const { recorder } = getRunContext();
    for (; from < items.length; from++) {
      const d = done[from];
      if (d === undefined) break;
      if (!d.answer.ok) {
        beside = d.answer.error;
        break;
      }
      try {
        await judge(d.answer.value, items[from] as T, from);
      } catch (err) {
        beside = err;
        break;
      }
      recorder.keep(d.exchanges);
      results.push(d.answer.value);
    }
  }
  // one at a time: a serial run, or what follows an item that failed beside others
  for (let i = from; i < items.length; i++) {
    const r = await work(items[i] as T, i);
    await judge(r, items[i] as T, i);
    results.push(r);
    if (i === from && beside !== undefined) {
      const said = beside instanceof Error ? beside.message.split('\n')[0] : String(beside);
      note(
        `item ${i + 1} of ${items.length} failed while up to ${lanes} were in flight at once and passed when made again alone, as in a serial run: ${getRunContext().recorder.redact(said ?? '')}`,
      );
    }
  }
  return results;
}

/** A run that did not pass when runs overlapped: its value, and its failure (none for a transport error or a precondition). */
interface OverlappedFailure {
  run: number;
  value: unknown;
  failure?: unknown;
  exchanges: Exchange[];
}

/**
 * The property's runs on the values a serial `fc.check` generates (same seed, same order), up to
 * `lanes` of them in flight at once. Every run's exchanges are recorded apart and, when all pass,
 * put in the recorder in the order of the runs (the evidence of a serial run). Ends at the first
 * run that does not pass (none is started after it), its exchanges left out of the recorder.
 */
async function overlappingRuns<Ts>(
  prop: fc.IAsyncProperty<Ts>,
  opts: { seed: number; numRuns: number },
  lanes: number,
  timeLimit: number,
): Promise<'passed' | OverlappedFailure> {
  // The values, drawn as fast-check's runner draws them: a dry run whose predicate keeps each one
  // (what a run is given never depends on what the runs before it did, until one fails).
  const values: Ts[] = [];
  fc.check(
    {
      isAsync: () => false,
      generate: (mrng, runId) => prop.generate(mrng, runId),
      shrink: (value) => prop.shrink(value),
      run: (value) => {
        values.push(value);
        return null;
      },
      runBeforeEach: () => undefined,
      runAfterEach: () => undefined,
    },
    { seed: opts.seed, numRuns: opts.numRuns },
  );
  const deadline = Date.now() + timeLimit;
  const done = await inLanes(
    values.length,
    lanes,
    async (run) => {
      if (Date.now() >= deadline) return OUT_OF_TIME;
      try {
        await prop.runBeforeEach();
        const r = await prop.run(values[run] as Ts);
        await prop.runAfterEach();
        return r;
      } catch (error) {
        return { error };
      }
    },
    (answer) => answer !== null, // none is started after a run that did not pass
  );
  // the first failing run in the runs' order is the one a serial run meets first
  for (const [run, d] of done.entries()) {
    if (d === undefined || d.answer === null || d.answer === OUT_OF_TIME) continue;
    const out = d.answer;
    const failure =
      fc.PreconditionFailure.isFailure(out) || isTransportError(out.error) ? undefined : out.error;
    return { run, value: values[run], exchanges: d.exchanges, ...(failure !== undefined ? { failure } : {}) };
  }
  const passed = done.filter((x): x is NonNullable<typeof x> => x?.answer === null);
  if (passed.length < values.length) {
    throw new PropertyOutOfTime(
      `the property ran out of the check's time after ${passed.length} of ${opts.numRuns} runs (${timeLimit} ms left to it; the check's timeout is --timeout or timeouts.test_ms)`,
    );
  }
  const { recorder } = getRunContext();
  for (const x of passed) recorder.keep(x.exchanges);
  return 'passed';
}

/** What a run of {@link overlappingRuns} gives when the property's time was up before it started. */
const OUT_OF_TIME = Symbol('out of time');

/**
 * Starts `task(0)`, `task(1)`, ... `task(count - 1)` in that order, at most `lanes` at once, each
 * recording its exchanges apart ({@link Recorder.collect}); once a finished task's answer makes
 * `stop` true no further task starts (those started end). `task` does not throw. Returns each
 * started task's answer and exchanges, by index.
 */
async function inLanes<A>(
  count: number,
  lanes: number,
  task: (index: number) => Promise<A>,
  stop: (answer: A) => boolean,
): Promise<Array<{ answer: A; exchanges: Exchange[] } | undefined>> {
  const { recorder } = getRunContext();
  const done: Array<{ answer: A; exchanges: Exchange[] } | undefined> = [];
  let next = 0;
  let stopped = false;
  const lane = async (): Promise<void> => {
    while (!stopped && next < count) {
      const i = next++;
      const { value: answer, exchanges } = await recorder.collect(() => task(i));
      done[i] = { answer, exchanges };
      if (stop(answer)) stopped = true;
    }
  };
  await Promise.all(Array.from({ length: Math.min(lanes, count) }, lane));
  return done;
}

/**
 * A property that ran out of its check's time before it failed or made all its runs: no verdict
 * (the check is an `error`, unless another of its cases failed: see the wallet's `allCases`).
 */
export class PropertyOutOfTime extends Error {
  override name = 'PropertyOutOfTime';
}

/** Share of what is left of a check's time that one property (its runs and shrinking) may take. */
const PROPERTY_TIME_SHARE = 0.8;
/** Time a property leaves to the rest of its check: this much, at most this share of the timeout. */
const PROPERTY_RESERVE_MS = 10_000;
const PROPERTY_RESERVE_SHARE = 0.15;

/** The assertion a failed property reports: the message of the error its predicate threw. */
function failureText(error: unknown): string {
  if (error instanceof Error) {
    const m = error.message.trim();
    return m === '' ? `${error.name} with no message` : m;
  }
  if (error === undefined || error === null) return 'the predicate returned false';
  return String(error);
}

/**
 * What a harness answer said, for messages: `a success (HTTP 201)`, or the error's HTTP status,
 * code and message.
 *
 * @example
 * ```ts
 * answerSaid(await payee.createRequest(body)); // 'HTTP 400, INVALID_REQUEST, "memo too long"'
 * ```
 */
export function answerSaid(r: HarnessResult<unknown>): string {
  if (r.ok) return `a success (HTTP ${r.status ?? '?'})`;
  const e: DriverError = r.error;
  return [e.status && `HTTP ${e.status}`, e.code ?? 'no code', e.message && JSON.stringify(e.message)]
    .filter(Boolean)
    .join(', ');
}

/**
 * Fails the check with `message` unless `condition` holds. Write `message` as the requirement
 * that was expected ("the body is a JSON object"); the actual value can follow.
 */
export function assertThat(condition: unknown, message: string): asserts condition {
  if (!condition) throw new AssertionError({ message });
}

function describeError(e: DriverError | undefined): string {
  if (!e) return 'no error details';
  const parts: string[] = [];
  if (e.status !== undefined) parts.push(`HTTP ${e.status}`);
  if (e.code !== undefined) parts.push(`code ${e.code}`);
  if (e.message) parts.push(JSON.stringify(e.message));
  return parts.join(', ') || 'no error details';
}

/** A result a driver returned: either a success or an error answer. */
export type AnyResult =
  | { ok: true; status?: number }
  | { ok: false; error?: DriverError; status?: number }
  | { ok: boolean; status?: number; error?: DriverError; body?: unknown };

/**
 * Asserts a driver result is a success and returns its value (`cpr`, `payment`, `value` or `body`).
 * @example
 * ```ts
 * const cpr = expectOk(await payee().retrieve(uri), 'the first retrieval');
 * ```
 */
export function expectOk<R extends AnyResult>(result: R, what: string): SuccessValue<R> {
  if (!result.ok) {
    const err = (result as { error?: DriverError }).error;
    throw new AssertionError({ message: `${what}: expected success, got an error (${describeError(err)})` });
  }
  const r = result as Record<string, unknown>;
  for (const key of ['cpr', 'payment', 'value', 'body'] as const) {
    if (key in r) return r[key] as SuccessValue<R>;
  }
  return undefined as SuccessValue<R>;
}

/** The success member(s) of a result union (all of it when `ok` is a plain boolean). */
type OkPart<R> = [Extract<R, { ok: true }>] extends [never] ? R : Extract<R, { ok: true }>;

/** What a success carries: `cpr`, `payment`, `value` or `body`. */
type CarriedValue<X> = X extends { cpr: infer C }
  ? C
  : X extends { payment: infer P }
    ? P
    : X extends { value: infer V }
      ? V
      : X extends { body: infer B }
        ? B
        : unknown;

/** The value carried by a success result (see {@link expectOk}). */
export type SuccessValue<R> = CarriedValue<OkPart<R>>;

/**
 * Asserts a driver result is an error answer (SPEC: "returns an error"), whatever its code.
 */
export function expectError(result: AnyResult, what: string): DriverError {
  if (result.ok) throw new AssertionError({ message: `${what}: expected an error, got a success` });
  return (result as { error?: DriverError }).error ?? {};
}

/**
 * Asserts a driver result is an error with `code` (the error body's `error.code`).
 * @example
 * ```ts
 * expectErrorCode(await operator().issue(replayed), 'DUPLICATE_ID');
 * ```
 */
export function expectErrorCode(result: AnyResult, code: string, what = 'the answer'): DriverError {
  const err = expectError(result, `${what} (expected error code ${code})`);
  if (err.code !== code) {
    throw new AssertionError({
      message: `${what}: expected error code ${code}, got ${err.code === undefined ? 'no code' : err.code} (${describeError(err)})`,
    });
  }
  return err;
}

/**
 * Asserts the HTTP status of a result (a PROFILE check). When the driver reports no status (a
 * custom binding), the check is skipped with that reason rather than failed.
 * @example
 * ```ts
 * expectStatus(await payee().retrieve(uri), 410);
 * ```
 */
export function expectStatus(result: AnyResult, status: number, what = 'the answer'): void {
  const actual = result.status ?? (result as { error?: DriverError }).error?.status;
  if (actual === undefined)
    skip('the driver reports no HTTP status (custom binding); PROFILE check not applicable');
  if (actual !== status) {
    const err = (result as { error?: DriverError }).error;
    throw new AssertionError({
      message: `${what}: expected HTTP ${status}, got HTTP ${actual}${err ? ` (${describeError(err)})` : ''}`,
    });
  }
}

/**
 * Asserts a wallet derivation was rejected with `code` (profile section 3) and a non-empty message.
 */
export function expectDeriveError(
  result: Awaited<ReturnType<WalletDriver['derive']>>,
  code: string,
  what = 'the derivation',
): void {
  if (result.ok)
    throw new AssertionError({ message: `${what}: expected rejection with ${code}, got a payment` });
  if (result.error.code !== code) {
    throw new AssertionError({
      message: `${what}: expected error code ${code}, got ${result.error.code ?? 'no code'} (${describeError(result.error)})`,
    });
  }
  if (typeof result.error.message !== 'string' || result.error.message.trim() === '') {
    throw new AssertionError({ message: `${what}: the ${code} rejection carries no message for a person` });
  }
}
