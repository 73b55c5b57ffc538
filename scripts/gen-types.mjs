// Generates TypeScript types from every schemas/**/*.schema.json into src/generated/ (one file per
// schema, `src/generated/<dir>/<name>.ts`) plus src/generated/index.ts re-exporting them all.
//
//   node scripts/gen-types.mjs            write the files (npm run gen:types)
//   node scripts/gen-types.mjs --check    regenerate in memory; exit 1 listing stale, missing or
//                                         extra files (npm run check:types-fresh)
//   --root <dir>                          package folder to work on (default: this script's package)
//
// Each type is declared once, in the file of the schema that defines it: a `$ref` to another
// schema file becomes an `import type` of that file's type (by the referenced schema's title),
// so index.ts can re-export every file without duplicate names.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compile } from 'json-schema-to-typescript';

const require = createRequire(import.meta.url);
const { toSafeString } = require('json-schema-to-typescript/dist/src/utils.js');

const ID_BASE = 'https://cpr-conformance.dev/schemas/';
const SUFFIX = '.schema.json';
const FIX = 'run "npm run gen:types" and commit src/generated/';

class GenError extends Error {}

function parseArgs(argv) {
  const args = { check: false, root: resolve(dirname(fileURLToPath(import.meta.url)), '..') };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--check') args.check = true;
    else if (a === '--root') {
      const v = argv[++i];
      if (!v) throw new GenError('--root needs a folder');
      args.root = resolve(v);
    } else throw new GenError(`unknown argument "${a}"; usage: gen-types.mjs [--check] [--root <dir>]`);
  }
  return args;
}

function walk(dir, suffix) {
  const out = [];
  if (!existsSync(dir)) return out;
  const rec = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) rec(p);
      else if (e.isFile() && e.name.endsWith(suffix)) out.push(relative(dir, p).split(sep).join('/'));
    }
  };
  rec(dir);
  return out.sort();
}

function loadSchemas(schemasDir) {
  return walk(schemasDir, SUFFIX).map((relPath) => {
    const absPath = join(schemasDir, ...relPath.split('/'));
    let schema;
    try {
      schema = JSON.parse(readFileSync(absPath, 'utf8'));
    } catch (err) {
      throw new GenError(`${absPath} is not valid JSON (${err.message}); fix the file`);
    }
    const id = ID_BASE + relPath;
    if (schema.$id !== id) {
      throw new GenError(`${absPath} declares "$id" ${JSON.stringify(schema.$id)}; it must be "${id}"`);
    }
    if (typeof schema.title !== 'string' || schema.title === '') {
      throw new GenError(`${absPath} has no "title"; the title names its TypeScript type, add one`);
    }
    return { relPath, absPath, id, schema, outPath: `${relPath.slice(0, -SUFFIX.length)}.ts` };
  });
}

/** Follows a JSON pointer fragment (`/a/b`) into `doc`. */
function pointer(doc, fragment, where) {
  if (fragment === '' || fragment === '/') return doc;
  let node = doc;
  for (const raw of fragment.replace(/^\//, '').split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !(key in node)) {
      throw new GenError(`${where}: $ref fragment "#${fragment}" points to nothing; fix the $ref`);
    }
    node = node[key];
  }
  return node;
}

/**
 * Deep-copies `node` (part of the schema with id `baseId`), replacing every `$ref` that leaves the
 * schema being generated (`ownId`) by a `tsType` naming the referenced type (recorded in
 * `imports`) or, for an untitled target, by the target inlined.
 */
function rewriteRefs(node, baseId, ownId, byId, imports, where, depth = 0) {
  if (depth > 50) throw new GenError(`${where}: $refs nest too deeply (a cycle through untitled schemas?)`);
  if (Array.isArray(node)) return node.map((n) => rewriteRefs(n, baseId, ownId, byId, imports, where, depth));
  if (node === null || typeof node !== 'object') return node;
  const out = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === '$ref' && typeof v === 'string') continue;
    // a combinator whose branches only demand presence (e.g. `anyOf: [{required: [a]}, {required: [b]}]`)
    // changes no member's type; left in, the generator would intersect the type with an index signature.
    if ((k === 'anyOf' || k === 'oneOf' || k === 'allOf') && Array.isArray(v) && v.every(isPresenceOnly))
      continue;
    // `properties`, `$defs` etc. hold maps of schemas; recursion treats them as objects alike.
    out[k] = rewriteRefs(v, baseId, ownId, byId, imports, where, depth);
  }
  if (typeof node.$ref !== 'string') return out;
  const url = new URL(node.$ref, baseId);
  const fragment = decodeURIComponent(url.hash.replace(/^#/, ''));
  url.hash = '';
  const targetId = url.href;
  if (targetId === ownId) {
    // internal: left to the generator. Annotation-only siblings (a description at the use site)
    // would make it declare a copy of the target type (`Principal1`), so they are dropped.
    if (Object.keys(out).every((key) => ANNOTATIONS.has(key) || key.startsWith('x-')))
      return { $ref: `#${fragment}` };
    return { ...out, $ref: `#${fragment}` };
  }
  const target = byId.get(targetId);
  if (!target) {
    throw new GenError(
      `${where}: $ref "${node.$ref}" resolves to ${targetId}, which is no file under schemas/`,
    );
  }
  const sub = pointer(target.schema, fragment, where);
  if (typeof sub === 'object' && sub !== null && typeof sub.title === 'string') {
    const name = toSafeString(sub.title);
    imports.set(name, target);
    return { ...out, tsType: name };
  }
  // an untitled part of another schema: inline it (its own $refs resolved against its file).
  const inlined = rewriteRefs(sub, targetId, ownId, byId, imports, where, depth + 1);
  return { ...inlined, ...out };
}

const ANNOTATIONS = new Set(['description', 'title', '$comment', 'examples', 'default', 'deprecated']);

/** True for a subschema that only requires members (plus annotations): it changes no type. */
function isPresenceOnly(branch) {
  return (
    typeof branch === 'object' &&
    branch !== null &&
    !Array.isArray(branch) &&
    Object.keys(branch).every((key) => key === 'required' || ANNOTATIONS.has(key) || key.startsWith('x-'))
  );
}

function banner(file) {
  return [
    '/* eslint-disable */',
    '/**',
    ` * Generated by scripts/gen-types.mjs from schemas/${file.relPath}: do not edit.`,
    ' * Change the schema and run "npm run gen:types".',
    ' */',
  ].join('\n');
}

function importPath(fromOut, toOut) {
  let p = relative(dirname(fromOut), toOut).split(sep).join('/').replace(/\.ts$/, '.js');
  if (!p.startsWith('.')) p = `./${p}`;
  return p;
}

const declRe = /^export (?:interface|type|enum|const enum|declare const enum) ([A-Za-z_$][\w$]*)/gm;

async function generate(root) {
  const files = loadSchemas(join(root, 'schemas'));
  const byId = new Map(files.map((f) => [f.id, f]));
  const outputs = new Map(); // outPath -> text
  const declaredBy = new Map(); // type name -> file
  const pending = [];
  for (const file of files) {
    const imports = new Map();
    const schema = rewriteRefs(file.schema, file.id, file.id, byId, imports, `schemas/${file.relPath}`);
    delete schema.$id; // refs are rewritten; the generator needs no base URL
    let ts;
    try {
      ts = await compile(schema, file.schema.title, {
        cwd: dirname(file.absPath),
        bannerComment: banner(file),
        additionalProperties: true, // JSON Schema's own default: the schema says when it is false
        declareExternallyReferenced: true,
        unreachableDefinitions: false,
        strictIndexSignatures: false,
        format: true,
        style: { singleQuote: true, printWidth: 110, trailingComma: 'all', semi: true },
        $refOptions: { resolve: { external: false } },
      });
    } catch (err) {
      throw new GenError(`schemas/${file.relPath}: ${err.message}`);
    }
    const declared = [...ts.matchAll(declRe)].map((m) => m[1]);
    for (const name of declared) {
      const other = declaredBy.get(name);
      if (other && other !== file) {
        throw new GenError(
          `type "${name}" is declared by both schemas/${other.relPath} and schemas/${file.relPath}; give one of them a distinct "title"`,
        );
      }
      declaredBy.set(name, file);
    }
    pending.push({ file, ts, imports, declared });
  }
  for (const { file, ts, imports, declared } of pending) {
    const lines = [];
    for (const [name, target] of [...imports].sort(([a], [b]) => a.localeCompare(b))) {
      if (declared.includes(name)) {
        throw new GenError(
          `schemas/${file.relPath}: type "${name}" is both declared here and imported from schemas/${target.relPath}; rename one title`,
        );
      }
      const owner = declaredBy.get(name);
      if (!owner) {
        throw new GenError(
          `schemas/${file.relPath}: referenced type "${name}" is declared by no generated file`,
        );
      }
      lines.push(`import type { ${name} } from '${importPath(file.outPath, owner.outPath)}';`);
    }
    const bannerText = banner(file);
    const body = ts.startsWith(bannerText) ? ts.slice(bannerText.length).replace(/^\n+/, '') : ts;
    const text = `${bannerText}\n${lines.length ? `${lines.join('\n')}\n` : ''}\n${body}`;
    outputs.set(file.outPath, text);
  }
  const index = [
    '/**',
    ' * Generated by scripts/gen-types.mjs from schemas/: do not edit. Run "npm run gen:types".',
    ' * Re-exports the types of every schema.',
    ' */',
    ...files.map((f) => `export type * from '${importPath('index.ts', f.outPath)}';`),
    '',
  ].join('\n');
  outputs.set('index.ts', index);
  return outputs;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const outDir = join(args.root, 'src', 'generated');
  const outputs = await generate(args.root);
  const existing = walk(outDir, '.ts');
  if (args.check) {
    const problems = [];
    for (const [p, text] of outputs) {
      const abs = join(outDir, ...p.split('/'));
      if (!existsSync(abs)) problems.push(`missing: src/generated/${p}`);
      else if (readFileSync(abs, 'utf8') !== text) problems.push(`stale:   src/generated/${p}`);
    }
    for (const p of existing) if (!outputs.has(p)) problems.push(`extra:   src/generated/${p}`);
    if (problems.length) {
      process.stderr.write(
        `gen-types: src/generated/ is out of date with schemas/:\n  ${problems.join('\n  ')}\nfix: ${FIX}\n`,
      );
      process.exit(1);
    }
    process.stdout.write(`gen-types: src/generated/ is up to date (${outputs.size} files)\n`);
    return;
  }
  let written = 0;
  for (const [p, text] of outputs) {
    const abs = join(outDir, ...p.split('/'));
    if (existsSync(abs) && readFileSync(abs, 'utf8') === text) continue;
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, text);
    written++;
  }
  let removed = 0;
  for (const p of existing) {
    if (!outputs.has(p)) {
      rmSync(join(outDir, ...p.split('/')));
      removed++;
    }
  }
  process.stdout.write(
    `gen-types: ${outputs.size} files in src/generated/ (${written} written, ${removed} removed)\n`,
  );
}

main().catch((err) => {
  process.stderr.write(`gen-types: ${err instanceof GenError ? err.message : err.stack || err}\n`);
  process.exit(err instanceof GenError ? 1 : 2);
});
