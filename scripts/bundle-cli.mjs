// Bundles the compiled CLI (dist/src/cli/main.js and everything it imports, node_modules
// included) into dist/cli/: one CommonJS module for what every command loads, and one chunk per
// dynamically imported part (the runner, the reference stack, the reporters...), so a command
// loads a handful of files instead of some two hundred; plus validate-worker.cjs, the worker
// thread of `cprc validate` (src/validator/inputs/worker.ts). Then it runs one command
// (`cprc validate examples/payment-request.json`) to write the V8 code cache the bundle starts
// from (dist/cli/code-cache/, bin/code-cache.cjs). CommonJS because Node 20 caches compiled code
// only for scripts (`vm.Script`), not for ES modules. bin/cprc.js starts from dist/cli/cprc.cjs
// when it exists, from dist/src/cli/main.js otherwise. Run by `npm run build` after tsc.
//
// rolldown comes with vitest (a development dependency); without it the CLI runs unbundled.
import { spawnSync } from 'node:child_process';
import { renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'cli');
const tmp = `${out}.${process.pid}.tmp`;

let rolldown;
try {
  rolldown = await import('rolldown');
} catch {
  process.stdout.write('bundle-cli: rolldown is not installed; the CLI runs unbundled (dist/src/cli)\n');
  process.exit(0);
}

try {
  await rolldown.build({
    input: {
      cprc: join(root, 'dist', 'src', 'cli', 'main.js'),
      // the worker thread of a parallel `cprc validate` (found beside the bundle by its name)
      'validate-worker': join(root, 'dist', 'src', 'validator', 'inputs', 'worker.js'),
    },
    platform: 'node',
    logLevel: 'silent',
    plugins: [
      {
        // commander loads node:child_process (and with it net, dgram, streams) at start, for
        // executable subcommands cprc does not have: required on use instead
        name: 'commander-lazy-child-process',
        transform(code, id) {
          if (!/[\\/]commander[\\/]lib[\\/]command\.js$/.test(id)) return null;
          const eager = "const childProcess = require('node:child_process');";
          if (!code.includes(eager)) throw new Error(`commander's ${id} no longer reads as expected`);
          return code.replace(
            eager,
            "const childProcess = { spawn: (...a) => require('node:child_process').spawn(...a) };",
          );
        },
      },
    ],
    output: {
      dir: tmp,
      format: 'cjs',
      // `import('node:crypto')` becomes `require`: code started from a V8 code cache loses its
      // dynamic-import callback in Node 20 (bin/code-cache.cjs leaves a file with import() alone)
      dynamicImportInCjs: false,
      // no JSDoc in the bundle: less to read at start (and no `import(...)` type in a comment)
      comments: { legal: true, annotation: true, jsdoc: false },
      entryFileNames: '[name].cjs',
      chunkFileNames: '[name]-[hash].cjs',
      // the sources' maps are not carried into the bundle: dist/src keeps them
      sourcemap: false,
    },
  });
} catch (err) {
  rmSync(tmp, { recursive: true, force: true });
  process.stderr.write(`bundle-cli: ${err.message}\n`);
  process.exit(1);
}
// the folder is swapped whole: a concurrent cprc sees the old bundle or the new one
rmSync(out, { recursive: true, force: true });
renameSync(tmp, out);
process.stdout.write(`bundle-cli: dist/src/cli/main.js -> ${out}/cprc.cjs\n`);

// the code cache: what one validation compiles, written by the bundle's own loader at exit
const made = spawnSync(
  process.execPath,
  [join(root, 'bin', 'cprc.js'), 'validate', join(root, 'examples', 'payment-request.json')],
  { env: { ...process.env, CPRC_CODE_CACHE_PRODUCE: '1' }, encoding: 'utf8' },
);
if (made.status !== 0) {
  process.stdout.write(
    `bundle-cli: no code cache (the validation exited ${made.status}: ${made.stderr.trim().slice(-300)}); the CLI compiles at start\n`,
  );
} else process.stdout.write(`bundle-cli: ${made.stderr.trim()}\n`);
