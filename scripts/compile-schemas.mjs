// Precompiles every schema under schemas/ into dist/schemas-compiled.mjs (ajv standalone code,
// ESM), so `cprc validate` starts without compiling schemas. Run by `npm run build` after tsc;
// the code comes from the registry itself (dist/src/schemas/registry.js), so the configuration
// is the registry's. The registry uses the file only while it lists the same schema files and
// is not older than any of them.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

const registryUrl = new URL('../dist/src/schemas/registry.js', import.meta.url);

let registry;
try {
  registry = await import(registryUrl.href);
} catch (err) {
  process.stderr.write(
    `compile-schemas: cannot load ${registryUrl.pathname} (${err.message}); run "tsc -p tsconfig.build.json" first\n`,
  );
  process.exit(2);
}

const { loadSchemaFiles, precompiledModuleSource, compiledSchemasPath } = registry;
let source;
let count;
try {
  const files = loadSchemaFiles();
  count = files.length;
  source = precompiledModuleSource(files);
} catch (err) {
  process.stderr.write(`compile-schemas: ${err.message}\n`);
  process.exit(1);
}

const out = compiledSchemasPath();
mkdirSync(dirname(out), { recursive: true });
const tmp = `${out}.${process.pid}.tmp`;
writeFileSync(tmp, source);
renameSync(tmp, out); // atomic: a concurrent reader sees the old or the new module, never half
process.stdout.write(`compile-schemas: ${count} validators -> ${out}\n`);
