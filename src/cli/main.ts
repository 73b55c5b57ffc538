import { Command, CommanderError } from 'commander';
import { isCprcError } from '../errors.js';
import { registerBundle } from './bundle.js';
import { registerDiff } from './diff.js';
import { registerMatrix } from './matrix.js';
import { registerMerge } from './merge.js';
import { registerReplay } from './replay.js';
import { registerReport } from './report.js';
import { registerRun } from './run.js';
import { registerServe } from './serve.js';
import { registerValidate } from './validate.js';
import { registerVectors } from './vectors.js';
import { suiteVersion } from './version.js';

/**
 * The `cprc` command line. Only `src/cli/` writes to stdout/stderr or sets the exit code.
 * Exit codes: 0 success/valid, 1 a conformance failure or invalid document, 2 usage, config or I/O error.
 */
export async function main(argv: string[]): Promise<number> {
  const program = new Command('cprc')
    .description('Conformance suite and reference validator for CPR-1.0 and the Cash-Pack API 1.0')
    .version(suiteVersion(), '-V, --version', 'print the cprc (suite) version')
    .exitOverride()
    .showHelpAfterError('(run "cprc --help" for usage)');
  registerValidate(program);
  registerServe(program);
  registerRun(program);
  registerBundle(program);
  registerReport(program);
  registerDiff(program);
  registerMatrix(program);
  registerMerge(program);
  registerReplay(program);
  registerVectors(program);
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      // help and version exit 0; every other commander error is a usage error.
      return err.exitCode === 0 ? 0 : 2;
    }
    if (isCprcError(err)) {
      process.stderr.write(`cprc: ${err.message}\n`);
      return 2;
    }
    process.stderr.write(`cprc: internal error: ${err instanceof Error ? err.message : String(err)}\n`);
    return 2;
  }
}
