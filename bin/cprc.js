#!/usr/bin/env node
// Thin launcher: the CLI is compiled to dist/ by `npm run build` (run automatically by `npm ci`),
// and bundled into dist/cli/cprc.mjs (a few modules to load instead of some two hundred: a faster
// start). The bundle is used unless it is missing or older than the compiled sources.
import { statSync } from 'node:fs';

const mtime = (url) => {
  try {
    return statSync(url).mtimeMs;
  } catch {
    return undefined;
  }
};
const compiled = new URL('../dist/src/cli/main.js', import.meta.url);
const bundled = new URL('../dist/cli/cprc.mjs', import.meta.url);
const compiledAt = mtime(compiled);
const bundledAt = mtime(bundled);
if (compiledAt === undefined && bundledAt === undefined) {
  process.stderr.write(
    'cprc: the compiled CLI is missing (dist/); run "npm run build" in the package folder\n',
  );
  process.exit(2);
}
const entry =
  bundledAt !== undefined && (compiledAt === undefined || bundledAt >= compiledAt) ? bundled : compiled;
const { main } = await import(entry.href);
process.exitCode = await main(process.argv);
