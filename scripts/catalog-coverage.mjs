// Writes suites/catalog/coverage.json (npm run catalog:coverage): for every requirement of the
// hand-written catalog, the checks of a reference run that name it (by stable check ID) and the
// modules that declare it (validator rules, schema findings, codec table, schema x-requirement).
// Runs every suite against the reference implementations, or reads --results FILE (a results.json
// of such a run). --check exits 1 when coverage.json is stale. The catalog itself
// (suites/catalog/requirements.json) is never written. Needs `npm run build`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const check = args.includes('--check');
const resultsAt = args.indexOf('--results');

let declared;
let catalogModule;
let coverageModule;
try {
  declared = await import(join(root, 'dist/src/catalog/declared.js'));
  catalogModule = await import(join(root, 'dist/src/catalog/index.js'));
  coverageModule = await import(join(root, 'dist/src/catalog/coverage.js'));
} catch (err) {
  console.error(`catalog-coverage: dist/ is missing or stale (${err.message}); run "npm run build" first`);
  process.exit(2);
}

let results;
if (resultsAt >= 0) {
  results = JSON.parse(readFileSync(args[resultsAt + 1], 'utf8'));
} else {
  const dir = mkdtempSync(join(tmpdir(), 'cprc-coverage-'));
  const run = spawnSync(
    process.execPath,
    [join(root, 'bin/cprc.js'), 'run', '--reference', '--reports', dir, '--seed', '1', '--runs', '20'],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
  rmSync(dir, { recursive: true, force: true });
  if (run.status !== 0) {
    console.error(
      `catalog-coverage: the reference run exited ${run.status}; fix it before deriving coverage`,
    );
    process.exit(2);
  }
}

const catalogIds = catalogModule.loadCatalog().requirements.map((r) => r.id);
const next = declared.buildCoverage(catalogIds, results.tests, root);
const file = coverageModule.coveragePath();
const text = `${JSON.stringify(next, null, 2)}\n`;
let current = '';
try {
  current = readFileSync(file, 'utf8');
} catch {
  // absent: written below
}
const uncovered = Object.entries(next.requirements)
  .filter(
    ([id, c]) =>
      c.checks.length === 0 && c.modules.length === 0 && !catalogModule.requirementById(id)?.untestable,
  )
  .map(([id]) => id);

if (check) {
  if (JSON.stringify(JSON.parse(current || '{}')) !== JSON.stringify(next)) {
    console.error(
      'catalog-coverage: suites/catalog/coverage.json is stale; run "npm run catalog:coverage" and commit it',
    );
    process.exit(1);
  }
  console.log('catalog-coverage: up to date');
} else {
  writeFileSync(file, text);
  // the repository's JSON formatting (Biome), so `npm run lint` stays green
  spawnSync(
    process.execPath,
    [join(root, 'node_modules/@biomejs/biome/bin/biome'), 'format', '--write', file],
    {
      stdio: 'ignore',
    },
  );
  console.log(`catalog-coverage: wrote ${file}`);
}
if (next.unknown_requirements.length > 0) {
  console.log(`catalog-coverage: IDs missing from the catalog: ${next.unknown_requirements.join(', ')}`);
}
if (uncovered.length > 0) {
  console.log(
    `catalog-coverage: ${uncovered.length} requirements have no check, no module and no "untestable" reason: ${uncovered.join(', ')}`,
  );
}
