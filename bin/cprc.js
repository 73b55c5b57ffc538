#!/usr/bin/env node
// Thin launcher: the CLI is compiled to dist/ by `npm run build` (run automatically by `npm ci`).
import { existsSync } from 'node:fs';

const entry = new URL('../dist/src/cli/main.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write(
    'cprc: the compiled CLI is missing (dist/); run "npm run build" in the package folder\n',
  );
  process.exit(2);
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv);
