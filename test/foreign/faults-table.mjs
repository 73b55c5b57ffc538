// Prints the fault list of faults.mjs as Markdown, grouped by class, for README.md:
//   node test/foreign/faults-table.mjs            print
//   node test/foreign/faults-table.mjs --write    replace the table in README.md

import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { FAULTS } from './faults.mjs';

const CLASSES = [
  'library-defaults',
  'encodings',
  'url-http-semantics',
  'caches',
  'clocks',
  'concurrency',
  'arithmetic',
  'access-control',
  'half-changed-state',
  'reading',
  'one-path-only',
  'tls-trust',
];
const TARGETS = ['payee', 'wallet', 'operator'];

const cell = (s) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function faultTable() {
  const lines = [];
  const count = (pred) => FAULTS.filter(pred).length;
  lines.push(`${FAULTS.length} faults.`, '');
  lines.push(`| class | ${TARGETS.join(' | ')} | total |`, `|---|${TARGETS.map(() => '---|').join('')}---|`);
  for (const c of CLASSES) {
    const row = TARGETS.map((t) => count((f) => f.class === c && f.target === t));
    lines.push(`| ${c} | ${row.join(' | ')} | ${count((f) => f.class === c)} |`);
  }
  const totals = TARGETS.map((t) => count((f) => f.target === t));
  lines.push(`| **total** | ${totals.join(' | ')} | ${FAULTS.length} |`, '');
  for (const c of CLASSES) {
    const list = FAULTS.filter((f) => f.class === c);
    if (list.length === 0) continue;
    lines.push(`### ${c}`, '', '| id | target | what is wrong | what it breaks |', '|---|---|---|---|');
    for (const f of list)
      lines.push(`| \`${f.id}\` | ${f.target} | ${cell(f.summary)} | ${cell(f.breaks)} |`);
    lines.push('');
  }
  return lines.join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const table = faultTable();
  if (process.argv.includes('--write')) {
    const path = fileURLToPath(new URL('./README.md', import.meta.url));
    const readme = await readFile(path, 'utf8');
    const begin = '<!-- faults:begin -->';
    const end = '<!-- faults:end -->';
    const next = `${readme.slice(0, readme.indexOf(begin) + begin.length)}\n${table}\n${readme.slice(readme.indexOf(end))}`;
    await writeFile(path, next);
  } else {
    process.stdout.write(`${table}\n`);
  }
}
