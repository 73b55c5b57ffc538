import { spawnSync } from 'node:child_process';
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CompactSign } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BUNDLE_JWS_TYP,
  createBundle,
  generateSigningKeyPair,
  loadPrivateKey,
  verifyBundle,
} from '../../src/results/bundle.js';
import { resultsDoc } from './_results.js';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'cprc.js');

const resultsJson = `${JSON.stringify(
  resultsDoc(
    [
      { id: 'payee/version-is-cpr-1-0', state: 'passed', requirements: ['CPR-2.1-VERSION'] },
      { id: 'payee/token-single-use', state: 'failed', requirements: ['CPR-5-TOKEN-SINGLE-USE'], seed: 7 },
    ],
    {
      config_summary: { payee: { base_url: 'https://payee.example', api_token: '[redacted]' } },
      target_urls: { payee: { base_url: 'https://payee.example', harness_url: 'https://payee.example/h' } },
    },
  ),
  null,
  2,
)}\n`;

let dir: string;
let privateKey: KeyObject;
let publicKey: KeyObject;
let bundle: string;

function cprc(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: dir, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cprc-bundle-'));
  const pair = generateSigningKeyPair();
  privateKey = createPrivateKey(pair.privateKeyPem);
  publicKey = createPublicKey(pair.publicKeyPem);
  bundle = await createBundle({ resultsJson, privateKey, now: new Date('2026-06-01T12:05:00Z') });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('results bundle (library)', () => {
  it('verifies and attests the suite, the digests, the targets and the times', async () => {
    const v = await verifyBundle(bundle, publicKey);
    if (!v.valid) throw new Error(v.reason);
    expect(v.statement.results_json).toBe(resultsJson);
    expect(v.statement.suite.name).toBe('cpr-conformance');
    expect(v.statement.signed_at).toBe('2026-06-01T12:05:00.000Z');
    expect(v.statement.run).toMatchObject({
      started_at: '2026-06-01T12:00:00.000Z',
      verdict: 'fail',
      seed: 42,
    });
    expect(v.statement.target_urls).toEqual({
      payee: { base_url: 'https://payee.example', harness_url: 'https://payee.example/h' },
    });
    for (const key of ['results_json', 'catalog', 'ambiguities', 'profile', 'schemas', 'config'] as const) {
      expect(v.statement.digests[key]).toMatch(/^sha256:[0-9a-f]{64}$/);
    }
    expect(v.sameAsInstalled).toEqual({
      version: true,
      catalog: true,
      ambiguities: true,
      profile: true,
      schemas: true,
    });
  });

  it('fails on any changed byte of the header and the signature, and on payload bytes across the whole bundle', async () => {
    const jws = bundle.trimEnd();
    const [h = '', p = ''] = jws.split('.');
    const positions = new Set<number>();
    for (let i = 0; i < h.length; i += 1) positions.add(i);
    for (let i = h.length + 1 + p.length; i < jws.length; i += 1) positions.add(i);
    const step = Math.max(1, Math.floor(p.length / 150));
    for (let i = h.length + 1; i < h.length + 1 + p.length; i += step) positions.add(i);
    positions.add(h.length + p.length); // last payload character
    const accepted: number[] = [];
    for (const i of positions) {
      const c = jws[i] as string;
      // the neighbouring character: for the last character of a part it may differ only in padding bits
      const changed = `${jws.slice(0, i)}${c === 'A' ? 'B' : c === '.' ? '_' : String.fromCharCode(c.charCodeAt(0) ^ 1)}${jws.slice(i + 1)}\n`;
      if ((await verifyBundle(changed, publicKey)).valid) accepted.push(i);
    }
    expect(accepted).toEqual([]);
  });

  it('fails when bytes are appended or the line ending is changed', async () => {
    for (const changed of [`${bundle}\n`, `${bundle} `, bundle.replace(/\n$/, '\r\n'), `x${bundle}`]) {
      expect((await verifyBundle(changed, publicKey)).valid).toBe(false);
    }
  });

  it('fails with another key, and names why', async () => {
    const other = generateKeyPairSync('ed25519').publicKey;
    const v = await verifyBundle(bundle, other);
    expect(v).toEqual({ valid: false, reason: expect.stringContaining('signature invalid') });
  });

  it('fails when a statement signed by the same key embeds results that do not match its digests', async () => {
    const v = await verifyBundle(bundle, publicKey);
    if (!v.valid) throw new Error(v.reason);
    const edited = { ...v.statement, results_json: v.statement.results_json.replace('"fail"', '"pass"') };
    const resigned = await new CompactSign(new TextEncoder().encode(JSON.stringify(edited)))
      .setProtectedHeader({ alg: 'EdDSA', typ: BUNDLE_JWS_TYP })
      .sign(privateKey);
    expect(await verifyBundle(resigned, publicKey)).toEqual({
      valid: false,
      reason: 'the embedded results.json does not match its signed digest',
    });
    // and a JWS of something else, by the same key, is not a bundle
    const foreign = await new CompactSign(new TextEncoder().encode('{"hello":1}'))
      .setProtectedHeader({ alg: 'EdDSA', typ: BUNDLE_JWS_TYP })
      .sign(privateKey);
    expect((await verifyBundle(foreign, publicKey)).valid).toBe(false);
  });

  it('refuses to sign results of another suite version, and a key that is not Ed25519', async () => {
    const old = resultsJson.replace(/"suite_version": "[^"]+"/, '"suite_version": "0.0.1-old"');
    await expect(createBundle({ resultsJson: old, privateKey })).rejects.toThrow(
      /written by cpr-conformance 0.0.1-old/,
    );
    const ec = join(dir, 'ec.pem');
    writeFileSync(
      ec,
      generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }),
    );
    expect(() => loadPrivateKey(ec)).toThrow(/is a ec key; bundles are signed with Ed25519 only/);
  });
});

describe('cprc keygen / verify (built CLI)', () => {
  it('keygen writes a 0600 private key and a public key; verify prints what the bundle attests; a tampered copy exits 1', async () => {
    const gen = cprc(['keygen', '--out', 'lab']);
    expect(gen.status, gen.stderr).toBe(0);
    if (process.platform !== 'win32') expect(statSync(join(dir, 'lab.key')).mode & 0o777).toBe(0o600);
    expect(cprc(['keygen', '--out', 'lab']).stderr).toContain('never overwrites a key');

    const signed = await createBundle({ resultsJson, privateKey: loadPrivateKey(join(dir, 'lab.key')) });
    writeFileSync(join(dir, 'results.bundle'), signed);
    const ok = cprc(['verify', 'results.bundle', '--key', 'lab.pub', '--extract', 'attested.json']);
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stdout).toContain('valid signature (Ed25519');
    expect(ok.stdout).toMatch(/payee\.base_url https:\/\/payee\.example/);
    expect(ok.stdout).toMatch(/config\s+sha256:[0-9a-f]{64} \(secrets removed\)/);
    expect(ok.stdout).toMatch(/catalog\s+sha256:[0-9a-f]{64} \(same as this installation\)/);
    expect(readFileSync(join(dir, 'attested.json'), 'utf8')).toBe(resultsJson);

    const bytes = Buffer.from(signed);
    const middle = Math.floor(bytes.length / 2);
    bytes.writeUInt8(bytes.readUInt8(middle) ^ 1, middle);
    writeFileSync(join(dir, 'tampered.bundle'), bytes);
    const bad = cprc(['verify', 'tampered.bundle', '--key', 'lab.pub']);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('INVALID');
    expect(cprc(['verify', 'results.bundle', '--key', 'missing.pub']).status).toBe(2);
  });
});
