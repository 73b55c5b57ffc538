// V8 code cache for the bundled CLI (dist/cli/*.cjs) and the precompiled schema validators
// (dist/schemas-compiled*.cjs): a command starts from the bytecode a build-time run produced
// instead of compiling some 500 kB of JavaScript at every start. Node 20 has no
// `module.enableCompileCache` (Node 22.1+), so this is the require hook of the v8-compile-cache
// approach: each CommonJS file of those is compiled as a `vm.Script` given its cached data.
//
// The cache is made by `npm run build` (scripts/bundle-cli.mjs runs one command with
// CPRC_CODE_CACHE_PRODUCE=1) and only read afterwards: nothing is written at run time. An entry
// is named after its file's size and modification time, so a rebuilt file never meets the old
// entry; V8 refuses an entry of another Node version or other V8 flags (the file is then compiled
// as usual, as without a cache).
'use strict';
const Module = require('node:module');
const vm = require('node:vm');
const { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } = require('node:fs');
const { basename, dirname, join, relative, sep } = require('node:path');

/** A dynamic `import(` (or the same letters in a string: that file is then simply not cached). */
const DYNAMIC_IMPORT = /(^|[^\w$.])import\s*\(/m;

/**
 * Installs the hook for the CommonJS files under `dist` that are `cli/*.cjs` or
 * `schemas-compiled*.cjs`, with entries in `cacheDir`. With `produce`, every such file compiled
 * by this process has its entry written when the process exits. Returns live counts of the files
 * the hook compiled: `cached` started from an entry, `rejected` had an entry V8 refused,
 * `uncached` had none.
 * @param {string} dist the package's dist/ folder
 * @param {string} cacheDir where the entries are
 * @param {boolean} produce write the entries at exit
 * @returns {{ cached: number, rejected: number, uncached: number }}
 */
function installCodeCache(dist, cacheDir, produce) {
  const compile = Module.prototype._compile;
  const made = [];
  const counts = { cached: 0, rejected: 0, uncached: 0 };
  /** `filename` relative to `dist` when the hook caches it, else undefined. */
  const cachedName = (filename) => {
    const rel = relative(dist, filename);
    if (rel.startsWith('..') || !rel.endsWith('.cjs')) return undefined;
    return rel.startsWith(`cli${sep}`) || /^schemas-compiled[^/\\]*\.cjs$/.test(rel) ? rel : undefined;
  };
  Module.prototype._compile = function compileWithCache(content, filename) {
    const rel = cachedName(filename);
    // a file with a dynamic import() is compiled as usual: in Node 20, code started from a cache
    // entry loses the callback import() needs ("A dynamic import callback was not specified")
    if (rel === undefined || DYNAMIC_IMPORT.test(content)) return compile.call(this, content, filename);
    let entry;
    try {
      const st = statSync(filename);
      entry = join(cacheDir, `${rel.split(sep).join('~')}.${st.size}-${Math.trunc(st.mtimeMs)}.bin`);
    } catch {
      return compile.call(this, content, filename);
    }
    let cachedData;
    if (!produce) {
      try {
        cachedData = readFileSync(entry);
      } catch {
        // no entry: compiled as usual
      }
    }
    const script = new vm.Script(Module.wrap(content), { filename, cachedData });
    if (cachedData === undefined) counts.uncached += 1;
    else if (script.cachedDataRejected) counts.rejected += 1;
    else counts.cached += 1;
    if (produce) made.push({ script, entry });
    const wrapper = script.runInThisContext({ displayErrors: true });
    const require = (id) => this.require(id);
    require.resolve = (request, options) => Module._resolveFilename(request, this, false, options);
    require.main = process.mainModule;
    require.cache = Module._cache;
    require.extensions = Module._extensions;
    return wrapper.call(this.exports, this.exports, require, this, filename, dirname(filename));
  };
  if (produce) {
    process.on('exit', () => {
      mkdirSync(cacheDir, { recursive: true });
      for (const { script, entry } of made) {
        const tmp = `${entry}.${process.pid}.tmp`;
        writeFileSync(tmp, script.createCachedData());
        renameSync(tmp, entry);
      }
      process.stderr.write(`code cache: ${made.length} entries in ${basename(cacheDir)}/\n`);
    });
  }
  return counts;
}

module.exports = { installCodeCache };
