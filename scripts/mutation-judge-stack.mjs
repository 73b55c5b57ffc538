// Worker thread of the mutation judge (scripts/mutation-judge.mjs): hosts the reference stack of
// one target, as the `cprc run --reference` parent does, in a thread of its own. Its own global
// namespace carries its own active mutant; its own `uncaughtException` handler swallows a defect
// that escapes a handler of the stack, as the cprc parent does (the checks that reach it see the
// answer missing or broken). Messages from the judge, each answered with `{ id, ok, ... }`:
//   { id, type: 'start', mutant }   start the stack with that mutant active (same CA, ports, folder),
//                                  the validator's caches (src/caches.ts) emptied
//   { id, type: 'stop' }            stop it and switch the mutant off; `lingering`: the ports it
//                                  still listens on after its close
import { createServer } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';

const { root, target, workDir, ca, mutant, ports: portsOfFirst } = workerData;
// before any instrumented module is loaded: a mutant in code that runs when a module loads is
// active from the start in a thread created for it
globalThis.__stryker__ ??= {};
const ns = globalThis.__stryker__;
ns.activeMutant = mutant ?? undefined;

process.on('uncaughtException', () => {
  // a fault of the stack under the mutant: the checks see what it answered (cprc run does the same)
});
process.on('unhandledRejection', () => {
  // as above
});

const dist = (path) => import(pathToFileURL(join(root, 'dist', path)).href);
const { startReferenceStack } = await dist('src/loopback/stack.js');
const { forgetCaches } = await dist('src/caches.js');
// what ran while the modules loaded: mutants there are active only in a thread created for them
const loadTime = Object.keys(ns.mutantCoverage?.static ?? {});

let stack;
// the ports of the judge's first stack: every later stack, in this thread or a new one, uses them
let ports = portsOfFirst;

parentPort.on('message', async (msg) => {
  const reply = (body) => parentPort.postMessage({ id: msg.id, ...body });
  try {
    if (msg.type === 'start') {
      ns.activeMutant = msg.mutant ?? undefined;
      // as in a fresh process: nothing the validator computed under another mutant
      forgetCaches();
      stack = await startReferenceStack({ workDir, targets: [target], ca, ...(ports ? { ports } : {}) });
      ports ??= portsOf(stack.config);
      reply({ ok: true, config: stack.config, configPath: stack.configPath, ports });
    } else if (msg.type === 'stop') {
      const s = stack;
      stack = undefined;
      try {
        await s?.close();
      } finally {
        ns.activeMutant = undefined;
      }
      // a stack that still listens after its close would keep a cprc run from ending
      reply({ ok: true, lingering: await stillBound(s ? Object.values(ports ?? {}) : []) });
    }
  } catch (err) {
    reply({ ok: false, message: err instanceof Error ? err.message : String(err) });
  }
});
parentPort.postMessage({ id: 0, ok: true, loadTime });

/** The ports of `list` that something still listens on (loopback, where the stack listens). */
async function stillBound(list) {
  const bound = [];
  for (const port of list) {
    const free = await new Promise((resolvePromise) => {
      const probe = createServer();
      probe.once('error', () => resolvePromise(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolvePromise(true)));
    });
    if (!free) bound.push(port);
  }
  return bound;
}

/** The port of each listener of a started stack, to start it again on the same ones. */
function portsOf(config) {
  const port = (url) => (url ? Number(new URL(url).port) : undefined);
  const out = {
    payee: port(config.payee?.base_url),
    payee_plain: port(config.payee?.plain_http_url),
    wallet: port(config.wallet?.harness_url),
    operator: port(config.operator?.base_url),
  };
  return Object.fromEntries(Object.entries(out).filter(([, p]) => p !== undefined));
}
