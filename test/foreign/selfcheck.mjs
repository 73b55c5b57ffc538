// Self-checks of the foreign stack:
//   node test/foreign/selfcheck.mjs            clean checks, then every fault
//   node test/foreign/selfcheck.mjs --clean    clean checks only
//   node test/foreign/selfcheck.mjs --fault ID one fault (its probe, clean vs faulty)

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FAULTS } from './faults.mjs';
import { checkOperator, checkPayee, checkWallet } from './selfcheck-clean.mjs';
import { PROBES } from './selfcheck-probes.mjs';
import { startForeignStack } from './stack.mjs';

const args = process.argv.slice(2);
const only = args.includes('--fault') ? args[args.indexOf('--fault') + 1] : null;
const cleanOnly = args.includes('--clean');

async function withStack(options, fn) {
  const dir = await mkdtemp(join(tmpdir(), 'foreign-'));
  const stack = await startForeignStack({ dir, ...options });
  try {
    const ca = await readFile(stack.config.tls.ca_file, 'utf8');
    return await fn(stack.config, ca);
  } finally {
    await stack.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

let passed = 0;
let failed = 0;
async function t(name, fn) {
  try {
    await fn();
    passed += 1;
    console.log(`ok   ${name}`);
  } catch (err) {
    failed += 1;
    console.log(
      `FAIL ${name}\n     ${String(err.stack ?? err)
        .split('\n')
        .slice(0, 6)
        .join('\n     ')}`,
    );
  }
}

if (!only) {
  await withStack({}, async (cfg, ca) => {
    await checkPayee(cfg, ca, t);
    await checkWallet(cfg, ca, t, cfg.payee);
    await checkOperator(cfg, ca, t);
  });
}

if (!cleanOnly) {
  const list = only ? FAULTS.filter((f) => f.id === only) : FAULTS;
  if (list.length === 0) throw new Error(`unknown fault ${only}`);
  for (const fault of list) {
    const probe = PROBES[fault.id];
    if (!probe) {
      await t(`fault ${fault.id}: has a probe`, () => {
        throw new Error('no probe');
      });
      continue;
    }
    const targets = [fault.target];
    const clean = await withStack({ targets }, (cfg, ca) => probe(cfg, ca));
    const faulty = await withStack({ targets, fault: fault.id }, (cfg, ca) => probe(cfg, ca));
    await t(`fault ${fault.id} changes behaviour`, () => {
      const a = JSON.stringify(clean);
      const b = JSON.stringify(faulty);
      if (a === b) throw new Error(`same observation clean and faulty: ${a}`);
      if (only) console.log(`     clean:  ${a}\n     faulty: ${b}`);
    });
  }
}

console.log(`\n${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
