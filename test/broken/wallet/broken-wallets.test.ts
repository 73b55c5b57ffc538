// The broken wallets themselves (not the self-test, which runs the suite against them): each
// is listed once with a complete description, serves its core over HTTPS on 127.0.0.1 with a
// run config the runner accepts, and the same core over the stdio lines form.
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requirementById } from '../../../src/catalog/index.js';
import { serveWalletLines } from '../../../src/reference/wallet/index.js';
import { DEFAULT_SUPPORTED_RAILS } from '../../../src/reference/wallet/rails.js';
import { getSchemaValidator } from '../../../src/schemas/registry.js';
import { walletVariants } from '../../variants/wallet/index.js';
import type { StartedBroken } from '../types.js';
import { channelsOf, startBrokenWallet, stdioEntry } from './harness.js';
import { faults, walletFaults } from './index.js';

/** A valid SEPA credit transfer CPR around the real clock (the broken wallets use it). */
function cpr(): Record<string, unknown> {
  const now = Date.now();
  return {
    cpr_version: 'CPR-1.0',
    request_id: randomUUID(),
    created_at: new Date(now - 600_000).toISOString(),
    expires_at: new Date(now + 600_000).toISOString(),
    payee: { display_name: 'Test Shop', rail_address: { iban: 'DE89370400440532013000' } },
    value: { amount: '1500', asset: { type: 'fiat', code: 'EUR' } },
    memo: 'Order 1',
    rail_hint: 'SEPA_CT',
    iban: 'DE89370400440532013000',
    beneficiary_name: 'Test Shop GmbH',
  };
}

const context = { payer: { id: 'p-1' }, rail: { channel: 'test' }, authorization: { type: 'test' } };

describe('the broken wallet list', () => {
  it('has at least 8 faults, each with a unique wallet- id, a sentence and expected catalog IDs', () => {
    expect(faults.length).toBeGreaterThanOrEqual(8);
    expect(new Set(faults.map((f) => f.id)).size).toBe(faults.length);
    for (const f of faults) {
      expect(f.id).toMatch(/^wallet-[a-z0-9-]+$/);
      expect(f.target).toBe('wallet');
      expect(f.fault.split(/\s+/).length).toBeGreaterThanOrEqual(6);
      expect(f.expected.length, f.id).toBeGreaterThan(0);
      for (const id of f.expected) expect(requirementById(id), `${f.id}: ${id}`).toBeDefined();
      expect([...f.expected].sort(), f.id).toEqual(f.expected.slice().sort());
    }
    expect(walletFaults.map((f) => f.id)).toEqual(faults.map((f) => f.id));
  });
});

describe('a started broken wallet (wallet-reused-payment-id)', () => {
  let workDir: string;
  let started: StartedBroken;
  let client: Agent;

  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'cprc-broken-wallet-'));
    const fault = faults.find((f) => f.id === 'wallet-reused-payment-id');
    if (!fault) throw new Error('wallet-reused-payment-id is missing from the list');
    started = await fault.start({ workDir });
    const caFile = started.config.tls?.ca_file;
    if (!caFile) throw new Error('the config names no tls.ca_file');
    client = new Agent({ connect: { ca: await readFile(caFile, 'utf8') } });
  });

  afterAll(async () => {
    try {
      await started?.close();
      await client?.close();
    } finally {
      if (workDir) await rm(workDir, { recursive: true, force: true });
    }
  });

  it('returns a run config the runner accepts, with the HTTPS harness on 127.0.0.1 and no stdio command (a fault of the shared core is proven over HTTP)', () => {
    const validate = getSchemaValidator('tool/run-config');
    expect(validate(started.config), JSON.stringify(validate.errors)).toBe(true);
    expect(started.config.wallet?.harness_url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/harness$/);
    expect(started.config.wallet?.command).toBeUndefined();
    expect(started.config.tls?.suite_ca_key_file).toBeDefined();
  });

  it('serves its fault through the HTTPS harness: two derivations share one payment id', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await request(`${started.config.wallet?.harness_url}/derive`, {
        method: 'POST',
        dispatcher: client,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ cpr: cpr(), context }),
      });
      expect(res.statusCode).toBe(200);
      const body = (await res.body.json()) as { payment: { id: string; state: string } };
      expect(body.payment.state).toBe('CREATED');
      ids.push(body.payment.id);
    }
    expect(ids[0]).toBe(ids[1]);
  });
});

describe('the channels a broken wallet is served on', () => {
  it('names the stdio command for a fault in a channel’s own answers, and for every permitted variant', async () => {
    const wire = walletFaults.filter((f) => f.stdioLine || f.notJson);
    expect(wire.length).toBeGreaterThan(0);
    for (const f of wire) expect(channelsOf(f), f.id).toEqual(['http', 'stdio']);
    for (const v of walletVariants) expect(channelsOf(v), v.id).toEqual(['http', 'stdio']);
    const fault = wire[0] as (typeof wire)[number];
    const dir = await mkdtemp(join(tmpdir(), 'cprc-broken-wallet-'));
    try {
      const served = await startBrokenWallet(fault, dir);
      try {
        expect(served.config.wallet?.command).toEqual([
          process.execPath,
          stdioEntry(),
          '--fault',
          fault.id,
          '--ca',
          served.config.tls?.ca_file,
          '--supported-rails',
          (fault.supportedRails ?? DEFAULT_SUPPORTED_RAILS).join(','),
        ]);
      } finally {
        await served.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('serves a fault of the shared core over HTTP alone', () => {
    const core = walletFaults.filter((f) => !f.stdioLine && !f.notJson && !f.channels);
    expect(core.length).toBeGreaterThan(0);
    for (const f of core) expect(channelsOf(f), f.id).toEqual(['http']);
  });
});

describe('the stdio form of a broken core (serveWalletLines)', () => {
  it('answers each line with the fault in place (wallet-state-not-created: state PENDING)', async () => {
    const fault = walletFaults.find((f) => f.id === 'wallet-state-not-created');
    if (!fault) throw new Error('wallet-state-not-created is missing from the list');
    const core = fault.core({ trustedCaPems: [], supportedRails: ['SEPA_CT'] });
    const out: string[] = [];
    async function* lines() {
      yield JSON.stringify({ cpr: cpr(), context });
      yield JSON.stringify({ cpr: { ...cpr(), cpr_version: 'CPR-2.0' }, context });
    }
    await serveWalletLines(core, lines(), (line) => out.push(line));
    await core.close();
    expect(out).toHaveLength(2);
    expect(JSON.parse(out[0] ?? '{}').payment.state).toBe('PENDING');
    expect(JSON.parse(out[1] ?? '{}').error.code).toBe('INVALID_VERSION');
  });
});
