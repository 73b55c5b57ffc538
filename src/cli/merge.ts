import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { loadSigningKey, signResults } from './bundle.js';

/**
 * Registers `cprc merge <results.json...> --reports DIR`: joins the parts of a sharded run
 * (`cprc run --shard INDEX/TOTAL --seed N` in several CI jobs) and writes junit.xml,
 * results.json, summary.md and report.html as one run would have. Refuses (exit 2) parts of
 * different suite versions, seeds, runs, levels, targets or configurations (digest without
 * secrets), a missing shard, a shard given twice and a check in two parts. Exit 0 when the merged
 * verdict passes, 1 when it fails. `--sign KEY` signs the merged results.json into results.bundle,
 * as `cprc run --sign` does for a whole run.
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
    .option('--sign <key>', 'sign the merged results.json into results.bundle with this Ed25519 private key')
    .action(async (paths: string[], opts: { reports: string; sign?: string }) => {
      // the key is read first, so a wrong path fails before anything is written
      const key = opts.sign ? await loadSigningKey(opts.sign) : undefined;
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
      if (key) {
        const bundle = await signResults(join(dir, 'results.json'), join(dir, 'results.bundle'), key);
        process.stdout.write(
          `signed: ${bundle} (check it with "cprc verify ${bundle} --key <public key>")\n`,
        );
      }
      process.exitCode = written.verdict === 'pass' ? 0 : 1;
    });
}
