import { resolve } from 'node:path';
import type { Command } from 'commander';
import { suiteVersion } from './version.js';

/**
 * Registers `cprc report <results.json> --reports DIR`: re-renders junit.xml, results.json,
 * summary.md and report.html of a past run from its results.json (an archived run, a bundle's
 * `cprc verify --extract`). Exit 0 when written (whatever the run's verdict), 2 when the file
 * is not a results.json or a report cannot be written.
 *
 * @example
 * ```sh
 * cprc report archive/2026-06/results.json --reports /tmp/review
 * ```
 */
export function registerReport(program: Command): void {
  program
    .command('report')
    .description(
      're-render the four reports (junit.xml, results.json, summary.md, report.html) from a results.json',
    )
    .argument('<results>', 'results.json of a run')
    .requiredOption('--reports <dir>', 'folder to write the reports into')
    .action(async (resultsPath: string, opts: { reports: string }) => {
      const { readResults } = await import('../results/read.js');
      const { rerenderReports } = await import('../results/rerender.js');
      const { doc } = readResults(resultsPath);
      const installed = suiteVersion();
      if (doc.suite_version !== installed) {
        process.stderr.write(
          `cprc report: ${resultsPath} was written by cpr-conformance ${doc.suite_version}; rendering with ${installed}'s catalog\n`,
        );
      }
      const dir = resolve(opts.reports);
      const written = await rerenderReports(doc, dir);
      const c = written.counts;
      process.stdout.write(
        `verdict ${written.verdict} (level ${written.level}): ${c.passed} passed, ${c.failed} failed, ${c.warning} warnings, ` +
          `${c.skipped} skipped, ${c.error} errors (of ${c.total}); reports in ${dir}\n`,
      );
    });
}
