import type { Command } from 'commander';
import { CprcError } from '../errors.js';

/** Registers `cprc run` (being built; see the issue tracker). */
export function registerRun(program: Command): void {
  program.command('run').action(() => {
    throw new CprcError('CPRC_USAGE', '"cprc run" is not available in this build');
  });
}
