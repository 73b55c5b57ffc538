import type { Command } from 'commander';
import { CprcError } from '../errors.js';

/** Registers `cprc validate` (being built; see the issue tracker). */
export function registerValidate(program: Command): void {
  program.command('validate').action(() => {
    throw new CprcError('CPRC_USAGE', '"cprc validate" is not available in this build');
  });
}
