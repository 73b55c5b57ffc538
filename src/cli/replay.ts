import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { CprcError } from '../errors.js';

/** Options of `cprc replay`. */
interface ReplayOptions {
  config?: string;
  reference?: boolean;
  reports?: string;
}

/**
 * Registers `cprc replay <results.json> <check-id> --config FILE`: runs that one check again
 * with the seed, runs and level the results record (a property replays the same cases; the
 * check regenerates its exchanges, with fresh ids where the protocol needs them) and says
 * whether the failure still occurs. Exit 1 when it still fails (failed, warning or error), 0
 * when it passes now, 2 when the check cannot be found, was skipped, or for a usage error.
 *
 * @example
 * ```sh
 * cprc replay reports/results.json operator/redeem-takes-redemption-request-plus-cash-pack --config run.json
 * ```
 */
export function registerReplay(program: Command): void {
  program
    .command('replay')
    .description('run one check of a past run again (same seed) and say whether its failure still occurs')
    .argument('<results>', 'results.json of the run')
    .argument(
      '<check>',
      'check id as results.json names it, e.g. operator/redeem-takes-redemption-request-plus-cash-pack',
    )
    .option('--config <file>', 'run configuration of the target (JSON, profile section 5)')
    .option('--reference', 'replay against the reference stack')
    .option('--reports <dir>', 'reports folder of the replay (default: a temporary folder, printed)')
    .action(async (resultsPath: string, checkId: string, opts: ReplayOptions) => {
      process.exitCode = await replay(resultsPath, checkId, opts);
    });
}

async function replay(resultsPath: string, checkId: string, opts: ReplayOptions): Promise<number> {
  if (!opts.config === !opts.reference) {
    throw new CprcError(
      'CPRC_USAGE',
      'cprc replay: give --config FILE (the target to replay against) or --reference',
    );
  }
  const { readResults } = await import('../results/read.js');
  const { doc } = readResults(resultsPath);
  const recorded = doc.tests.find((t) => t.id === checkId);
  if (!recorded) {
    const failing = doc.tests.filter((t) => t.state === 'failed' || t.state === 'error').map((t) => t.id);
    throw new CprcError(
      'CPRC_USAGE',
      `cprc replay: ${resultsPath} has no check "${checkId}"${failing.length > 0 ? `; its failed or errored checks: ${failing.slice(0, 10).join(', ')}` : ''}`,
    );
  }
  const reportsDir = resolve(opts.reports ?? (await mkdtemp(join(tmpdir(), 'cprc-replay-'))));
  let stack: { configPath: string; close(): Promise<void> } | undefined;
  let stackDir: string | undefined;
  try {
    let configPath = opts.config ? resolve(opts.config) : '';
    if (opts.reference) {
      const { startReferenceStack } = await import('../loopback/stack.js');
      stackDir = await mkdtemp(join(tmpdir(), 'cprc-reference-'));
      stack = await startReferenceStack({ workDir: stackDir });
      configPath = stack.configPath;
    }
    const { runSuites } = await import('../runner/run.js');
    process.stdout.write(
      `cprc replay: ${checkId} (was ${recorded.state}) with seed ${doc.seed}, ${doc.runs} runs, level ${doc.level}\n`,
    );
    const result = await runSuites({
      configPath,
      targets: [recorded.target],
      reportsDir,
      seed: doc.seed,
      runs: doc.runs,
      level: doc.level,
      only: { checks: [checkId], source: `replay ${resultsPath}` },
      ...(opts.reference ? { reference: true } : {}),
      command: ['cprc', 'replay', ...process.argv.slice(3)],
      onProgress: (line) => process.stdout.write(`${line}\n`),
    });
    const now = result.events.find((e) => e.type === 'test' && e.id === checkId);
    if (now?.type !== 'test') {
      throw new CprcError(
        'CPRC_USAGE',
        `cprc replay: this suite (or this configuration) does not register the check "${checkId}"; reports in ${reportsDir}`,
      );
    }
    if (now.state === 'skipped') {
      process.stdout.write(
        `cannot tell: the check was skipped (${now.skip_reason ?? 'no reason'}); reports in ${reportsDir}\n`,
      );
      return 2;
    }
    if (now.state === 'passed') {
      process.stdout.write(`passes now (it was ${recorded.state}); reports in ${reportsDir}\n`);
      return 0;
    }
    process.stdout.write(
      `the failure still occurs: ${now.state}${now.message ? `: ${now.message.split('\n')[0]}` : ''}; reports in ${reportsDir}\n`,
    );
    return 1;
  } finally {
    try {
      await stack?.close();
    } finally {
      // the stack's CA key and run config go even when a server did not close cleanly
      if (stackDir) await rm(stackDir, { recursive: true, force: true });
    }
  }
}
