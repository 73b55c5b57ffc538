/**
 * The report of `npm run foreign`: detected / only warned / missed per fault, per class and per
 * target, as text for the terminal and Markdown for docs/foreign.md.
 */
import type { CheckState, Detection, FaultVerdict } from './run.js';

const ORDER: readonly Detection[] = ['detected', 'warned', 'missed', 'no-verdict'];

export interface Tally {
  detected: number;
  warned: number;
  missed: number;
  'no-verdict': number;
  total: number;
}

function tally(verdicts: readonly FaultVerdict[]): Tally {
  const t: Tally = { detected: 0, warned: 0, missed: 0, 'no-verdict': 0, total: verdicts.length };
  for (const v of verdicts) t[v.detection] += 1;
  return t;
}

/** Counts per key (a fault's class or target), keys sorted. */
export function tallyBy(
  verdicts: readonly FaultVerdict[],
  key: (v: FaultVerdict) => string,
): Array<[string, Tally]> {
  const groups = new Map<string, FaultVerdict[]>();
  for (const v of verdicts) groups.set(key(v), [...(groups.get(key(v)) ?? []), v]);
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([k, vs]) => [k, tally(vs)]);
}

export function totals(verdicts: readonly FaultVerdict[]): Tally {
  return tally(verdicts);
}

function pct(n: number, of: number): string {
  return of === 0 ? '-' : `${((100 * n) / of).toFixed(1)}%`;
}

function tallyRow(name: string, t: Tally): string {
  return `| ${name} | ${t.total} | ${t.detected} | ${t.warned} | ${t.missed} | ${t['no-verdict']} | ${pct(t.detected, t.total - t['no-verdict'])} |`;
}

const TALLY_HEAD = [
  '| | faults | detected | only warned | missed | no verdict | detected share |',
  '|---|---|---|---|---|---|---|',
];

/** What tripped, in one short cell: the checks (and their requirement IDs) that did worse. */
function trippedCell(v: FaultVerdict): string {
  if (v.detection === 'no-verdict') return `no verdict: ${(v.problem ?? '').split('\n')[0]}`;
  if (v.tripped.length === 0) return '';
  const shown = v.tripped
    .slice(0, 3)
    .map((t) => `${t.state} \`${t.id}\``)
    .join(', ');
  return v.tripped.length > 3 ? `${shown} (+${v.tripped.length - 3} more)` : shown;
}

/** The Markdown report: totals, per target, per class, then every fault. */
export function markdownReport(
  verdicts: readonly FaultVerdict[],
  meta: { seed: number; runs: number; minutes: number; clean: readonly CheckState[] },
): string {
  const sorted = [...verdicts].sort(
    (a, b) =>
      ORDER.indexOf(a.detection) - ORDER.indexOf(b.detection) ||
      a.fault.target.localeCompare(b.fault.target) ||
      a.fault.id.localeCompare(b.fault.id),
  );
  const cleanCount = (s: string) => meta.clean.filter((c) => c.state === s).length;
  const esc = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  return [
    `Seed ${meta.seed}, ${meta.runs} runs per property, ${meta.minutes.toFixed(1)} min. The clean stack: ${cleanCount('passed')} passed, ${cleanCount('failed')} failed, ${cleanCount('warning')} warnings, ${cleanCount('error')} errors, ${cleanCount('skipped')} skipped.`,
    '',
    ...TALLY_HEAD,
    tallyRow('**all**', totals(verdicts)),
    ...tallyBy(verdicts, (v) => v.fault.target).map(([k, t]) => tallyRow(k, t)),
    '',
    '| class | faults | detected | only warned | missed | no verdict | detected share |',
    '|---|---|---|---|---|---|---|',
    ...tallyBy(verdicts, (v) => v.fault.class).map(([k, t]) => tallyRow(k, t)),
    '',
    '| fault | target | class | verdict | what it breaks | tripped |',
    '|---|---|---|---|---|---|',
    ...sorted.map(
      (v) =>
        `| \`${v.fault.id}\`: ${esc(v.fault.summary)} | ${v.fault.target} | ${v.fault.class} | ${v.detection} | ${esc(v.fault.breaks)} | ${esc(trippedCell(v))} |`,
    ),
    '',
  ].join('\n');
}

/** One line per fault for the terminal, as each finishes. */
export function progressLine(v: FaultVerdict, done: number, of: number): string {
  const what =
    v.detection === 'no-verdict'
      ? (v.problem ?? '').split('\n')[0]
      : v.tripped
          .slice(0, 2)
          .map((t) => `${t.state} ${t.id}`)
          .join(', ');
  return `[${String(done).padStart(String(of).length)}/${of}] ${v.detection.padEnd(10)} ${v.fault.id} (${v.fault.target}, ${v.fault.class}, ${(v.ms / 1000).toFixed(1)} s)${what ? `: ${what}` : ''}`;
}

/** The closing summary for the terminal. */
export function textSummary(verdicts: readonly FaultVerdict[]): string {
  const line = (name: string, t: Tally) =>
    `${name.padEnd(22)} ${String(t.total).padStart(4)} faults: ${t.detected} detected, ${t.warned} only warned, ${t.missed} missed${t['no-verdict'] ? `, ${t['no-verdict']} no verdict` : ''}`;
  return [
    line('all', totals(verdicts)),
    ...tallyBy(verdicts, (v) => v.fault.target).map(([k, t]) => line(k, t)),
    ...tallyBy(verdicts, (v) => v.fault.class).map(([k, t]) => line(k, t)),
    ...verdicts
      .filter((v) => v.detection === 'missed')
      .map((v) => `missed: ${v.fault.id}: ${v.fault.summary}`),
    ...verdicts
      .filter((v) => v.detection === 'warned')
      .map((v) => `only warned: ${v.fault.id}: ${v.tripped.map((t) => t.id).join(', ')}`),
  ].join('\n');
}
