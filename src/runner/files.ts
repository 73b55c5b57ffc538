import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every `.js` file under `dir`, sorted, recursively. */
export function listSuiteFiles(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const name of entries.sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...listSuiteFiles(p));
    else if (name.endsWith('.js')) out.push(p);
  }
  return out;
}
