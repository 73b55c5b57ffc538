/**
 * The import graph of `src/` (and of `suites/` and `test/` when asked), read from the source text
 * of each file: every relative `import ... from`, `export ... from`, side-effect `import '...'`
 * and `import('...')`, type-only imports included. TypeScript 7 has no compiler API, so this is a
 * small reader of import statements, not a parser; comments are dropped first.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/** One module and the modules it imports (paths relative to the package root, `/`-separated). */
export type ImportGraph = Map<string, string[]>;

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** Source text without comments (block and line), strings kept. */
export function stripComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

const SPECIFIERS = [
  /\bfrom\s*['"]([^'"]+)['"]/g,
  /^\s*import\s*['"]([^'"]+)['"]/gm,
  /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
];

/** Relative import specifiers of one file's text. */
export function importsOf(text: string): string[] {
  const code = stripComments(text);
  const out = new Set<string>();
  for (const pattern of SPECIFIERS)
    for (const m of code.matchAll(pattern)) if (m[1]?.startsWith('.')) out.add(m[1]);
  return [...out];
}

/** The import graph of every `.ts` file under `dirs` (relative to `root`). */
export function importGraph(root: string, dirs: readonly string[]): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const dir of dirs) {
    for (const file of filesUnder(join(root, dir))) {
      const from = relative(root, file).split(sep).join('/');
      const targets = importsOf(readFileSync(file, 'utf8')).map((spec) => {
        const abs = resolve(dirname(file), spec).replace(/\.js$/, '.ts');
        return relative(root, abs).split(sep).join('/');
      });
      graph.set(from, targets);
    }
  }
  return graph;
}

/** Strongly connected components of more than one module (or a module importing itself): the cycles. */
export function cycles(graph: ImportGraph): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    indices.set(v, index);
    low.set(v, index);
    index += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!indices.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v) ?? 0, indices.get(w) ?? 0));
      }
    }
    if (low.get(v) === indices.get(v)) {
      const component: string[] = [];
      let w: string | undefined;
      do {
        w = stack.pop();
        if (w === undefined) break;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!indices.has(v)) visit(v);
  return out;
}
