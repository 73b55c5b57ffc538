// Bundles the compiled CLI (dist/src/cli/main.js and everything it imports, node_modules
// included) into dist/cli/: one module for what every command loads, and one chunk per
// dynamically imported part (the runner, the reference stack, the reporters...), so a command
// loads a handful of files instead of some two hundred; plus validate-worker.mjs, the worker
// thread of `cprc validate` (src/validator/inputs/worker.ts). bin/cprc.js starts from dist/cli/cprc.mjs
// when it exists, from dist/src/cli/main.js otherwise. Run by `npm run build` after tsc.
//
// rolldown comes with vitest (a development dependency); without it the CLI runs unbundled.
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
      format: 'esm',
      entryFileNames: '[name].mjs',
      chunkFileNames: '[name]-[hash].mjs',
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
process.stdout.write(`bundle-cli: dist/src/cli/main.js -> ${out}/cprc.mjs\n`);
