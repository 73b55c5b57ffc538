// Preloaded (node --import) into every process of a coverage run of the mutation test runner
// (scripts/mutation-runner.mjs), never while judging a mutant. The code StrykerJS instrumented
// counts in globalThis.__stryker__.mutantCoverage which mutants it reached: under `static` while
// no test is current, under `perTest[<test>]` while __stryker__.currentTestId names one.
//
// The checks run in the mocha child of `cprc run`, but the code they reach runs in other
// processes too: the cprc parent (the reference stack) and the stdio wallets. So:
//   - every process started here serves a tiny control endpoint on 127.0.0.1 (registered as a
//     file in <dir>/ctl/) that sets its current test;
//   - in the mocha child (CPRC_CHILD_OPTIONS is set), a root beforeEach hook names the check that
//     is about to run to every registered process, and waits for their answers, so every hit
//     made while a check runs (and until the next one starts) is counted for that check;
//   - as it ends, every process writes its counts to <dir>/<pid>.json.
// The folder is CPR_MUTATION_COVERAGE_DIR; without it this file does nothing.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { join } from 'node:path';

const dir = process.env.CPR_MUTATION_COVERAGE_DIR;

function stryker() {
  globalThis.__stryker__ ??= {};
  return globalThis.__stryker__;
}

function setCurrentTest(id) {
  const ns = stryker();
  ns.currentTestId = id;
  ns.mutantCoverage ??= { static: {}, perTest: {} };
  ns.mutantCoverage.perTest ??= {};
  if (id !== undefined) ns.mutantCoverage.perTest[id] ??= {};
}

function tell(port, id) {
  return new Promise((resolve) => {
    const req = request(
      { host: '127.0.0.1', port, method: 'POST', path: '/current-test', timeout: 2000 },
      (res) => {
        res.resume();
        res.on('end', () => resolve(true));
      },
    );
    req.on('error', () => resolve(false));
    req.on('timeout', () => req.destroy());
    req.end(id);
  });
}

async function announce(id) {
  setCurrentTest(id);
  // a process that starts later (a stdio wallet) reads the current test from here
  writeFileSync(join(dir, 'current-test'), id ?? '');
  const ctl = join(dir, 'ctl');
  let entries = [];
  try {
    entries = readdirSync(ctl);
  } catch {
    return;
  }
  await Promise.all(
    entries.map(async (name) => {
      if (name === String(process.pid)) return;
      const port = Number(readFileSync(join(ctl, name), 'utf8'));
      // a process that has ended answers no more: forget it
      if (!(await tell(port, id))) rmSync(join(ctl, name), { force: true });
    }),
  );
}

if (dir) {
  mkdirSync(join(dir, 'ctl'), { recursive: true });
  let written = false;
  const write = () => {
    const coverage = globalThis.__stryker__?.mutantCoverage;
    if (written || !coverage) return;
    written = true;
    try {
      writeFileSync(join(dir, `${process.pid}.json`), JSON.stringify(coverage));
      rmSync(join(dir, 'ctl', String(process.pid)), { force: true });
    } catch {
      // a coverage file that cannot be written leaves those mutants uncovered; never crash the run
    }
  };
  process.on('exit', write);
  for (const sig of ['SIGTERM', 'SIGINT']) {
    process.once(sig, () => {
      write();
      // keep the default action of the signal when nobody else handles it
      if (process.listenerCount(sig) === 0) process.kill(process.pid, sig);
    });
  }

  try {
    const current = readFileSync(join(dir, 'current-test'), 'utf8');
    if (current !== '') setCurrentTest(current);
  } catch {
    // no check has started yet: what runs now counts as static
  }

  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d) => {
      body += d;
    });
    req.on('end', () => {
      setCurrentTest(body === '' ? undefined : body);
      res.end('ok');
    });
  });
  server.listen(0, '127.0.0.1', () => {
    writeFileSync(join(dir, 'ctl', String(process.pid)), String(server.address().port));
  });
  server.unref();

  if (process.env.CPRC_CHILD_OPTIONS) {
    const { default: Mocha } = await import('mocha');
    const run = Mocha.prototype.run;
    Mocha.prototype.run = function (...args) {
      this.suite.beforeEach(async function () {
        await announce(this.currentTest?.fullTitle());
      });
      return run.apply(this, args);
    };
  }
}
