/**
 * What `npm pack` ships: the compiled package, its declarations, the schemas and the catalog,
 * the test vectors, the licence and the README; never tests, fixtures, benches or sources. Also
 * that every declaration file a consumer's TypeScript reads finds the packages it names among our
 * dependencies (the `@types` ones included), and that the source maps lead a consumer's debugger
 * and stack traces to real sources although src/ is not shipped (they embed them).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  license: string;
  types: string;
  bin: Record<string, string>;
  exports: Record<string, string | Record<string, string>>;
  dependencies: Record<string, string>;
};

/** Every path the tarball may hold. */
const ALLOWED = [
  /^package\.json$/,
  /^README\.md$/,
  /^LICENSE$/,
  /^bin\/(cprc\.js|code-cache\.cjs|package\.json)$/,
  /^dist\/schemas-compiled(-cpr)?\.cjs$/,
  /^dist\/(src|suites)\/.+\.(js|d\.ts|js\.map)$/,
  /^dist\/cli\/[A-Za-z0-9_.-]+\.cjs$/,
  /^dist\/cli\/code-cache\/[A-Za-z0-9_.~-]+\.bin$/,
  /^schemas\/.+\.schema\.json$/,
  /^suites\/catalog\/[a-z-]+\.json$/,
  /^docs\/(profile|vectors)\.md$/,
  /^vectors\/[a-z]+\.json$/,
];
const FORBIDDEN = /(^|\/)(test|tests|__tests__|fixtures|bench|examples)\/|\.test\.|\.bench\.|^src\//;

let files: string[] = [];

beforeAll(() => {
  // --ignore-scripts: lists what the last build (npm test builds first) would ship, without rebuilding
  const out = execFileSync(NPM, ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  files = (JSON.parse(out) as Array<{ files: Array<{ path: string }> }>)[0]?.files.map((f) => f.path) ?? [];
});

/** Bare module specifiers a declaration file imports or references. */
function specifiers(dts: string): string[] {
  const code = dts.replace(/\/\*[\s\S]*?\*\//g, '');
  const found = new Set<string>();
  for (const re of [
    /\bfrom\s+['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
    /^\s*import\s+['"]([^'"]+)['"]/gm,
    /<reference\s+types=["']([^"']+)["']/g,
  ]) {
    for (const m of code.matchAll(re)) if (m[1] && !m[1].startsWith('.')) found.add(m[1]);
  }
  if (/\b(Buffer|NodeJS)\b/.test(code)) found.add('node');
  return [...found];
}

/** The dependency a specifier needs for its types: the package itself or its `@types` package. */
function typesPackage(specifier: string): string {
  if (specifier === 'node' || specifier.startsWith('node:')) return '@types/node';
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] as string);
  const manifest = JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8'));
  const ownTypes =
    manifest.types !== undefined ||
    manifest.typings !== undefined ||
    JSON.stringify(manifest.exports ?? {}).includes('"types"') ||
    existsSync(join(ROOT, 'node_modules', name, 'index.d.ts'));
  return ownTypes ? name : `@types/${name.replace(/^@/, '').replace('/', '__')}`;
}

describe('npm pack', () => {
  it('ships only the compiled package, schemas, catalog, licence and README', () => {
    expect(files.length).toBeGreaterThan(100);
    const unexpected = files.filter((f) => !ALLOWED.some((re) => re.test(f)));
    expect(unexpected).toEqual([]);
    expect(files.filter((f) => FORBIDDEN.test(f))).toEqual([]);
    for (const required of [
      'LICENSE',
      'README.md',
      'package.json',
      'dist/schemas-compiled.cjs',
      'dist/schemas-compiled-cpr.cjs',
      'dist/cli/cprc.cjs',
      'bin/code-cache.cjs',
      'suites/catalog/requirements.json',
      'schemas/cpr/cpr-payee.schema.json',
      'schemas/tool/results.schema.json',
    ]) {
      expect(files).toContain(required);
    }
    expect(files.some((f) => f.startsWith('dist/suites/'))).toBe(true);
  });

  it('ships the test vectors: every file of vectors/ and schemas/vectors/, and docs/vectors.md', () => {
    const vectors = readdirSync(join(ROOT, 'vectors')).map((f) => `vectors/${f}`);
    const schemas = readdirSync(join(ROOT, 'schemas', 'vectors')).map((f) => `schemas/vectors/${f}`);
    expect(vectors).toContain('vectors/index.json');
    expect(vectors.length).toBeGreaterThanOrEqual(7);
    expect(schemas.length).toBeGreaterThanOrEqual(8);
    for (const f of [...vectors, ...schemas, 'docs/vectors.md']) expect(files, f).toContain(f);
  });

  it('holds every file package.json names: bin, types and each exports condition', () => {
    const named = [pkg.types, ...Object.values(pkg.bin)];
    for (const target of Object.values(pkg.exports)) {
      named.push(...(typeof target === 'string' ? [target] : Object.values(target)));
    }
    for (const path of named) expect(files, path).toContain(path.replace(/^\.\//, ''));
    // types come from built declarations, never from TypeScript sources
    for (const target of Object.values(pkg.exports)) {
      if (typeof target !== 'string') expect(target.types).toMatch(/^\.\/dist\/.+\.d\.ts$/);
    }
  });

  it('ships a declaration next to every compiled module of dist/src', () => {
    const js = files.filter((f) => /^dist\/src\/.+\.js$/.test(f));
    expect(js.length).toBeGreaterThan(50);
    expect(js.filter((f) => !files.includes(f.replace(/\.js$/, '.d.ts')))).toEqual([]);
  });

  it('lists as dependencies every package (and @types package) the shipped declarations need', () => {
    const needed = new Set<string>();
    for (const file of files.filter((f) => f.endsWith('.d.ts'))) {
      for (const spec of specifiers(readFileSync(join(ROOT, file), 'utf8'))) {
        if (spec !== pkg.name && !spec.startsWith(`${pkg.name}/`)) needed.add(typesPackage(spec));
      }
    }
    expect(needed).toContain('@types/node');
    expect([...needed].filter((name) => !(name in pkg.dependencies)).sort()).toEqual([]);
  });

  it('ships source maps that embed their sources or name only shipped files, each named by its module', () => {
    const shipped = new Set(files);
    const maps = files.filter((f) => f.endsWith('.js.map'));
    expect(maps.length).toBeGreaterThan(50);
    const problems: string[] = [];
    for (const file of maps) {
      const map = JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as {
        file?: string;
        sourceRoot?: string;
        sources?: string[];
        sourcesContent?: (string | null)[];
      };
      const dir = posix.dirname(file);
      if (map.file !== undefined && !shipped.has(posix.join(dir, map.file))) {
        problems.push(`${file}: its "file" ${map.file} is not shipped`);
      }
      if (!map.sources || map.sources.length === 0) problems.push(`${file}: names no source`);
      (map.sources ?? []).forEach((source, i) => {
        const embedded = map.sourcesContent?.[i];
        if (typeof embedded === 'string' && embedded.length > 0) return;
        if (!shipped.has(posix.join(dir, map.sourceRoot ?? '', source))) {
          problems.push(`${file}: source ${source} is neither embedded (sourcesContent) nor shipped`);
        }
      });
    }
    // and every shipped module that names a map names a shipped one
    for (const file of files.filter((f) => f.endsWith('.js'))) {
      const url = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(readFileSync(join(ROOT, file), 'utf8'))?.[1];
      if (url && !url.startsWith('data:') && !shipped.has(posix.join(posix.dirname(file), url))) {
        problems.push(`${file}: its sourceMappingURL ${url} is not shipped`);
      }
    }
    expect(problems.slice(0, 20)).toEqual([]);
  });

  it('carries the Apache-2.0 licence package.json declares', () => {
    expect(pkg.license).toBe('Apache-2.0');
    const text = readFileSync(join(ROOT, 'LICENSE'), 'utf8');
    expect(text).toMatch(/^\s*Apache License\s+Version 2\.0, January 2004/);
    expect(text).toContain('END OF TERMS AND CONDITIONS');
  });
});
