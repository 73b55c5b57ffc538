import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Recorder } from '../../src/drivers/recorder.js';
import { createStdioWallet } from '../../src/drivers/stdio-wallet.js';
import { DriverTransportError, type WalletDriver } from '../../src/drivers/types.js';

const SCRIPT = join(import.meta.dirname, 'fixtures', 'stdio-wallet.mjs');
const context = { payer: { id: 'p' }, rail: { rail: 'SEPA_CT' }, authorization: { t: 1 } };

function wallet(mode: string, timeoutMs = 5000, recorder?: Recorder): WalletDriver {
  return createStdioWallet({
    command: [process.execPath, SCRIPT, mode],
    timeoutMs,
    maxLineBytes: 1 << 20,
    env: { WALLET_API_KEY: 'wallet-api-key-secret' },
    ...(recorder ? { recorder } : {}),
  });
}

describe('stdio wallet driver', () => {
  it('keeps one process, answers one JSON line per request, serialised and in order', async () => {
    const recorder = new Recorder();
    const w = wallet('ok', 5000, recorder);
    const results = await Promise.all(
      [1, 2, 3].map((tag) =>
        w.derive({ cpr: { expires_at: '2999-01-01T00:00:00Z' }, context: { ...context, tag } }),
      ),
    );
    expect(results.map((r) => (r.ok ? r.payment.echo : null))).toEqual([1, 2, 3]);
    expect(new Set(results.map((r) => (r.ok ? r.payment.pid : null))).size).toBe(1);
    const rejected = await w.derive({ cpr: { expires_at: '2000-01-01T00:00:00Z' }, context });
    expect(rejected).toEqual({
      ok: false,
      error: { code: 'EXPIRED', message: 'expired request', body: expect.anything() },
    });
    const recorded = recorder.take();
    expect(recorded).toHaveLength(4);
    expect(recorded[0]).toMatchObject({ kind: 'stdio' });
    expect(recorded[0]?.response_body).toContain('pay-1');
    expect(w.channel).toBe('stdio');
    await w.close?.();
  });

  it('restart stops the command after the requests in flight; the next request starts a new one, the driver stays open', async () => {
    const w = wallet('ok');
    const expires = { expires_at: '2999-01-01T00:00:00Z' };
    const before = w.derive({ cpr: expires, context: { ...context, tag: 1 } });
    await w.restart?.();
    const first = await before;
    const after = await w.derive({ cpr: expires, context: { ...context, tag: 2 } });
    expect(first.ok && after.ok).toBe(true);
    if (!first.ok || !after.ok) return;
    expect(first.payment.echo).toBe(1);
    expect(after.payment.echo).toBe(2);
    expect(after.payment.pid).not.toBe(first.payment.pid);
    // with no command running, a restart does nothing
    await w.close?.();
    await w.restart?.();
  });

  it('reports a crash as a transport error naming the exit code and the stderr tail, secrets redacted', async () => {
    const recorder = new Recorder(['wallet-api-key-secret']);
    const w = wallet('crash', 5000, recorder);
    const err = await w.derive({ cpr: {}, context }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DriverTransportError);
    expect((err as Error).message).toMatch(/exited \(code 3\) before answering/);
    expect((err as Error).message).toMatch(/boom: the wallet crashed/);
    expect((err as Error).message).not.toContain('wallet-api-key-secret');
    // the next request starts the command again (and it crashes again, reported again)
    const again = await w.derive({ cpr: {}, context }).catch((e: unknown) => e);
    expect((again as Error).message).toMatch(/exited \(code 3\)/);
    await w.close?.();
  });

  it('reports a line that is not JSON as a transport error quoting it', async () => {
    const w = wallet('garbage');
    const err = await w.derive({ cpr: {}, context }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DriverTransportError);
    expect((err as Error).message).toMatch(/wrote a line that is not JSON: "this is not json"/);
    await w.close?.();
  });

  it('reports JSON that is not a profile answer as a protocol error, never a rejection', async () => {
    for (const [mode, cause] of [
      ['shape', /neither a "payment" nor an "error"/],
      ['badcode', /REQUEST_EXPIRED/],
      ['invalid', /INVALID_REQUEST to a well-formed harness request/],
    ] as const) {
      const w = wallet(mode);
      const err = await w.derive({ cpr: {}, context }).catch((e: unknown) => e);
      expect(err, mode).toBeInstanceOf(DriverTransportError);
      expect((err as Error).message).toMatch(
        /wallet command ".*" gave an answer that is not a profile answer/,
      );
      expect((err as Error).message).toMatch(cause);
      await w.close?.();
    }
  });

  it('reads INVALID_REQUEST as the answer to a malformed harness request (profile 3)', async () => {
    const w = wallet('invalid');
    const r = await w.derive({ cpr: {} } as unknown as Parameters<WalletDriver['derive']>[0]);
    expect(r).toMatchObject({ ok: false, error: { code: 'INVALID_REQUEST' } });
    await w.close?.();
  });

  it('bounds each request by the timeout (timeouts.request_ms)', async () => {
    const w = wallet('silent', 300);
    const err = await w.derive({ cpr: {}, context }).catch((e: unknown) => e);
    expect((err as DriverTransportError).code).toBe('CPRC_TIMEOUT');
    expect((err as Error).message).toMatch(/did not answer within 300 ms \(timeouts\.request_ms\)/);
    await w.close?.();
  });

  it('refuses an answer line above limits.max_response_bytes, naming the cap', async () => {
    const w = createStdioWallet({
      command: [process.execPath, SCRIPT, 'huge'],
      timeoutMs: 5000,
      maxLineBytes: 4096,
    });
    const err = await w.derive({ cpr: {}, context }).catch((e: unknown) => e);
    expect((err as DriverTransportError).code).toBe('CPRC_RESPONSE_TOO_LARGE');
    expect((err as Error).message).toMatch(
      /larger than the cap of 4096 bytes \(limits\.max_response_bytes\)/,
    );
    await w.close?.();
  });

  it('names a command that cannot be started', async () => {
    const w = createStdioWallet({
      command: ['/nonexistent/wallet-binary'],
      timeoutMs: 2000,
      maxLineBytes: 1024,
    });
    const err = await w.derive({ cpr: {}, context }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DriverTransportError);
    expect((err as Error).message).toMatch(/\/nonexistent\/wallet-binary/);
    await w.close?.();
  });
});
