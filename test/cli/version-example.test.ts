import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateCpr } from '../../src/validator/index.js';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'cprc.js');
const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;

describe('cprc --version and the README example', () => {
  it('prints the package version and exits 0', () => {
    for (const flag of ['--version', '-V']) {
      expect(execFileSync(process.execPath, [BIN, flag], { encoding: 'utf8' }).trim()).toBe(version);
    }
  });

  it('examples/payment-request.json has no finding in either reading, from today until just before it expires', () => {
    const doc = JSON.parse(readFileSync(join(ROOT, 'examples', 'payment-request.json'), 'utf8'));
    for (const now of [new Date(), new Date('2026-01-01T00:00:00Z'), new Date('2099-01-31T08:59:59Z')]) {
      for (const mode of ['wallet', 'payee'] as const) {
        expect(validateCpr(doc, { mode, now }), `${mode} at ${now.toISOString()}`).toMatchObject({
          valid: true,
          findings: [],
        });
      }
    }
    // not a validator that accepts anything: the same document is expired once its window has passed
    expect(validateCpr(doc, { mode: 'wallet', now: new Date('2099-02-01T00:00:00Z') }).valid).toBe(false);
  });

  it('cprc validate accepts it (the README quick start)', () => {
    const out = execFileSync(process.execPath, [BIN, 'validate', 'examples/payment-request.json'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(out).toContain('valid (wallet reading): 0 warnings');
  });
});
