import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/paths.js';
import { cycles, type ImportGraph, importGraph, stripComments } from './graph.js';

// The one-way rules of docs/conventions.md ("Layers"), checked over the import graph of src/
// (npm run check runs this file). A failure names the importing file and what it imports.
const root = packageRoot();
const graph: ImportGraph = importGraph(root, ['src']);

/** `from -> to` for every import of a file under `from` that `forbidden(to)` rejects. */
function violations(
  fromPrefix: string,
  forbidden: (to: string) => boolean,
  except: (from: string) => boolean = () => false,
) {
  const out: string[] = [];
  for (const [from, targets] of graph) {
    if (!from.startsWith(fromPrefix) || except(from)) continue;
    for (const to of targets) if (forbidden(to)) out.push(`${from} -> ${to}`);
  }
  return out.sort();
}

const under =
  (...prefixes: string[]) =>
  (to: string) =>
    prefixes.some((p) => to.startsWith(p));

describe('layering of src/ (docs/conventions.md, Layers)', () => {
  it('reads a graph of the whole tree', () => {
    expect(graph.size).toBeGreaterThan(50);
    expect(graph.get('src/runner/run.ts')).toContain('src/reporters/index.ts');
  });

  it('has no import cycle', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('model and secrets import nothing but the generated types (and model); errors.ts imports nothing', () => {
    expect(violations('src/model/', (to) => !under('src/model/', 'src/generated/')(to))).toEqual([]);
    expect(graph.get('src/errors.ts')).toEqual([]);
    // the secrets policy sits on the same floor: the drivers (capture) and reporters (report) share it
    expect(
      violations('src/secrets/', (to) => !under('src/secrets/', 'src/generated/', 'src/model/')(to)),
    ).toEqual([]);
  });

  it('drivers and reporters never import the runner (nor the CLI)', () => {
    expect(violations('src/drivers/', under('src/runner/', 'src/cli/', 'src/reporters/'))).toEqual([]);
    expect(violations('src/reporters/', under('src/runner/', 'src/cli/', 'src/drivers/'))).toEqual([]);
  });

  it('net/ (the one capped request) and loopback/tls.ts sit low; only cli/ and the index start the stack', () => {
    expect(violations('src/net/', (to) => !under('src/net/', 'src/errors.ts')(to))).toEqual([]);
    expect(violations('src/loopback/tls.ts', (to) => to !== 'src/errors.ts')).toEqual([]);
    expect(
      violations(
        'src/',
        (to) => to === 'src/loopback/stack.ts',
        (from) => from.startsWith('src/cli/') || from === 'src/index.ts',
      ),
    ).toEqual([]);
  });

  it('each reference target keeps an HTTP-free core beside its server (wallet/derive.ts, operator/operator.ts)', () => {
    const cores = [
      'src/reference/wallet/derive.ts',
      'src/reference/wallet/amount.ts',
      'src/reference/wallet/rails.ts',
      'src/reference/wallet/errors.ts',
      'src/reference/operator/operator.ts',
    ];
    const offenders: string[] = [];
    for (const file of cores) {
      expect(graph.has(file), file).toBe(true);
      const code = stripComments(readFileSync(join(root, file), 'utf8'));
      const m = /from\s*'(node:https?|node:net|undici)'/.exec(code);
      if (m) offenders.push(`${file} -> ${m[1]}`);
      for (const to of graph.get(file) ?? [])
        if (/\/server\.ts$/.test(to)) offenders.push(`${file} -> ${to}`);
    }
    expect(offenders).toEqual([]);
  });

  it('the codec never imports the validator', () => {
    expect(violations('src/codec/', under('src/validator/'))).toEqual([]);
  });

  it('reference implementations never import the checks, the runner, the reporters or the CLI', () => {
    expect(
      violations('src/reference/', under('suites/', 'test/', 'src/runner/', 'src/reporters/', 'src/cli/')),
    ).toEqual([]);
  });

  it('src/ never imports suites/ or test/, and only src/cli/ and src/index.ts import src/cli/', () => {
    expect(violations('src/', under('suites/', 'test/'))).toEqual([]);
    expect(
      violations('src/', under('src/cli/'), (from) => from.startsWith('src/cli/') || from === 'src/index.ts'),
    ).toEqual([]);
  });

  it('the catalog loader sits low: only catalog/declared.ts (the coverage builder) reads the validator and codec', () => {
    expect(
      violations(
        'src/catalog/',
        under('src/validator/', 'src/codec/', 'src/runner/', 'src/reporters/', 'src/drivers/', 'src/cli/'),
        (from) => from === 'src/catalog/declared.ts',
      ),
    ).toEqual([]);
    // nothing in src/ builds coverage at run time
    expect(violations('src/', (to) => to === 'src/catalog/declared.ts')).toEqual([]);
  });

  it('only src/cli/ touches process.stdout, process.stderr or the exit code (comments aside)', () => {
    const offenders: string[] = [];
    for (const file of graph.keys()) {
      if (file.startsWith('src/cli/') || file.startsWith('src/generated/')) continue;
      const code = stripComments(readFileSync(join(root, file), 'utf8'));
      const m = /process\.(stdout|stderr|exit\b|exitCode)/.exec(code);
      if (m) offenders.push(`${file}: process.${m[1]}`);
    }
    expect(offenders).toEqual([]);
  });
});

describe('the import reader', () => {
  it('finds static, re-export, side-effect and dynamic imports, and ignores comments', async () => {
    const { importsOf } = await import('./graph.js');
    const text = [
      "import { a } from './a.js';",
      "import type {\n  B,\n} from '../b.js';",
      "export * from './c.js';",
      "import './d.js';",
      "const e = await import('./e.js');",
      "// import { x } from './commented.js';",
      "/* import { y } from './block.js'; */",
      "import fs from 'node:fs';",
    ].join('\n');
    expect(importsOf(text).sort()).toEqual(['../b.js', './a.js', './c.js', './d.js', './e.js']);
  });

  it('finds a cycle', () => {
    const g: ImportGraph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(cycles(g)).toEqual([['a', 'b', 'c']]);
  });
});
