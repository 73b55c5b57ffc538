import { describe, expect, it } from 'vitest';
import { expiry } from '../../../src/validator/rules/expiry.js';
import { expectFindings, NOW_MS } from './run-rule.js';

// CPR-1.0 2.1, 4.4 step 1, 7 rule 2: a request is expired when expires_at <= now. Wallet: it is
// rejected (CPR-7-EXPIRED-REJECTED); payee: a document emitted already expired (CPR-2.1-EXPIRES-AT).
const WALLET = 'CPR-7-EXPIRED-REJECTED';
const PAYEE = 'CPR-2.1-EXPIRES-AT';
const iso = (ms: number): string => new Date(ms).toISOString();

describe('expiry', () => {
  it('accepts expires_at after now, by one millisecond', () => {
    for (const mode of ['payee', 'wallet'] as const) {
      expectFindings(expiry, { expires_at: iso(NOW_MS + 1) }, [], { mode });
      expectFindings(expiry, { expires_at: iso(NOW_MS + 86_400_000) }, [], { mode });
    }
  });

  it('refuses expires_at equal to now or before it, naming both instants', () => {
    for (const ms of [NOW_MS, NOW_MS - 1, NOW_MS - 86_400_000]) {
      const [w] = expectFindings(expiry, { expires_at: iso(ms) }, [[WALLET, '/expires_at']], {
        mode: 'wallet',
      });
      expect(w?.message).toContain(iso(ms));
      expect(w?.message).toContain(iso(NOW_MS));
      const [p] = expectFindings(expiry, { expires_at: iso(ms) }, [[PAYEE, '/expires_at']], {
        mode: 'payee',
      });
      expect(p?.message).toContain(iso(NOW_MS));
    }
    // an offset: 13:59:59+02:00 is 11:59:59Z, before now (12:00Z)
    expectFindings(expiry, { expires_at: '2026-06-01T13:59:59+02:00' }, [[WALLET, '/expires_at']], {
      mode: 'wallet',
    });
  });

  it('judges nothing without an RFC 3339 string', () => {
    for (const mode of ['payee', 'wallet'] as const) {
      for (const v of [undefined, 0, null, 'yesterday'])
        expectFindings(expiry, { expires_at: v }, [], { mode });
    }
  });
});
