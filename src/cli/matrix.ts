import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { CprcError } from '../errors.js';

/**
 * Registers `cprc matrix <results.json...> --out DIR`: the interoperability matrix of several
 * runs (implementations by their configured `name` against requirements), written as
 * `matrix.html`, `matrix.md` and `matrix.json`. Exit 0 when written, 2 for a usage or input error.
 *
 * @example
 * ```sh
 * cprc matrix acme/results.json globex/results.json initech/results.json --out interop/
 * ```
 */
export function registerMatrix(program: Command): void {
  program
    .command('matrix')
    .description('write the interoperability matrix of several runs (HTML, Markdown and JSON) into a folder')
    .argument(
      '<results...>',
      "results.json of each implementation's run (its report.html beside it is linked)",
    )
    .requiredOption('--out <dir>', 'folder to write matrix.html, matrix.md and matrix.json into')
    .action(async (paths: string[], opts: { out: string }) => {
      const { readResults } = await import('../results/read.js');
      const { buildMatrix, renderMatrixHtml, renderMatrixMarkdown } = await import('../results/matrix.js');
      const { writeFileAtomic } = await import('../reporters/atomic.js');
      const out = resolve(opts.out);
      const matrix = buildMatrix(
        paths.map((path) => ({ path, doc: readResults(path).doc })),
        out,
      );
      try {
        await mkdir(out, { recursive: true });
      } catch (err) {
        throw new CprcError(
          'CPRC_IO',
          `--out ${opts.out}: cannot create it (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
        );
      }
      const { columns, ...rest } = matrix;
      await writeFileAtomic(join(out, 'matrix.html'), renderMatrixHtml(matrix));
      await writeFileAtomic(join(out, 'matrix.md'), renderMatrixMarkdown(matrix));
      await writeFileAtomic(
        join(out, 'matrix.json'),
        `${JSON.stringify({ columns: columns.map(({ anchors: _anchors, ...c }) => c), ...rest }, null, 2)}\n`,
      );
      process.stdout.write(
        `${columns.length} implementations, ${matrix.rows.length} requirements tested; ${matrix.differing.length} differ, ` +
          `${matrix.nobodyPasses.length} passed by nobody; written to ${out}/matrix.{html,md,json}\n`,
      );
    });
}
