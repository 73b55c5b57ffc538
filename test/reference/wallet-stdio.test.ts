// The stdio form of the wallet harness (profile section 3): `cprc wallet-stdio` as a child
// process, one JSON line in, one JSON line out, in order; every line validated against the
// stdio-response schema. Needs the compiled CLI (`npm run build`; `npm test` builds first).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLoopbackPki, type LoopbackPki } from '../../src/loopback/tls.js';
import { packageRoot } from '../../src/paths.js';
import { getSchemaValidator } from '../../src/schemas/registry.js';
import { context, cprFor } from '../derivation/fixtures.js';
import { aroundNow, type MockPayee, startMockPayee } from './wallet-helpers.js';

const root = packageRoot();
const cli = join(root, 'bin', 'cprc.js');

let pki: LoopbackPki;
let payee: MockPayee;
let dir: string;
let caFile: string;

beforeAll(async () => {
  expect(existsSync(join(root, 'dist', 'src', 'cli', 'serve.js')), 'run "npm run build" first').toBe(true);
  pki = await createLoopbackPki();
  payee = await startMockPayee(pki.server);
  dir = await mkdtemp(join(tmpdir(), 'cprc-wallet-stdio-'));
  caFile = join(dir, 'ca.pem');
  await writeFile(caFile, pki.ca.certPem);
});

afterAll(async () => {
  await payee?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Runs `cprc wallet-stdio` with `args`, feeding `input`; resolves at exit. */
function runWallet(args: string[], input: string) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [cli, 'wallet-stdio', ...args], { cwd: root, stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

describe('cprc wallet-stdio (profile section 3, stdio form)', () => {
  it('answers one line per request, in order, and exits 0 at EOF', async () => {
    const validate = getSchemaValidator('harness/stdio-response');
    const requests = [
      JSON.stringify({ cpr: aroundNow(cprFor('SEPA_CT')), context: context() }),
      '{"cpr": {not json',
      JSON.stringify({ cpr: aroundNow(cprFor('PIX'), -60), context: context() }),
      '',
      JSON.stringify({ uri: payee.offer(aroundNow(cprFor('ACH'))), context: context() }),
      JSON.stringify({ cpr: aroundNow(cprFor('SWIFT')), context: context() }),
      JSON.stringify({ cpr: aroundNow(cprFor('UPI')) }),
      JSON.stringify({ cpr: aroundNow(cprFor('ON_CHAIN', { cpr_version: 'CPR-0.9' })), context: context() }),
    ];
    const { code, stdout, stderr } = await runWallet(['--ca', caFile], `${requests.join('\n')}\n`);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const lines = stdout.split('\n');
    expect(lines.pop()).toBe(''); // every answer ends with a newline
    const answers = lines.map(
      (line) => JSON.parse(line) as Record<string, { code?: string; value?: unknown }>,
    );
    for (const answer of answers) expect(validate(answer), JSON.stringify(validate.errors)).toBe(true);
    const summary = answers.map((a) => (a.payment ? 'payment' : a.error?.code));
    expect(summary).toEqual([
      'payment',
      'INVALID_REQUEST', // a line that is not JSON (profile 3: a harness-request error)
      'EXPIRED',
      'payment', // retrieved over https from a payee the --ca file vouches for
      'UNSUPPORTED_RAIL',
      'INVALID_REQUEST', // not the harness shape (no context)
      'INVALID_VERSION',
    ]);
  });

  it('without --ca does not trust the loopback payee (TOKEN_REJECTED)', async () => {
    const line = JSON.stringify({ uri: payee.offer(aroundNow(cprFor('ACH'))), context: context() });
    const { code, stdout } = await runWallet([], `${line}\n`);
    expect(code).toBe(0);
    expect(JSON.parse(stdout).error.code).toBe('TOKEN_REJECTED');
  });

  it('honours --supported-rails', async () => {
    const line = JSON.stringify({ cpr: aroundNow(cprFor('SWIFT')), context: context() });
    const { stdout } = await runWallet(['--supported-rails', 'SWIFT,SEPA_CT'], `${line}\n`);
    expect(JSON.parse(stdout).payment.intent.conditions.rail).toBe('SWIFT');
  });

  it('refuses a bad rail list or a missing --ca file on stderr, exit 2, stdout empty', async () => {
    const badRails = await runWallet(['--supported-rails', 'SEPA_CT,FEDNOW'], '');
    expect(badRails.code).toBe(2);
    expect(badRails.stdout).toBe('');
    expect(badRails.stderr).toContain('FEDNOW');
    const missing = await runWallet(['--ca', join(dir, 'absent.pem')], '');
    expect(missing.code).toBe(2);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toContain('absent.pem');
  });
});
