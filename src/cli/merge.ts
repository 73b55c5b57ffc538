import { resolve } from 'node:path';
import type { Command } from 'commander';

/**
 * Registers `cprc merge <results.json...> --reports DIR`: joins the parts of a sharded run
 * (`cprc run --shard INDEX/TOTAL --seed N` in several CI jobs) and writes junit.xml,
 * results.json, summary.md and report.html as one run would have. Refuses (exit 2) parts of
 * different suite versions, seeds, runs, levels, targets or configurations (digest without
 * secrets), a missing shard, a shard given twice and a check in two parts. Exit 0 when the merged
 * verdict passes, 1 when it fails.
 *
 * @example
 * ```sh
 * cprc merge shard-*\/results.json --reports reports
 * ```
 */
export function registerMerge(program: Command): void {
  program
    .command('merge')
    .description('merge the results.json of every shard of a run into the four reports of one run')
    .argument('<results...>', 'results.json of each shard (cprc run --shard INDEX/TOTAL)')
    .requiredOption('--reports <dir>', 'folder to write the merged reports into')
    .action(async (paths: string[], opts: { reports: string }) => {
      const { readResults } = await import('../results/read.js');
      const { mergeShards } = await import('../results/merge.js');
      const { rerenderReports } = await import('../results/rerender.js');
      const doc = mergeShards(paths.map((p) => readResults(p)));
      const dir = resolve(opts.reports);
      const written = await rerenderReports(doc, dir);
      const c = written.counts;
      process.stdout.write(
        `merged ${paths.length} shards: ${c.passed} passed, ${c.failed} failed, ${c.warning} warnings, ${c.skipped} skipped, ` +
          `${c.error} errors (of ${c.total})\nSPEC conformance:    ${written.verdicts.spec.summary}\n` +
          `PROFILE conformance: ${written.verdicts.profile.summary}\nreports in ${dir}\n`,
      );
      process.exitCode = written.verdict === 'pass' ? 0 : 1;
    });
}
