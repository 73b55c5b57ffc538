// Import cost of an entry point of this package, for the README's figures (not a test: timings
// are measured, never asserted). Usage, after `npm run build`:
//   node test/package/import-cost.mjs cpr-conformance/validator   (or cpr-conformance)
// Prints the modules loaded (ESM through a load hook, CommonJS through Module#_compile; node:
// built-ins excluded) and, in fresh processes without the hook, the median import time of 9.
import { execFileSync } from 'node:child_process';
import Module, { register } from 'node:module';
import { pathToFileURL } from 'node:url';
import { MessageChannel } from 'node:worker_threads';

const specifier = process.argv[2] ?? 'cpr-conformance/validator';
const root = new URL('../../', import.meta.url);

if (process.argv[3] === '--time') {
  const t0 = performance.now();
  const mod = await import(specifier);
  if (typeof mod.validateCpr !== 'function') throw new Error(`${specifier} exports no validateCpr`);
  process.stdout.write(`${performance.now() - t0}\n`);
} else if (process.argv[3] === '--count') {
  const files = new Set();
  const compile = Module.prototype._compile;
  Module.prototype._compile = function (content, filename) {
    files.add(pathToFileURL(filename).href);
    return compile.call(this, content, filename);
  };
  const { port1, port2 } = new MessageChannel();
  const hooks =
    'let port; export async function initialize(d) { port = d.port; }' +
    ' export async function load(url, context, next) { if (!url.startsWith("node:")) port.postMessage(url); return next(url, context); }';
  register(`data:text/javascript,${encodeURIComponent(hooks)}`, {
    parentURL: import.meta.url,
    data: { port: port2 },
    transferList: [port2],
  });
  port1.on('message', (url) => files.add(url));
  port1.unref();
  await import(specifier);
  await new Promise((resolve) => setTimeout(resolve, 100));
  process.stdout.write(`${files.size}\n`);
} else {
  const run = (flag) =>
    execFileSync(process.execPath, [new URL(import.meta.url).pathname, specifier, flag], {
      cwd: root,
      encoding: 'utf8',
    });
  const modules = Number(run('--count'));
  const times = Array.from({ length: 9 }, () => Number(run('--time'))).sort((a, b) => a - b);
  process.stdout.write(
    `${specifier}: ${modules} modules; import ${times[4].toFixed(0)} ms (median of 9; min ${times[0].toFixed(0)}, max ${times[8].toFixed(0)})\n`,
  );
}
