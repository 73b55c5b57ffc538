/**
 * vitest globalSetup (vitest.config.ts): a test run leaves no temporary folder behind (issue 10;
 * some once held a CA private key).
 *
 * How: before the first test file, the run gets a private temporary folder
 * (`<os.tmpdir()>/cprc-vitest-XXXXXX`) and `TMPDIR` (`TMP`, `TEMP`) names it. vitest starts its
 * workers after this setup with this environment, and every process they start inherits it
 * (`cprc run`, its mocha child, `npm`, Chromium, StrykerJS); `os.tmpdir()` reads `TMPDIR` on every
 * call. At teardown every entry still in that folder was made by this run and not removed: the run
 * fails (exit code 1) naming each one. The folder is then removed, so even a failing run leaves
 * nothing in the system's temporary folder (`CPRC_KEEP_TMP=1` keeps it for a look).
 *
 * Why a private folder rather than a prefix match in the shared `/tmp`: other processes create
 * `cprc-` folders there at the same time (another vitest run, a StrykerJS run judging mutants with
 * `cprc run --reference`), so an entry there cannot be attributed to this run; and a child a test
 * starts may leave an entry under any name. In a folder nobody else writes to, every entry is this
 * run's. (Every temporary folder the project creates still starts with `cprc-`, so a leak of a
 * process that ran outside a test run is recognisable in `/tmp`.)
 *
 * The project tree has scratch places of its own, shared with tools run by hand: those are
 * checked for what a test would leave there (a `cprc run` without `--reports` writes `reports/`;
 * the mutation self-test's StrykerJS sandbox is `.stryker-tmp/selftest-<pid>`).
 *
 * Not active under StrykerJS (`STRYKER_MUTATOR_WORKER`), whose vitest runner loads this
 * configuration in its own long-lived process (scripts/mutation-vitest.config.mjs).
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

/** A watched folder of the project tree and which of its entries a test run could leave. */
interface Watched {
  /** Folder, relative to the project root. */
  dir: string;
  /** Entries that count (the others belong to tools that share the folder). */
  counts(name: string): boolean;
  /** Also report an existing entry whose modification time changed (overwritten by the run). */
  changed?: boolean;
}

const REPORT_FILES = new Set(['junit.xml', 'results.json', 'summary.md', 'report.html', 'results.bundle']);

/** The project's scratch places a test could write into. */
export const WATCHED: readonly Watched[] = [
  // the default --reports of `cprc run`; `mutation/` and the incremental file are `npm run mutation`'s
  {
    dir: 'reports',
    counts: (name) => !['.gitkeep', 'mutation', 'stryker-incremental.json'].includes(name),
    changed: true,
  },
  { dir: '.cprc-tmp', counts: () => true },
  // the sandbox of test/mutation; the others are the sandboxes of `npm run mutation`
  { dir: '.stryker-tmp', counts: (name) => name.startsWith('selftest-') },
  { dir: join('node_modules', '.cache', 'cprc-tests'), counts: () => true },
  // reports or scratch folders written into the project root
  { dir: '.', counts: (name) => /^\.?cprc-/.test(name) || REPORT_FILES.has(name), changed: true },
];

/** Entries of a folder with their modification times (none when it does not exist). */
export function snapshot(dir: string): Map<string, number> {
  const entries = new Map<string, number>();
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return entries;
  }
  for (const name of names) {
    try {
      entries.set(name, statSync(join(dir, name)).mtimeMs);
    } catch {
      // removed between the listing and the stat: not there
    }
  }
  return entries;
}

/** What a run left: entries of `after` that were not in `before` (or changed, with `changed`). */
export function leftovers(
  before: ReadonlyMap<string, number>,
  after: ReadonlyMap<string, number>,
  counts: (name: string) => boolean = () => true,
  changed = false,
): string[] {
  return [...after]
    .filter(([name, mtime]) => counts(name) && (!before.has(name) || (changed && before.get(name) !== mtime)))
    .map(([name]) => name)
    .sort();
}

/** One line per leftover: its path, what it holds, and the mkdtemp prefix to search for. */
export function describeLeftover(path: string, name: string): string {
  let what = '';
  try {
    if (statSync(path).isDirectory()) {
      const inside = readdirSync(path).sort();
      what = ` (${inside.length} ${inside.length === 1 ? 'entry' : 'entries'}${inside.length > 0 ? `: ${inside.slice(0, 6).join(', ')}${inside.length > 6 ? ', ...' : ''}` : ''})`;
    }
  } catch {
    // gone meanwhile
  }
  const prefix = /^(.+-)[A-Za-z0-9]{6}$/.exec(name)?.[1];
  return `  ${path}${what}${prefix ? `  [search for '${prefix}']` : ''}`;
}

const HINT = [
  'hint: remove what a test creates whether it passes or fails: testScratchDir() of test/_support/scratch.ts',
  '(removed when the test ends), or mkdtemp in beforeAll with rm in afterAll (never at module or describe',
  'level: a -t filter skips the hooks but not the module code), or try/finally around whatever writes it;',
  'give every `cprc run` its own --reports folder. CPRC_KEEP_TMP=1 keeps the temporary folder for a look.',
].join('\n');

const ROOT = join(import.meta.dirname, '..', '..');
let privateTmp: string | undefined;
const saved: Record<string, string | undefined> = {};
const before = new Map<string, Map<string, number>>();

/** Gives the run its private temporary folder and records the project's scratch places. */
export function setup(): void {
  if (process.env.STRYKER_MUTATOR_WORKER !== undefined) return;
  for (const w of WATCHED) before.set(w.dir, snapshot(join(ROOT, w.dir)));
  privateTmp = mkdtempSync(join(tmpdir(), 'cprc-vitest-'));
  for (const name of ['TMPDIR', 'TMP', 'TEMP']) {
    saved[name] = process.env[name];
    process.env[name] = privateTmp;
  }
}

/** Fails the run naming every temporary entry it left, then removes the private folder. */
export function teardown(): void {
  if (privateTmp === undefined) return;
  const tmp = privateTmp;
  privateTmp = undefined;
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  const lines = leftovers(new Map(), snapshot(tmp)).map((name) => describeLeftover(join(tmp, name), name));
  for (const w of WATCHED) {
    const dir = join(ROOT, w.dir);
    for (const name of leftovers(before.get(w.dir) ?? new Map(), snapshot(dir), w.counts, w.changed)) {
      lines.push(describeLeftover(relative(process.cwd(), join(dir, name)) || name, name));
    }
  }
  const keep = process.env.CPRC_KEEP_TMP === '1';
  if (!keep) rmSync(tmp, { recursive: true, force: true });
  if (lines.length === 0) return;
  process.exitCode = 1;
  process.stderr.write(
    `\nFAIL temporary files: this test run left ${lines.length} ${lines.length === 1 ? 'entry' : 'entries'} behind` +
      ` (the run's TMPDIR was ${tmp}${keep ? ', kept' : ', now removed'}):\n${lines.join('\n')}\n${HINT}\n\n`,
  );
}
