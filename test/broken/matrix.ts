// Prints the self-test matrix: each deliberately broken implementation with the requirement IDs it
// must trip and the ones it did trip, and each permitted variant with what it tripped (nothing, when
// it passes). `npm run selftest:matrix` runs them all (exit 1 on any mismatch); `--only <id,...>`
// runs a subset; `--markdown` prints the tables of docs/selftest-matrix.md; `--from DIR` renders
// from the runs an `npm run selftest` recorded with CPRC_SELFTEST_RECORD=DIR instead of running them again.

import { allVariants } from '../variants/all.js';
import { allFaults } from './all.js';
import { type RecordedRun, readRecordedRuns } from './matrix-record.js';
import { runFault, runVariant } from './run-fault.js';

const args = process.argv.slice(2);
const markdown = args.includes('--markdown');
const flagValue = (flag: string): string | undefined => {
  const at = args.indexOf(flag);
  return at >= 0 ? args[at + 1] : undefined;
};
const only = flagValue('--only') ? new Set((flagValue('--only') ?? '').split(',')) : undefined;
const from = flagValue('--from');

function same(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Whether a recorded run is what the self-test demands. */
function ok(run: RecordedRun): boolean {
  if (run.kind === 'variant')
    return run.tripped.length === 0 && run.problems.length === 0 && run.exitCode === 0;
  return (
    same(run.tripped, run.expected) && run.mustWarnings.length === 0 && run.exitCode === run.expectedExitCode
  );
}

/**
 * The fault classes of the verdicts issue, recognised from a broken implementation's id (each id
 * names its fault): the first class whose pattern matches.
 */
const CLASSES: ReadonlyArray<[string, RegExp]> = [
  [
    'an answer that is not a profile answer',
    /garbage|non-json|truncated|redirect|-302|-500|html|text-plain|wrong-shape|dies|harness-200|-203|-202|content-type/,
  ],
  [
    'limits at their boundaries',
    /limit|cap|exclusive|over-900|depth|ttl|validity|narrowed|lenient|max-|exact-balance|off-by-one/,
  ],
  ['timestamps, expiry and clocks', /offset|timestamp|clock|expir|grace|early|never-expires|stale|sweep/],
  [
    'required members and shapes',
    /missing|omitted|optional|shape|string|number|type|blank|empty|format|coerced|unsigned|signature/,
  ],
  ['money flows', /refund|balance|funds|money/],
  ['payer data and separation', /payer|retrieval-echo|leak|authorization|state|context-rail|descriptor/],
  ['text lengths', /memo|utf16|length|remittance/],
  [
    'replays, races and single use',
    /replay|race|reuse|duplicate|second|repeated|idempotent|per-pack|sequential|entropy|token/,
  ],
];

function classOf(id: string): string {
  return CLASSES.find(([, re]) => re.test(id))?.[0] ?? 'other protocol rules';
}

let runs: RecordedRun[] = [];
if (from) {
  runs = (await readRecordedRuns(from)).filter((r) => !only || only.has(r.id));
} else {
  for (const fault of allFaults.filter((f) => !only || only.has(f.id))) {
    const run = await runFault(fault);
    runs.push({ kind: 'broken', fault: fault.fault, ...run });
    if (!markdown) printRun(runs[runs.length - 1] as RecordedRun);
  }
  for (const variant of allVariants.filter((v) => !only || only.has(v.id))) {
    const run = await runVariant(variant);
    runs.push({ kind: 'variant', choice: variant.choice, clause: variant.clause, ...run });
    if (!markdown) printRun(runs[runs.length - 1] as RecordedRun);
  }
}

function printRun(run: RecordedRun): void {
  const what = run.kind === 'broken' ? run.fault : `(permitted) ${run.choice}`;
  process.stdout.write(`${ok(run) ? 'ok  ' : 'FAIL'} ${run.id} (exit ${run.exitCode}): ${what}\n`);
  process.stdout.write(`     tripped: ${run.tripped.join(' ') || '(none)'}\n`);
  if (!ok(run)) {
    if (run.kind === 'broken') process.stdout.write(`     expected: ${run.expected.join(' ') || '(none)'}\n`);
    for (const p of [...(run.kind === 'broken' ? run.mustWarnings : []), ...run.problems])
      process.stdout.write(`       ${p}\n`);
  }
}

if (from && !markdown) for (const run of runs) printRun(run);

const cell = (s: string): string => s.replace(/\|/g, '\\|');
if (markdown) {
  const broken = runs.filter((r) => r.kind === 'broken');
  const variants = runs.filter((r) => r.kind === 'variant');
  const targets = ['payee', 'wallet', 'operator'] as const;
  process.stdout.write(
    '## Counts\n\n| target | broken implementations | caught exactly | permitted variants | passing |\n|---|---|---|---|---|\n',
  );
  for (const t of targets) {
    const b = broken.filter((r) => r.target === t);
    const v = variants.filter((r) => r.target === t);
    process.stdout.write(
      `| ${t} | ${b.length} | ${b.filter(ok).length} | ${v.length} | ${v.filter(ok).length} |\n`,
    );
  }
  process.stdout.write(
    "\n| fault class (from the broken implementation's id) | payee | wallet | operator |\n|---|---|---|---|\n",
  );
  const classes = [...CLASSES.map(([c]) => c), 'other protocol rules'];
  for (const c of classes) {
    const n = (t: string): number => broken.filter((r) => r.target === t && classOf(r.id) === c).length;
    process.stdout.write(`| ${c} | ${n('payee')} | ${n('wallet')} | ${n('operator')} |\n`);
  }
  process.stdout.write(
    '\n## Broken implementations\n\n| target | broken implementation | fault | checks tripped (requirement IDs) | match |\n|---|---|---|---|---|\n',
  );
  for (const r of broken) {
    process.stdout.write(
      `| ${r.target} | \`${r.id}\` | ${cell(r.fault)} | ${r.tripped.map((t) => `\`${t}\``).join(' ')} | ${ok(r) ? 'yes' : '**no**'} |\n`,
    );
  }
  process.stdout.write(
    '\n## Permitted variants\n\n| target | permitted variant | allowed choice | clause | non-passing checks | passes |\n|---|---|---|---|---|---|\n',
  );
  for (const r of variants) {
    process.stdout.write(
      `| ${r.target} | \`${r.id}\` | ${cell(r.choice)} | ${cell(r.clause)} | ${r.tripped.map((t) => `\`${t}\``).join(' ') || 'none'} | ${ok(r) ? 'yes' : '**no**'} |\n`,
    );
  }
}
const bad = runs.filter((r) => !ok(r));
process.stdout.write(
  `\n${runs.length - bad.length} passed, ${bad.length} failed (broken implementations tripping exactly their checks, permitted variants passing)\n`,
);
process.exitCode = bad.length === 0 ? 0 : 1;
