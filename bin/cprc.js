#!/usr/bin/env node
// Thin launcher (CommonJS: bin/package.json): the CLI is compiled to dist/ by `npm run build` (run
// automatically by `npm ci`), and bundled into dist/cli/cprc.cjs (a few modules to load instead
// of some two hundred), which starts from the V8 code cache the build made (bin/code-cache.cjs):
// a faster start. The bundle is used unless it is missing or older than the compiled sources.
'use strict';
const { statSync } = require('node:fs');
const { join } = require('node:path');
const { pathToFileURL } = require('node:url');

const mtime = (path) => {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
};
const dist = join(__dirname, '..', 'dist');
const compiled = join(dist, 'src', 'cli', 'main.js');
const bundled = join(dist, 'cli', 'cprc.cjs');
const compiledAt = mtime(compiled);
const bundledAt = mtime(bundled);
if (compiledAt === undefined && bundledAt === undefined) {
  process.stderr.write(
    'cprc: the compiled CLI is missing (dist/); run "npm run build" in the package folder\n',
  );
  process.exit(2);
}
const start =
  bundledAt !== undefined && (compiledAt === undefined || bundledAt >= compiledAt)
    ? () => {
        require('./code-cache.cjs').installCodeCache(
          dist,
          join(dist, 'cli', 'code-cache'),
          process.env.CPRC_CODE_CACHE_PRODUCE === '1',
        );
        return Promise.resolve(require(bundled));
      }
    : () => import(pathToFileURL(compiled).href);
start()
  .then(({ main }) => main(process.argv))
  .then((code) => {
    process.exitCode = code;
  });
