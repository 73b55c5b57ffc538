import type { Command } from 'commander';
import { CprcError } from '../errors.js';

/** Registers `cprc serve` (being built; see the issue tracker). */
export function registerServe(program: Command): void {
  program.command('serve').action(() => {
    throw new CprcError('CPRC_USAGE', '"cprc serve" is not available in this build');
  });
}
