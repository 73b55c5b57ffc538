import type { Command } from 'commander';

/**
 * Registers `cprc diff <old.json> <new.json>`: checks whose state changed (by stable check ID),
 * requirements newly failing or fixed, property seeds that differ. Exit 0 when nothing newly
 * fails, 1 when a check or requirement fails that did not, 2 for a usage or input error.
 *
 * @example
 * ```sh
 * cprc diff last-release/results.json reports/results.json
 * ```
 */
export function registerDiff(program: Command): void {
  program
    .command('diff')
    .description('what changed between two runs: checks, requirements newly failing or fixed, property seeds')
    .argument('<old>', 'results.json of the earlier run')
    .argument('<new>', 'results.json of the later run')
    .option('--json', 'print the differences as JSON')
    .action(async (oldPath: string, newPath: string, opts: { json?: boolean }) => {
      const { readResults } = await import('../results/read.js');
      const { diffResults, formatDiff } = await import('../results/diff.js');
      const d = diffResults(readResults(oldPath).doc, readResults(newPath).doc);
      process.stdout.write(opts.json ? `${JSON.stringify(d, null, 2)}\n` : formatDiff(d, oldPath, newPath));
      process.exitCode = d.regression ? 1 : 0;
    });
}
