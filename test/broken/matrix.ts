// Prints the self-test matrix: each deliberately broken implementation, the requirement IDs it
// must trip, the ones it did trip, and whether they match. `npm run selftest:matrix`; exit 1 on
// any mismatch. `--markdown` prints the table for the README, `--only <id,...>` runs a subset.
import { allFaults } from './all.js';
import { type FaultRun, runFault } from './run-fault.js';

const args = process.argv.slice(2);
const markdown = args.includes('--markdown');
const onlyAt = args.indexOf('--only');
const only = onlyAt >= 0 ? new Set((args[onlyAt + 1] ?? '').split(',')) : undefined;
const faults = allFaults.filter((f) => !only || only.has(f.id));

function same(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

const runs: FaultRun[] = [];
for (const fault of faults) {
  const run = await runFault(fault);
  runs.push(run);
  const ok =
    same(run.tripped, run.expected) && run.mustWarnings.length === 0 && run.exitCode === run.expectedExitCode;
  if (!markdown) {
    process.stdout.write(`${ok ? 'ok  ' : 'FAIL'} ${fault.id} (exit ${run.exitCode}): ${fault.fault}\n`);
    process.stdout.write(`     tripped: ${run.tripped.join(' ') || '(none)'}\n`);
    if (!ok) {
      process.stdout.write(`     expected: ${run.expected.join(' ') || '(none)'}\n`);
      for (const p of [...run.mustWarnings, ...run.problems]) process.stdout.write(`       ${p}\n`);
    }
  }
}

const mismatches = runs.filter(
  (r) => !same(r.tripped, r.expected) || r.mustWarnings.length > 0 || r.exitCode !== r.expectedExitCode,
);
if (markdown) {
  process.stdout.write(
    '| target | broken implementation | fault | checks tripped (requirement IDs) | match |\n',
  );
  process.stdout.write('|---|---|---|---|---|\n');
  for (const [i, r] of runs.entries()) {
    const f = faults[i];
    const ok = !mismatches.includes(r);
    process.stdout.write(
      `| ${r.target} | \`${r.id}\` | ${f?.fault ?? ''} | ${r.tripped.map((t) => `\`${t}\``).join(' ')} | ${ok ? 'yes' : '**no**'} |\n`,
    );
  }
}
process.stdout.write(
  `\n${runs.length - mismatches.length} passed, ${mismatches.length} failed (faults whose run tripped exactly their checks)\n`,
);
process.exitCode = mismatches.length === 0 ? 0 : 1;
