import type { KeyObject } from 'node:crypto';
import { constants } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { CprcError } from '../errors.js';

/**
 * Registers `cprc keygen` (an Ed25519 key pair for signing results bundles) and `cprc verify`
 * (checks a results.bundle offline and prints what it attests). Exit codes of verify: 0 valid,
 * 1 invalid (altered, other key, not a bundle), 2 usage or I/O error.
 *
 * @example
 * ```sh
 * cprc keygen --out lab-signing          # lab-signing.key (0600) and lab-signing.pub
 * cprc run --config staging.json --sign lab-signing.key
 * cprc verify reports/results.bundle --key lab-signing.pub
 * ```
 */
export function registerBundle(program: Command): void {
  program
    .command('keygen')
    .description(
      'write an Ed25519 key pair for "cprc run --sign": PREFIX.key (PKCS#8 PEM, mode 0600) and PREFIX.pub',
    )
    .requiredOption('--out <prefix>', 'path prefix of the two files')
    .action(async (opts: { out: string }) => {
      const { generateSigningKeyPair, keyThumbprint, loadPublicKey } = await import('../results/bundle.js');
      const { privateKeyPem, publicKeyPem } = generateSigningKeyPair();
      await writeNew(`${opts.out}.key`, privateKeyPem, 0o600);
      await writeNew(`${opts.out}.pub`, publicKeyPem, 0o644);
      const thumbprint = await keyThumbprint(loadPublicKey(`${opts.out}.pub`));
      process.stdout.write(
        `wrote ${opts.out}.key (private, keep it secret) and ${opts.out}.pub (give it to reviewers); key ${thumbprint}\n`,
      );
    });

  program
    .command('verify')
    .description('check a signed results bundle offline and print what it attests')
    .argument('<bundle>', 'results.bundle written by "cprc run --sign"')
    .requiredOption('--key <file>', 'public key of the signer (PEM or JWK)')
    .option('--json', 'print the attested statement as JSON (without the embedded results)')
    .option('--extract <file>', 'also write the attested results.json to this file')
    .action(async (bundlePath: string, opts: { key: string; json?: boolean; extract?: string }) => {
      process.exitCode = await verifyCommand(bundlePath, opts);
    });
}

/** Loads the signing key of `cprc run --sign` before the run starts, so a bad key fails fast. */
export async function loadSigningKey(path: string): Promise<KeyObject> {
  const { loadPrivateKey } = await import('../results/bundle.js');
  return loadPrivateKey(path);
}

/** Signs `<reportsDir>/results.json` into `<reportsDir>/results.bundle`; returns the bundle's path. */
export async function signResults(resultsPath: string, bundlePath: string, key: KeyObject): Promise<string> {
  const { createBundle } = await import('../results/bundle.js');
  const { writeFileAtomic } = await import('../reporters/atomic.js');
  let resultsJson: string;
  try {
    resultsJson = await readFile(resultsPath, 'utf8');
  } catch {
    throw new CprcError('CPRC_IO', `--sign: ${resultsPath} was not written, so there is nothing to sign`);
  }
  await writeFileAtomic(bundlePath, await createBundle({ resultsJson, privateKey: key }));
  return bundlePath;
}

async function writeNew(path: string, text: string, mode: number): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, mode);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new CprcError(
      'CPRC_IO',
      code === 'EEXIST'
        ? `${path} exists; cprc keygen never overwrites a key: choose another --out`
        : `${path}: cannot create it (${code ?? String(err)})`,
    );
  }
  try {
    await handle.writeFile(text);
  } finally {
    await handle.close();
  }
}

async function verifyCommand(
  bundlePath: string,
  opts: { key: string; json?: boolean; extract?: string },
): Promise<number> {
  const { loadPublicKey, verifyBundle } = await import('../results/bundle.js');
  const key = loadPublicKey(opts.key);
  let text: string;
  try {
    text = await readFile(bundlePath, 'utf8');
  } catch (err) {
    throw new CprcError(
      'CPRC_IO',
      `${bundlePath}: cannot read it (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
    );
  }
  const v = await verifyBundle(text, key);
  if (!v.valid) {
    process.stderr.write(`${bundlePath}: INVALID: ${v.reason}\n`);
    return 1;
  }
  if (opts.extract) {
    const { writeFileAtomic } = await import('../reporters/atomic.js');
    await writeFileAtomic(opts.extract, v.statement.results_json);
  }
  const { results_json: _omitted, ...statement } = v.statement;
  if (opts.json) {
    process.stdout.write(
      `${JSON.stringify({ valid: true, key: v.keyThumbprint, same_as_installed: v.sameAsInstalled, statement }, null, 2)}\n`,
    );
    return 0;
  }
  const s = v.statement;
  const same = (yes: boolean): string =>
    yes ? 'same as this installation' : 'DIFFERS from this installation';
  const c = v.results.counts;
  const urls: string[] = [];
  for (const [target, endpoints] of Object.entries(
    (s.target_urls ?? {}) as Record<string, Record<string, unknown>>,
  )) {
    for (const [what, url] of Object.entries(endpoints ?? {})) {
      urls.push(`${target}.${what} ${Array.isArray(url) ? url.join(' ') : String(url)}`);
    }
  }
  const verdicts = s.run.verdicts as Record<string, { verdict?: string }> | undefined;
  const lines = [
    `${bundlePath}: valid signature (Ed25519, key ${v.keyThumbprint})`,
    'it attests:',
    `  suite        ${s.suite.name} ${s.suite.version} (${same(v.sameAsInstalled.version)})`,
    ...(s.run.name ? [`  name         ${s.run.name}`] : []),
    `  run          ${s.run.started_at} to ${s.run.finished_at ?? '(not finished)'}${s.run.incomplete ? ', INCOMPLETE' : ''}; signed ${s.signed_at}`,
    `  targets      ${s.run.targets.join(', ')}`,
    ...urls.map((u) => `               ${u}`),
    `  verdict      ${s.run.verdict}${s.run.level ? ` at level ${s.run.level}` : ''}${
      verdicts ? ` (spec ${verdicts.spec?.verdict ?? '?'}, profile ${verdicts.profile?.verdict ?? '?'})` : ''
    }`,
    `  counts       ${c.passed} passed, ${c.failed} failed, ${c.warning} warnings, ${c.skipped} skipped, ${c.error} errors (of ${c.total})`,
    `  seed         ${s.run.seed}, ${s.run.runs} runs per property`,
    `  results.json ${s.digests.results_json}`,
    `  catalog      ${s.digests.catalog} (${same(v.sameAsInstalled.catalog)})`,
    `  ambiguities  ${s.digests.ambiguities} (${same(v.sameAsInstalled.ambiguities)})`,
    `  profile      ${s.digests.profile} (${same(v.sameAsInstalled.profile)})`,
    `  schemas      ${s.digests.schemas} (${same(v.sameAsInstalled.schemas)})`,
    `  config       ${s.digests.config} (secrets removed)`,
    ...(opts.extract ? [`results.json written to ${opts.extract}`] : []),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
