// Precompiles every schema under schemas/ into two CommonJS modules of ajv standalone code:
// dist/schemas-compiled.cjs (every validator) and dist/schemas-compiled-cpr.cjs (the two CPR
// readings with dateTime 'caller', all validateCpr needs), so `cprc validate` starts without
// compiling schemas and loads only the code it uses. Run by `npm run build` after tsc; the code
// comes from the registry itself (dist/src/schemas/registry.js), so the configuration is the
// registry's. The registry uses a module only while it lists the same schema files and is not
// older than any of them.
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

const {
  loadSchemaFiles,
  precompiledModuleSource,
  precompiledCprModuleSource,
  compiledSchemasPath,
  compiledCprSchemasPath,
} = registry;
let modules;
let count;
try {
  const files = loadSchemaFiles();
  count = files.length;
  modules = [
    [compiledSchemasPath(), precompiledModuleSource(files)],
    [compiledCprSchemasPath(), precompiledCprModuleSource(files)],
  ];
} catch (err) {
  process.stderr.write(`compile-schemas: ${err.message}\n`);
  process.exit(1);
}

for (const [out, source] of modules) {
  mkdirSync(dirname(out), { recursive: true });
  const tmp = `${out}.${process.pid}.tmp`;
  writeFileSync(tmp, source);
  renameSync(tmp, out); // atomic: a concurrent reader sees the old or the new module, never half
}
process.stdout.write(`compile-schemas: ${count} validators -> ${modules.map(([out]) => out).join(', ')}\n`);
