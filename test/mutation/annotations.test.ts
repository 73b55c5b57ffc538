/**
 * The StrykerJS annotations of the mutated sources (issue 16, docs/mutation.md): a
 * `// Stryker restore` that trails the last statement of a block is never read by StrykerJS, so the
 * disable before it silently annotates every mutant to the end of the file (it once hid 98 mutants
 * of the reference wallet's derivation). The score script refuses such a file; this keeps the
 * sources free of them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the scripts folder, without declarations
import { SCOPES } from '../../scripts/mutation-scopes.mjs';
// @ts-expect-error: a plain ES module of the scripts folder, without declarations
import { parseAnnotations, unreadRestores } from '../../scripts/mutation-score.mjs';

const root = resolve(import.meta.dirname, '..', '..');
const restores = unreadRestores as (source: string) => number[];

describe('unreadRestores', () => {
  it('flags a restore after the last statement of a block, and no other', () => {
    const source = [
      'function f(x) {', // 1
      '  // Stryker disable all: a reason', // 2
      '  if (x) return 1;', // 3
      '  // Stryker restore all', // 4: trails the block
      '}', // 5
      '// Stryker disable next-line StringLiteral: a reason', // 6
      "const a = 'a';", // 7
      '// Stryker disable BlockStatement: a reason', // 8
      'function g() {}', // 9
      '', // 10
      '// Stryker restore BlockStatement', // 11: leads the next statement
      '// a comment between', // 12
      'const b = 1;', // 13
      'function h() {', // 14
      '  call(', // 15
      '    1,', // 16
      '    // Stryker restore all', // 17: trails an argument list
      '  );', // 18
      '}', // 19
      '// Stryker restore all', // 20: the end of the file, nothing left to annotate
    ].join('\n');
    expect(restores(source)).toEqual([4, 17]);
  });

  it('finds none in the mutated sources of any scope', () => {
    const found = scopeSources().flatMap(([rel, text]) => restores(text).map((line) => `${rel}:${line}`));
    expect(found).toEqual([]);
  });

  it('every annotation of the mutated sources gives its reason', () => {
    const unreasoned = scopeSources().flatMap(([rel, text]) =>
      (parseAnnotations(text) as { line: number; reason: string }[])
        .filter((a) => a.reason === '')
        .map((a) => `${rel}:${a.line}`),
    );
    expect(unreasoned).toEqual([]);
  });
});

/** Every TypeScript file of every mutation scope: its path and text. */
function scopeSources(): [string, string][] {
  const out: [string, string][] = [];
  for (const scope of SCOPES as { prefixes: string[] }[]) {
    for (const prefix of scope.prefixes) {
      for (const name of readdirSync(join(root, prefix), { recursive: true })) {
        const rel = join(prefix, String(name));
        if (rel.endsWith('.ts')) out.push([rel, readFileSync(join(root, rel), 'utf8')]);
      }
    }
  }
  return out;
}
