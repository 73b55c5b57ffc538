/** Atomic file writes: a reader sees the old file or the new one, never half of one. */
import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { CprcError } from '../errors.js';

/**
 * Writes `content` to `path` atomically: into a temporary file beside it (same folder, so the
 * rename stays on one file system), flushed to disk, then renamed over `path`. Creates the
 * folder. The temporary file is removed when anything fails. `mode`: the file's permissions
 * (default 0o644; 0o600 for a file holding a key).
 *
 * @throws CprcError `CPRC_IO` naming the file and the cause.
 * @example
 * ```ts
 * await writeFileAtomic('reports/results.json', text);
 * ```
 */
export async function writeFileAtomic(
  path: string,
  content: string,
  options: { mode?: number } = {},
): Promise<void> {
  const dir = dirname(path);
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await mkdir(dir, { recursive: true });
    const handle = await open(temp, 'wx', options.mode ?? 0o644);
    try {
      await handle.writeFile(content, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (err) {
    await unlink(temp).catch(() => undefined);
    const cause = err instanceof Error ? err.message : String(err);
    throw new CprcError(
      'CPRC_IO',
      `cannot write ${path} (${cause}); check that the reports folder is writable`,
      {
        cause: err,
      },
    );
  }
}
