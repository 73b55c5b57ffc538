// The mutation judge of one target (docs/mutation.md, "The judge"): a process the `cpr` test
// runner (scripts/mutation-runner.mjs) starts once per worker and target, in the sandbox, which
// judges mutant after mutant without starting anything again that a mutant cannot change.
//
//   node scripts/mutation-judge.mjs <target> '<settings JSON>'     (an IPC child of the runner)
//
// A `cprc run --reference --target <target>` is two processes: the parent hosts the reference
// stack, the mocha child runs the suite. The judge keeps that split: the stack runs in a worker
// thread (scripts/mutation-judge-stack.mjs: its own mutant switch, its own fault handler), the
// suite in this thread. The suite files are loaded once; each mutant gets a fresh stack (same
// CA, ports and run config, so the clients loaded with the suite reach it), started with the
// mutant active, and one mocha run of the checks asked for, with the same reporter, seed,
// property runs, per-check timeout and bail as the cprc run (settings of the runner). A mutant in code that runs while a
// module loads: in the stack's modules, a thread created for it; in this thread's (the suites, the
// validator, the clients), the runner judges it with a real cprc run (`loadTime` of `ready`).
//
// Messages: the judge sends `{ type: 'ready', loadTime }` once, then answers each
// `{ type: 'run', mutant, grep? }` with `{ type: 'result', tests }` (the TestResult of every
// check that ran) or `{ type: 'result', noVerdict }` (the mutated stack did not start or does not
// answer the preflight: a cprc run would stop with exit 2; `final` when a cprc run is sure to end
// the same way) or `{ type: 'result', timeout }` (the
// stack did not start or stop in time: a cprc run would not finish). After a run that leaves
// anything behind (a check stopped at its timeout may still be running, an error escaped a check),
// the judge exits once it has answered, and the runner starts a new one.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import Mocha from 'mocha';

const root = process.cwd();
const target = process.argv[2];
const settings = JSON.parse(process.argv[3] ?? '{}');
const dist = async (path) => import(pathToFileURL(join(root, 'dist', path)).href);

/** How long a stack thread may take to load its modules. */
const STACK_MS = 15_000;
/**
 * How long a stack may take to start or stop before the run counts as one that does not finish:
 * the reference's stacks start in about 30 ms and stop in under 5 ms (measured in the judge),
 * so 5 s is over a hundred times that on busy cores.
 */
const STACK_ASK_MS = 5_000;

/**
 * One mutant only, on from before any module loads (the runner starts such a judge for a mutant in
 * code that runs while the suite side loads): it answers that mutant's run and exits.
 */
const once = process.env.CPR_JUDGE_ONCE === '1' ? process.env.__STRYKER_ACTIVE_MUTANT__ : undefined;
globalThis.__stryker__ ??= {};
const ns = globalThis.__stryker__;
ns.activeMutant = once;
let dirty = false;
process.on('uncaughtException', () => {
  // outside a mocha run (mocha fails the running check itself): something escaped a check
  dirty = true;
});
process.on('unhandledRejection', () => {
  dirty = true;
});

const { createCertificateAuthority } = await dist('src/loopback/tls.js');
const { loadRunConfig } = await dist('src/runner/config.js');
const { Recorder } = await dist('src/drivers/recorder.js');
const { secretsOf } = await dist('src/secrets/index.js');
const { createDefaultDrivers } = await dist('src/drivers/index.js');
const { setRunContext } = await dist('src/runner/context.js');
const { listSuiteFiles } = await dist('src/runner/files.js');
const { CprcReporter } = await dist('src/runner/reporter.js');
const { preflight } = await dist('src/runner/preflight.js');
const { resetRunState } = await dist('suites/_lib/index.js');
const { forgetCaches } = await dist('src/caches.js');

const work = mkdtempSync(join(tmpdir(), 'cprc-judge-'));
const ca = await createCertificateAuthority({ commonName: 'cpr-conformance mutation judge CA' });
const workDir = join(work, 'stack');

/**
 * The run configuration `config` with the preflight's wait for an answer cut to a check's
 * (checkTimeoutMs), where a cprc run's preflight waits the request timeout (10 s). The reference
 * answers the preflight in 10 to 40 ms. A mutated stack that answers no sooner gets no verdict
 * here (then its other observers judge it), where a cprc run would start checks that err at
 * their own timeout: the shorter wait can lose a detection, never make one. It saves 6 s per
 * mutant that makes a payee or an Operator accept connections and never answer.
 */
function preflightConfig(config) {
  const waitMs = Math.min(config.timeouts?.request_ms ?? 10_000, settings.checkTimeoutMs ?? 4000);
  return { ...config, timeouts: { ...config.timeouts, request_ms: waitMs } };
}

// ---- the stack thread -------------------------------------------------------------------------

let stackThread;
/** The ports of the first stack, which every later stack uses (the clients were built for them). */
let ports;
let nextId = 1;
const pending = new Map();

/** A new stack thread; `mutant` is active from before its modules load. */
async function newStackThread(mutant) {
  await disposeStackThread();
  const worker = new Worker(new URL('./mutation-judge-stack.mjs', import.meta.url), {
    workerData: { root, target, workDir, ca, mutant, ports },
    stdout: true,
    stderr: true,
  });
  worker.stdout.resume();
  worker.stderr.resume();
  const thread = { worker, ready: undefined, exited: false };
  worker.on('message', (msg) => {
    const p = pending.get(msg.id);
    if (p) {
      pending.delete(msg.id);
      p.resolve(msg);
    }
  });
  const onGone = (why) => {
    thread.exited = true;
    for (const [id, p] of pending) {
      pending.delete(id);
      p.resolve({ ok: false, gone: true, message: why });
    }
  };
  worker.on('error', (err) => onGone(`the stack thread failed: ${err.message}`));
  worker.on('exit', (code) => onGone(`the stack thread exited ${code}`));
  thread.ready = waitFor(0, STACK_MS);
  stackThread = thread;
  const ready = await thread.ready;
  if (!ready.ok) throw new Error(ready.message ?? 'the stack thread did not load');
  return ready;
}

async function disposeStackThread() {
  const t = stackThread;
  stackThread = undefined;
  if (t && !t.exited) await t.worker.terminate();
}

function waitFor(id, ms) {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      pending.delete(id);
      resolve({ ok: false, timedOut: true, message: `no answer in ${ms} ms` });
    }, ms);
    pending.set(id, {
      resolve: (msg) => {
        clearTimeout(timer);
        resolve(msg);
      },
    });
  });
}

function ask(type, body = {}) {
  const id = nextId++;
  const answer = waitFor(id, STACK_ASK_MS);
  stackThread.worker.postMessage({ id, type, ...body });
  return answer;
}

// ---- the suite, loaded once -------------------------------------------------------------------

// the first stack, unmutated (but for a one-shot judge): its run config is the one the suite's
// clients are built from
const first = await newStackThread(once);
const workerLoadTime = new Set(first.loadTime);
const started = await ask('start', { mutant: once });
if (!started.ok) throw new Error(`the reference stack did not start: ${started.message}`);
ports = started.ports;
const { config, configDir } = loadRunConfig(started.configPath);
const addresses = addressesOf(started.config);
const recorder = new Recorder(secretsOf(config));
const { drivers, reset: resetDrivers } = createDefaultDrivers(config, { recorder, configDir });
setRunContext({
  config,
  drivers,
  seed: settings.seed,
  runs: settings.runs,
  targets: [target],
  channels: (drivers.wallets ?? []).map((w) => w.channel),
  recorder,
  reportsDir: join(work, 'reports'),
  timeoutMs: settings.checkTimeoutMs,
  maxWaitMs: settings.maxWaitMs ?? 30_000,
  level: 'profile',
});
let results = [];
const suitesRoot = join(root, 'dist', 'suites');
const mocha = new Mocha({
  reporter: CprcReporter,
  reporterOptions: {
    suitesRoot,
    recorder,
    onResult: (r) => results.push(r),
    timeoutMs: settings.checkTimeoutMs,
    positionOf: () => undefined,
  },
  timeout: settings.checkTimeoutMs,
  // at construction: the suites take it from their parent when they load
  bail: settings.bail === true,
});
mocha.cleanReferencesAfterRun(false);
for (const f of listSuiteFiles(join(suitesRoot, target))) mocha.addFile(f);
await mocha.loadFilesAsync();
await ask('stop');
// what ran in this thread while its modules loaded (the suites, the clients, the validator)
const loadTime = Object.keys(ns.mutantCoverage?.static ?? {});

// ---- one mutant -------------------------------------------------------------------------------

async function judge({ mutant, grep }) {
  if (workerLoadTime.has(mutant) || !stackThread || stackThread.exited) {
    const ready = await newStackThread(workerLoadTime.has(mutant) ? mutant : undefined).catch((err) => ({
      ok: false,
      message: err.message,
    }));
    if (!ready.ok) return { noVerdict: `the stack thread did not load: ${ready.message}` };
  }
  let s = await ask('start', { mutant });
  if (!s.ok && !s.timedOut && /EADDRINUSE/.test(s.message ?? '')) {
    // a port of the first stack is taken: by what an earlier run left in this thread (a fresh
    // thread frees it), or by another process (the system handed it out while no stack held it)
    const ready = await newStackThread(workerLoadTime.has(mutant) ? mutant : undefined).catch((err) => ({
      ok: false,
      message: err.message,
    }));
    if (ready.ok) s = await ask('start', { mutant });
    if (!s.ok && /EADDRINUSE/.test(s.message ?? '')) {
      // not the mutant's doing: a cprc run, on ports of its own, decides
      await disposeStackThread();
      return { noVerdict: `a port of the judge's stack is taken: ${s.message}` };
    }
  }
  if (s.timedOut) return { timeout: `the mutated reference stack did not start in ${STACK_ASK_MS} ms` };
  // a cprc run starts the same code (on ports of its own): it stops before any check as well
  if (!s.ok) return { noVerdict: `the mutated reference stack did not start: ${s.message}`, final: true };
  if (addressesOf(s.config) !== addresses) {
    // the suite's clients were built for the first stack's addresses: a cprc run, whose clients
    // are built for the mutated ones, decides, unless those do not pass its preflight either
    let failed;
    try {
      const other = loadRunConfig(s.configPath);
      await preflight(preflightConfig(other.config), [target], other.configDir);
    } catch (err) {
      failed = err instanceof Error ? err : new Error(String(err));
    }
    await ask('stop');
    return failed
      ? {
          noVerdict: `the mutated reference stack's own addresses fail the preflight: ${failed.message}`,
          final: true,
        }
      : { noVerdict: 'the reference stack started on other addresses than the first one' };
  }
  if (s.config.operator) {
    // fresh identities (principals, credentials) per stack: the checks read them from the config
    const fresh = loadRunConfig(s.configPath).config.operator;
    for (const key of Object.keys(config.operator)) delete config.operator[key];
    Object.assign(config.operator, fresh);
  }
  ns.activeMutant = mutant;
  process.env.__STRYKER_ACTIVE_MUTANT__ = mutant;
  let verdict;
  try {
    try {
      await preflight(preflightConfig(config), [target], configDir);
    } catch (err) {
      // the stack started on the addresses of the first one and does not answer as the preflight
      // asks: a cprc run, starting the same code, stops at the same preflight (exit 2)
      verdict = { noVerdict: `preflight: ${err.message}`, final: true };
    }
    if (!verdict) {
      results = [];
      // as in a fresh process: the suites' memos of the target, the validator's caches
      resetRunState();
      forgetCaches();
      mocha.grep(grep || undefined);
      await new Promise((resolve) => mocha.run(() => resolve()));
      verdict = { tests: results };
      if (results.some((r) => r.state === 'error' && /^timeout: /.test(r.message ?? ''))) dirty = true;
    }
  } finally {
    ns.activeMutant = undefined;
    delete process.env.__STRYKER_ACTIVE_MUTANT__;
    // the next mutant's run gets drivers as a cprc run's would be: a wallet command started now
    // carries this mutant in its environment, and a circuit breaker opened against this mutant's
    // stack would end the next run's exchanges at once
    await resetDrivers();
  }
  const stopped = await ask('stop');
  if (!stopped.ok) {
    dirty = true;
    await disposeStackThread();
    if (stopped.timedOut)
      return { timeout: `the mutated reference stack did not stop in ${STACK_ASK_MS} ms` };
  }
  if (stopped.lingering?.length > 0) {
    // its listeners outlive its close (the thread goes, and them with it): a cprc run, whose
    // process ends when nothing is left to wait for, would not end
    await disposeStackThread();
    return {
      timeout: `the mutated reference stack still listens on ${stopped.lingering.join(', ')} after its close`,
    };
  }
  return verdict;
}

/** What the suite's clients were built for: everything but the Operator's fresh identities. */
function addressesOf(c) {
  const { base_url, harness_url } = c.operator ?? {};
  return JSON.stringify({ ...c, operator: c.operator ? { base_url, harness_url } : undefined });
}

if (once !== undefined) {
  // one-shot: the run of its mutant (with the grep of the environment), then exit
  let answer;
  try {
    answer = await judge({ mutant: once, grep: process.env.CPR_JUDGE_GREP || undefined });
  } catch (err) {
    answer = { noVerdict: `the judge failed: ${err instanceof Error ? err.message : String(err)}` };
  }
  process.send({ type: 'result', ...answer }, () => shutdown(0));
}

process.on('message', async (msg) => {
  if (msg?.type !== 'run' || once !== undefined) return;
  let answer;
  try {
    answer = await judge(msg);
  } catch (err) {
    answer = { noVerdict: `the judge failed: ${err instanceof Error ? err.message : String(err)}` };
    dirty = true;
  }
  // `leaving`: this judge exits once the answer is out (the runner starts another one)
  process.send({ type: 'result', ...answer, leaving: dirty }, () => {
    if (dirty) shutdown(0);
  });
});
process.on('disconnect', () => shutdown(0));

async function shutdown(code) {
  await disposeStackThread().catch(() => undefined);
  rmSync(work, { recursive: true, force: true });
  process.exit(code);
}

if (once === undefined) process.send({ type: 'ready', loadTime });
