// Derives the `checks` lists of suites/catalog/requirements.json (npm run catalog:checks):
// runs every suite against the reference implementations (or reads --results FILE, a
// results.json of such a run) and records, per requirement, the tests and validator/codec
// modules that check it. --check exits 1 when the catalog is stale. Needs `npm run build`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const check = args.includes('--check');
const resultsAt = args.indexOf('--results');

let coverage;
try {
  coverage = await import(join(root, 'dist/src/catalog/coverage.js'));
} catch {
  console.error('catalog-checks: dist/ is missing or stale; run "npm run build" first');
  process.exit(2);
}

let results;
if (resultsAt >= 0) {
  results = JSON.parse(readFileSync(args[resultsAt + 1], 'utf8'));
} else {
  const dir = mkdtempSync(join(tmpdir(), 'cprc-catalog-'));
  const run = spawnSync(
    process.execPath,
    [join(root, 'bin/cprc.js'), 'run', '--reference', '--reports', dir, '--seed', '1', '--runs', '20'],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
  rmSync(dir, { recursive: true, force: true });
  if (run.status !== 0) {
    console.error(`catalog-checks: the reference run exited ${run.status}; fix it before deriving coverage`);
    process.exit(2);
  }
}

const catalogFile = join(root, 'suites/catalog/requirements.json');
const catalog = JSON.parse(readFileSync(catalogFile, 'utf8'));
const { catalog: next, changed } = coverage.withDerivedChecks(
  catalog,
  coverage.checksByRequirement(results.tests, root),
);
const uncovered = next.requirements.filter((r) => r.checks.length === 0 && !r.untestable).map((r) => r.id);

if (check) {
  if (changed.length > 0) {
    console.error(
      `catalog-checks: the checks of ${changed.length} requirements are stale: ${changed.join(', ')}`,
    );
    console.error('run "npm run catalog:checks" and commit suites/catalog/requirements.json');
    process.exit(1);
  }
  console.log('catalog-checks: up to date');
} else {
  writeFileSync(catalogFile, `${JSON.stringify(next, null, 2)}\n`);
  spawnSync(
    process.execPath,
    [join(root, 'node_modules/@biomejs/biome/bin/biome'), 'format', '--write', catalogFile],
    {
      stdio: 'ignore',
    },
  );
  console.log(`catalog-checks: ${changed.length} requirements updated`);
}
if (uncovered.length > 0) {
  console.log(
    `catalog-checks: ${uncovered.length} requirements have no check and no "untestable" reason: ${uncovered.join(', ')}`,
  );
}
