import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { CprcError } from '../errors.js';
import { packageRoot } from '../paths.js';

/** One entry of vectors/index.json `groups`. */
interface GroupEntry {
  group: string;
  file: string;
  schema: string;
  number_of_cases: number;
}

/** The groups the package ships (vectors/index.json), or a clear error for a damaged install. */
function groupsOf(root: string): GroupEntry[] {
  try {
    const index = JSON.parse(readFileSync(join(root, 'vectors', 'index.json'), 'utf8')) as {
      groups: GroupEntry[];
    };
    if (!Array.isArray(index.groups)) throw new Error('no "groups"');
    return index.groups;
  } catch (err) {
    throw new CprcError(
      'CPRC_INTERNAL',
      `the test vectors of this package cannot be read (${root}/vectors/index.json: ${err instanceof Error ? err.message : String(err)}); reinstall cpr-conformance`,
    );
  }
}

/**
 * Registers `cprc vectors [--out DIR] [--group NAME]`: writes the test vectors (docs/vectors.md)
 * for consumers in any language. With `--out`, the chosen group files (default: all),
 * `index.json` and their JSON Schemas (in `DIR/schemas/`) are written into DIR; without it, one
 * `--group` is printed to stdout as JSON, or a summary of the groups when none is named. Exit 0
 * when written, 2 for an unknown group or a folder that cannot be written.
 *
 * @example
 * ```sh
 * cprc vectors --out cpr-vectors/                 # every group, index.json and the schemas
 * cprc vectors --group crypto > crypto.json       # one group to stdout
 * ```
 */
export function registerVectors(program: Command): void {
  program
    .command('vectors')
    .description(
      'write the test vectors (JSON, one file per group, with their schemas) for use in any language',
    )
    .option(
      '--out <dir>',
      'folder to write <group>.json, index.json and schemas/ into (default: print to stdout)',
    )
    .option('--group <name>', 'only this group (documents, uris, qr, crypto, payee, derivation, operator)')
    .action(async (opts: { out?: string; group?: string }) => {
      const root = packageRoot();
      const all = groupsOf(root);
      let chosen = all;
      if (opts.group !== undefined) {
        chosen = all.filter((g) => g.group === opts.group);
        if (chosen.length === 0) {
          throw new CprcError(
            'CPRC_USAGE',
            `--group ${JSON.stringify(opts.group)} is no vector group; use one of ${all.map((g) => g.group).join(', ')}`,
          );
        }
      }
      if (opts.out === undefined) {
        if (opts.group !== undefined) {
          process.stdout.write(readFileSync(join(root, (chosen[0] as GroupEntry).file), 'utf8'));
          return;
        }
        const lines = all.map(
          (g) => `  ${g.group.padEnd(12)} ${String(g.number_of_cases).padStart(4)} cases  ${g.file}`,
        );
        process.stdout.write(
          `test vectors of cpr-conformance (in ${join(root, 'vectors')}):\n${lines.join('\n')}\n` +
            'write them out with --out DIR (all groups, index.json and schemas), or print one with --group NAME\n',
        );
        return;
      }
      const out = resolve(opts.out);
      const files: Array<[string, string]> = [[join(root, 'vectors', 'index.json'), join(out, 'index.json')]];
      const schemaNames = new Set(['index.schema.json', 'finding.schema.json']);
      for (const g of chosen) {
        files.push([join(root, g.file), join(out, `${g.group}.json`)]);
        schemaNames.add(`${g.group}.schema.json`);
      }
      const schemaDir = join(root, 'schemas', 'vectors');
      for (const name of readdirSync(schemaDir)) {
        if (schemaNames.has(name)) files.push([join(schemaDir, name), join(out, 'schemas', name)]);
      }
      try {
        await mkdir(join(out, 'schemas'), { recursive: true });
        for (const [from, to] of files) await writeFile(to, readFileSync(from));
      } catch (err) {
        throw new CprcError(
          'CPRC_IO',
          `--out ${opts.out}: cannot write the vectors there (${(err as NodeJS.ErrnoException).code ?? String(err)}); name a folder you can write to`,
        );
      }
      const cases = chosen.reduce((n, g) => n + g.number_of_cases, 0);
      process.stdout.write(
        `${chosen.length} vector group(s), ${cases} cases, written to ${out} (${chosen.map((g) => `${g.group}.json`).join(', ')}, index.json, schemas/)\n`,
      );
    });
}
