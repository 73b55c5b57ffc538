// `npm run mutation [-- <StrykerJS options>]` (docs/mutation.md): mutation testing of the reference
// implementations and the validator with StrykerJS (stryker.config.mjs), incremental by default
// (reports/stryker-incremental.json), then the score per scope from reports/mutation/mutation.json.
//
//   npm run mutation                                    incremental: only what changed is re-run
//   npm run mutation -- --force                         every mutant again
//   npm run mutation -- --mutate 'src/reference/payee/**/*.ts'    one scope (or one file)
//   npm run mutation -- --concurrency 1                 any other StrykerJS option
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatScores, scoreReport } from './mutation-score.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  process.stdout.write(
    'usage: npm run mutation [-- --force] [-- --mutate <glob>] [-- <StrykerJS option>...]\n' +
      'runs StrykerJS incrementally (reports/stryker-incremental.json) and prints the score per scope\n',
  );
  process.exit(0);
}

let strykerBin;
try {
  const require = createRequire(join(root, 'package.json'));
  strykerBin = join(dirname(require.resolve('@stryker-mutator/core/package.json')), 'bin', 'stryker.js');
} catch {
  process.stderr.write('mutation: @stryker-mutator/core is not installed; run "npm ci"\n');
  process.exit(2);
}
if (!existsSync(strykerBin)) {
  process.stderr.write(`mutation: ${strykerBin} is missing; run "npm ci"\n`);
  process.exit(2);
}

const started = Date.now();
const run = spawnSync(
  process.execPath,
  [
    strykerBin,
    'run',
    'stryker.config.mjs',
    ...(args.includes('--incremental') ? [] : ['--incremental']),
    ...args,
  ],
  { cwd: root, stdio: 'inherit' },
);
const minutes = ((Date.now() - started) / 60_000).toFixed(1);
if (run.status !== 0) {
  process.stderr.write(`mutation: StrykerJS exited ${run.status ?? run.signal} after ${minutes} min\n`);
  process.exit(run.status ?? 1);
}
const reportFile = join(root, 'reports', 'mutation', 'mutation.json');
if (!existsSync(reportFile)) {
  process.stderr.write(`mutation: StrykerJS wrote no report at ${reportFile}\n`);
  process.exit(1);
}
const scopes = scoreReport(JSON.parse(readFileSync(reportFile, 'utf8')), { root });
process.stdout.write(
  `\nMutation score per scope (${minutes} min; reports/mutation/mutation.{json,html}):\n\n`,
);
process.stdout.write(`${formatScores(scopes)}\n`);
