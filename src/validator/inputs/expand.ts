/**
 * Expansion of command-line inputs into single sources: `-`, `cpr://` URIs, files, folders
 * (recursive, `*.json`, in name order) and globs (`*`, `?`, `[...]`, `{a,b}`, `**`), streamed
 * (a folder is listed one level at a time, never the whole tree at once).
 *
 * @packageDocumentation
 */
import type { Stats } from 'node:fs';
import { opendir, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { cannotRead } from './read.js';

/**
 * One source to load: stdin, a URI or a path. `listedAsFile` marks a path a folder walk listed
 * as a regular file (not a symbolic link): its reader may skip a stat (see `readRegularFile`).
 */
export type Source =
  | { kind: 'stdin' }
  | { kind: 'uri'; uri: string }
  | { kind: 'path'; path: string; listedAsFile?: true };

/** True when `s` holds a glob metacharacter. */
export function isGlob(s: string): boolean {
  return /[*?[{]/.test(s);
}

/** The sorted entries of one folder: sub-folders and files, each by name; `links` the files that are symbolic links. */
async function listFolder(dir: string): Promise<{ dirs: string[]; files: string[]; links: Set<string> }> {
  const dirs: string[] = [];
  const files: string[] = [];
  const links = new Set<string>();
  let handle: Awaited<ReturnType<typeof opendir>>;
  try {
    handle = await opendir(dir);
  } catch (err) {
    throw cannotRead(dir, err);
  }
  for await (const e of handle) {
    if (e.isDirectory()) dirs.push(e.name);
    else if (e.isFile()) files.push(e.name);
    else if (e.isSymbolicLink()) {
      files.push(e.name);
      links.add(e.name);
    }
  }
  dirs.sort();
  files.sort();
  return { dirs, files, links };
}

/** A folder's entries, none when it cannot be listed (a glob's part that matches nothing). */
function listOrNothing(dir: string): Promise<{ dirs: string[]; files: string[] }> {
  return listFolder(dir).catch(() => ({ dirs: [], files: [] }));
}

/**
 * Every `*.json` file under `root` as a source, depth first in name order, folder by folder; a
 * file listed as a regular file (not a symbolic link) is marked `listedAsFile`.
 */
async function* walkJsonSources(root: string): AsyncGenerator<Source> {
  const stack: string[] = [root];
  while (stack.length > 0) {
    const dir = stack.pop() as string;
    const { dirs, files, links } = await listFolder(dir);
    for (const f of files) {
      if (!f.endsWith('.json')) continue;
      const path = join(dir, f);
      yield links.has(f) ? { kind: 'path', path } : { kind: 'path', path, listedAsFile: true };
    }
    for (let i = dirs.length - 1; i >= 0; i--) {
      const name = dirs[i] as string;
      if (name === 'node_modules' || name.startsWith('.')) continue;
      stack.push(join(dir, name));
    }
  }
}

/** Every `*.json` file under `root`, depth first in name order, folder by folder. */
export async function* walkJson(root: string): AsyncGenerator<string> {
  for await (const s of walkJsonSources(root)) if (s.kind === 'path') yield s.path;
}

/**
 * A regular expression for one glob path segment. A segment holds no `/` or `\` (the pattern is
 * split at both), and `]` or `}` outside a bracket or brace pair are literal in a regular
 * expression without the `u` flag: neither needs escaping.
 */
function segmentRegex(segment: string): RegExp {
  let re = '';
  let i = 0;
  while (i < segment.length) {
    const c = segment[i] as string;
    if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const end = segment.indexOf(']', i + 2);
      if (end === -1) re += '\\[';
      else {
        const body = segment.slice(i + 1, end);
        re += `[${body.startsWith('!') ? `^${body.slice(1)}` : body}]`;
        i = end;
      }
    } else if (c === '{') {
      const end = segment.indexOf('}', i);
      if (end === -1) re += '\\{';
      else {
        const alts = segment
          .slice(i + 1, end)
          .split(',')
          .map((a) =>
            a
              .replace(/[.+^$()|[\]{}]/g, '\\$&')
              .replace(/\*/g, '[^/]*')
              .replace(/\?/g, '[^/]'),
          );
        re += `(?:${alts.join('|')})`;
        i = end;
      }
    } else re += c.replace(/[.+^$()|]/g, '\\$&');
    i++;
  }
  return new RegExp(`^${re}$`);
}

/**
 * The files matching a glob, in name order: the literal leading folders are the root, then each
 * segment is matched against folder entries; `**` matches zero or more folders. Dot files are
 * matched only by a segment that starts with a dot.
 */
export async function* expandGlob(pattern: string): AsyncGenerator<string> {
  const parts = pattern.split(/[\\/]+/);
  let k = 0;
  const lit: string[] = [];
  while (k < parts.length - 1 && !isGlob(parts[k] as string)) lit.push(parts[k++] as string);
  // an absolute pattern's first part is '' (`/` alone joins to '')
  const root = lit.length === 0 ? '.' : lit.join(sep) || sep;
  const rest = parts.slice(k);
  // frames: (folder, index of the next segment)
  const stack: [string, number][] = [[root, 0]];
  const seen = new Set<string>();
  while (stack.length > 0) {
    const [dir, idx] = stack.pop() as [string, number];
    const seg = rest[idx] as string;
    const last = idx === rest.length - 1;
    const at = (name: string): string => join(dir, name); // join('.', 'a') is 'a'
    if (seg === '**') {
      // one or more folders: descend (popped after what is pushed below, so a folder's files come
      // before its sub-folders', as in a folder walk); zero folders: the next segment here, first
      const { dirs, files } = await listOrNothing(dir);
      if (last) {
        for (const f of files) {
          const p = at(f);
          if (!f.startsWith('.') && !seen.has(p)) {
            seen.add(p);
            yield p;
          }
        }
      }
      for (let i = dirs.length - 1; i >= 0; i--) {
        const d = dirs[i] as string;
        if (!d.startsWith('.')) stack.push([at(d), idx]);
      }
      if (!last) stack.push([dir, idx + 1]);
      continue;
    }
    const re = segmentRegex(seg);
    const dotOk = seg.startsWith('.');
    const { dirs, files } = await listOrNothing(dir);
    if (last) {
      for (const f of files) {
        if ((dotOk || !f.startsWith('.')) && re.test(f)) {
          const p = at(f);
          if (!seen.has(p)) {
            seen.add(p);
            yield p;
          }
        }
      }
      continue;
    }
    for (let i = dirs.length - 1; i >= 0; i--) {
      const d = dirs[i] as string;
      if ((dotOk || !d.startsWith('.')) && re.test(d)) stack.push([at(d), idx + 1]);
    }
  }
}

/**
 * The sources one command-line input stands for: `-` is stdin, `cpr://...` a URI, a folder
 * every `*.json` below it, a path that does not exist but holds glob characters the files it
 * matches, any other path itself. Throws the I/O error of a path that is neither.
 */
export async function* expandInput(input: string): AsyncGenerator<Source> {
  if (input === '-') {
    yield { kind: 'stdin' };
    return;
  }
  if (input.startsWith('cpr://')) {
    yield { kind: 'uri', uri: input };
    return;
  }
  let stats: Stats;
  try {
    stats = await stat(input);
  } catch (err) {
    if (isGlob(input)) {
      let matched = false;
      for await (const path of expandGlob(input)) {
        matched = true;
        yield { kind: 'path', path };
      }
      if (!matched) throw cannotRead(input, new Error('no file matches this glob'));
      return;
    }
    throw cannotRead(input, err);
  }
  if (stats.isDirectory()) {
    yield* walkJsonSources(input);
    return;
  }
  yield { kind: 'path', path: input };
}
