// `cprc serve wallet`: one target only, its run config carries only that section (and tls), and
// SIGINT stops it cleanly. Needs the compiled CLI (`npm run build`).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { packageRoot } from '../../src/paths.js';
import { getSchemaValidator } from '../../src/schemas/registry.js';

const root = packageRoot();
let dir: string | undefined;

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('cprc serve wallet', () => {
  it('starts the wallet only, writes a valid config with just tls and wallet, and stops on SIGINT', async () => {
    expect(existsSync(join(root, 'dist', 'src', 'cli', 'serve.js')), 'run "npm run build" first').toBe(true);
    dir = await mkdtemp(join(tmpdir(), 'cprc-serve-wallet-'));
    const configOut = join(dir, 'wallet.json');
    const child = spawn(
      process.execPath,
      [join(root, 'bin', 'cprc.js'), 'serve', 'wallet', '--config-out', configOut],
      {
        cwd: root,
        stdio: 'pipe',
      },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on('exit', (code, signal) => resolve({ code, signal })),
    );
    // when the test fails before its SIGINT: stopped all the same, so it removes its work folder
    onTestFinished(async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGINT');
        await exited;
      }
    });
    let stdout = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        stdout += d;
        if (stdout.includes('press Ctrl+C to stop')) resolve();
      });
      child.on('exit', (code) => reject(new Error(`cprc serve exited early (${code})`)));
    });
    const config = JSON.parse(await readFile(configOut, 'utf8')) as Record<string, unknown>;
    const validate = getSchemaValidator('tool/run-config');
    expect(validate(config), JSON.stringify(validate.errors)).toBe(true);
    expect(Object.keys(config).sort()).toEqual(['timeouts', 'tls', 'wallet']);
    expect(stdout).not.toContain('payee ');
    expect(stdout).toContain((config.wallet as { harness_url: string }).harness_url);

    child.kill('SIGINT');
    expect(await exited, `stderr: ${stderr}`).toEqual({ code: 0, signal: null });
    expect(stdout).toContain('SIGINT received, servers stopped');
  });
});
