// `cprc serve all` as a child process: the run config it writes (schema, mode 0600, no secret
// on stdout), a request to each URL it prints, a full payee -> wallet round trip through the
// config's wallet command, then SIGTERM and a clean exit. Needs the compiled CLI (`npm run build`).
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/paths.js';
import { getSchemaValidator } from '../../src/schemas/registry.js';

const root = packageRoot();
const cli = join(root, 'bin', 'cprc.js');

interface Config {
  tls: { ca_file: string; suite_ca_cert_file: string; suite_ca_key_file: string };
  payee: { base_url: string; harness_url: string; plain_http_url: string };
  wallet: { harness_url: string; command: string[]; supported_rails: string[] };
  operator: {
    base_url: string;
    harness_url: string;
    principals: Record<string, { private_key_jwk: { d: string }; status_credential: string }>;
    redeemer_identity_tokens: Record<string, string>;
    operator_status_credential: string;
  };
}

/** The answers the tests read, loosely typed. */
interface Answer {
  error?: { code?: string };
  uri?: string;
  request_id?: string;
  signature_alg?: string;
  payment?: { value?: { amount?: string }; context?: { request_id?: string } };
}

let dir: string;
let configOut: string;
let child: ChildProcessWithoutNullStreams;
let stdout = '';
let stderr = '';
let exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
let config: Config;
let agent: Agent;

beforeAll(async () => {
  expect(existsSync(join(root, 'dist', 'src', 'cli', 'serve.js')), 'run "npm run build" first').toBe(true);
  dir = await mkdtemp(join(tmpdir(), 'cprc-serve-test-'));
  configOut = join(dir, 'run-config.json');
  child = spawn(process.execPath, [cli, 'serve', 'all', '--config-out', configOut], {
    cwd: root,
    stdio: 'pipe',
  });
  exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      if (stdout.includes('press Ctrl+C to stop')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`cprc serve exited early (${code}): ${stderr}`)));
  });
  config = JSON.parse(await readFile(configOut, 'utf8')) as Config;
  agent = new Agent({ connect: { ca: await readFile(config.tls.ca_file, 'utf8') } });
});

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    // a test failed before the SIGTERM test: stop it the same way, so it removes its work folder
    // (CA key, run config); SIGKILL only when it does not stop
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
  await agent?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function call(url: string, body?: unknown) {
  const res = await request(url, {
    method: body === undefined ? 'GET' : 'POST',
    dispatcher: agent,
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  const text = await res.body.text();
  return {
    status: res.statusCode,
    body: text === '' ? undefined : (JSON.parse(text) as Answer),
  };
}

describe('cprc serve all', () => {
  it('writes a run config that satisfies run-config.schema.json, mode 0600', async () => {
    const validate = getSchemaValidator('tool/run-config');
    expect(validate(config), JSON.stringify(validate.errors)).toBe(true);
    expect((await stat(configOut)).mode & 0o777).toBe(0o600);
    expect((await stat(config.tls.suite_ca_key_file)).mode & 0o777).toBe(0o600);
    expect(config.tls.suite_ca_cert_file).toBe(config.tls.ca_file);
    expect(config.wallet.supported_rails).not.toContain('SWIFT');
    for (const url of [config.payee.base_url, config.wallet.harness_url, config.operator.base_url]) {
      expect(url).toMatch(/^https:\/\/127\.0\.0\.1:\d+/);
    }
  });

  it('prints every URL and the config path, and no secret', () => {
    for (const url of [
      config.payee.base_url,
      config.payee.harness_url,
      config.payee.plain_http_url,
      config.wallet.harness_url,
      config.operator.base_url,
      config.operator.harness_url,
    ]) {
      expect(stdout).toContain(url);
    }
    expect(stdout).toContain(configOut);
    const secrets = [
      config.operator.operator_status_credential,
      ...Object.values(config.operator.redeemer_identity_tokens),
      ...Object.values(config.operator.principals).flatMap((p) => [p.status_credential, p.private_key_jwk.d]),
    ];
    expect(secrets.length).toBeGreaterThanOrEqual(7);
    for (const secret of secrets) expect(stdout + stderr).not.toContain(secret);
  });

  it('serves the payee: an unknown token is 404, the harness issues a request', async () => {
    const unknown = await call(`${config.payee.base_url}/cpr/${'a'.repeat(32)}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body?.error?.code).toBe('TOKEN_UNKNOWN');
    const created = await call(`${config.payee.harness_url}/requests`, {
      delivery: 'reference',
      rail_hint: 'SEPA_CT',
    });
    expect(created.status).toBe(201);
    expect(created.body?.uri).toMatch(/^cpr:\/\//);
  });

  it('serves the Operator: its policy and its harness', async () => {
    const policy = await call(`${config.operator.base_url}/.well-known/cashpack-policy.json`);
    expect(policy.status).toBe(200);
    expect(policy.body?.signature_alg).toBe('EdDSA');
    const expire = await call(`${config.operator.harness_url}/expire`, { pack_id: crypto.randomUUID() });
    expect(expire.status).toBeGreaterThanOrEqual(400);
    expect(typeof expire.body?.error?.code).toBe('string');
  });

  it('serves the wallet: a URI from the payee derives over HTTPS and through the config command', async () => {
    const context = { payer: { id: 'p-1' }, rail: { network: 'test' }, authorization: { type: 'pin' } };
    const first = await call(`${config.payee.harness_url}/requests`, {
      delivery: 'reference',
      rail_hint: 'PIX',
      amount: '321',
    });
    const derived = await call(`${config.wallet.harness_url}/derive`, { uri: first.body?.uri, context });
    expect(derived.status).toBe(200);
    expect(derived.body?.payment?.value?.amount).toBe('321');
    expect(derived.body?.payment?.context?.request_id).toBe(first.body?.request_id);

    const second = await call(`${config.payee.harness_url}/requests`, {
      delivery: 'reference',
      rail_hint: 'ACH',
      amount: '4500',
    });
    const [command, ...args] = config.wallet.command;
    const answer = await new Promise<string>((resolve, reject) => {
      const wallet = spawn(command as string, args, { stdio: 'pipe' });
      let out = '';
      wallet.stdout.setEncoding('utf8').on('data', (d: string) => {
        out += d;
      });
      wallet.on('error', reject);
      wallet.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`wallet exited ${code}`))));
      wallet.stdin.end(`${JSON.stringify({ uri: second.body?.uri, context })}\n`);
    });
    expect(JSON.parse(answer)).toMatchObject({
      payment: { context: { request_id: second.body?.request_id } },
    });
  });

  it('never serves a CPR over plain http', async () => {
    const res = await request(`${config.payee.plain_http_url}/cpr/${'a'.repeat(32)}`);
    await res.body.dump();
    expect(res.statusCode).not.toBe(200);
  });

  it('stops cleanly on SIGTERM: exit 0, servers closed, work files removed', async () => {
    child.kill('SIGTERM');
    const { code } = await exited;
    expect(code).toBe(0);
    expect(stdout).toContain('servers stopped');
    expect(existsSync(config.tls.suite_ca_key_file)).toBe(false);
    await expect(request(config.wallet.harness_url, { dispatcher: agent })).rejects.toThrow();
  });
});
