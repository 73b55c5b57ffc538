// Build command of the StrykerJS sandbox (stryker.config.mjs): compiles the instrumented sources
// once (tsc emits even when a file has a type error; the instrumented files carry @ts-nocheck),
// then precompiles the schema validators. Fails when the CLI or the suites were not emitted.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

// the sandbox lies inside the project: its node_modules is found up the tree (StrykerJS links it
// into the sandbox only after the build)
function findTsc() {
  for (let dir = resolve('.'); ; dir = dirname(dir)) {
    const bin = join(dir, 'node_modules', 'typescript', 'bin', 'tsc');
    if (existsSync(bin)) return bin;
    if (dirname(dir) === dir) {
      process.stderr.write('mutation-build: typescript is not installed; run "npm ci"\n');
      process.exit(1);
    }
  }
}
const tscBin = findTsc();

const tsc = spawnSync(process.execPath, [tscBin, '-p', 'tsconfig.build.json'], {
  stdio: 'inherit',
});
for (const f of ['dist/src/cli/main.js', 'dist/src/runner/child.js', 'dist/suites']) {
  if (!existsSync(f)) {
    process.stderr.write(`mutation-build: tsc did not emit ${f} (exit ${tsc.status}); fix the build first\n`);
    process.exit(1);
  }
}
if (tsc.status !== 0) {
  process.stderr.write('mutation-build: tsc reported type errors (see above); the emitted code is used\n');
}
const schemas = spawnSync(process.execPath, ['scripts/compile-schemas.mjs'], { stdio: 'inherit' });
process.exit(schemas.status ?? 1);
