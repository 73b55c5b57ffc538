/**
 * The reference wallet's own configuration (`createWalletCore` options and their defaults, the
 * `--supported-rails` list, the rails it supports by default) and the derivations only such a
 * configuration reaches: a rail list leaving a sub-interface without a rail, a derivation set up
 * without a fetcher. The suite runs the default stack and cannot see these; the mutation run
 * judges them by these tests (scripts/mutation-scopes.mjs).
 */
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLoopbackPki, type LoopbackPki } from '../../../src/loopback/tls.js';
import { RAILS, type Rail } from '../../../src/model/cpr.js';
import {
  createWalletCore,
  DEFAULT_SUPPORTED_RAILS,
  derivePayment,
  parseRailList,
  subInterfaceOf,
  subInterfaceOfRail,
} from '../../../src/reference/wallet/index.js';
import { context, cprFor, NOW } from '../../derivation/fixtures.js';
import { aroundNow, type MockPayee, startMockPayee } from '../wallet-helpers.js';

let pki: LoopbackPki;
let payee: MockPayee;

beforeAll(async () => {
  pki = await createLoopbackPki();
  payee = await startMockPayee(pki.server);
});
afterAll(async () => {
  await payee?.close();
});

type Result = Awaited<ReturnType<typeof derivePayment>>;

function codeOf(result: Result): string {
  return result.ok ? 'payment' : result.error.code;
}

function railOf(result: Result): unknown {
  return result.ok ? result.payment.intent.conditions.rail : undefined;
}

describe('the rails it supports', () => {
  it('supports every rail but SWIFT by default', () => {
    expect(DEFAULT_SUPPORTED_RAILS).toEqual(['ON_CHAIN', 'SEPA_CT', 'SEPA_INST', 'ACH', 'PIX', 'UPI']);
  });

  it('serves each rail by the sub-interface of profile 2', () => {
    expect(Object.fromEntries(RAILS.map((r) => [r, subInterfaceOfRail(r)]))).toEqual({
      ON_CHAIN: 'onchain',
      SEPA_CT: 'iban',
      SEPA_INST: 'iban',
      SWIFT: 'iban',
      ACH: 'account',
      PIX: 'instant-key',
      UPI: 'instant-key',
    });
  });

  it('finds the sub-interface of a document by its rail, or else by the one address field present', () => {
    const iban = { iban: 'DE89370400440532013000' };
    const account = { account_number: '000123456789' };
    expect(subInterfaceOf({ rail_hint: 'SWIFT' })).toBe('iban');
    expect(subInterfaceOf({ rail_hint: 'OPEN', ...account })).toBe('account');
    expect(subInterfaceOf({ key_type: 'EMAIL' })).toBe('instant-key');
    expect(subInterfaceOf({ rail_hint: 'OPEN' })).toBeUndefined();
    expect(subInterfaceOf({ rail_hint: 'FEDNOW', ...iban, ...account })).toBeUndefined();
  });

  it('createWalletCore pays every default rail and refuses SWIFT unless configured', async () => {
    const core = createWalletCore({ trustedCaPems: [], clock: () => NOW });
    const swiftOnly = createWalletCore({ trustedCaPems: [], clock: () => NOW, supportedRails: ['SWIFT'] });
    try {
      for (const rail of RAILS) {
        const result = await core.derive({ cpr: cprFor(rail), context: context() });
        expect(codeOf(result), rail).toBe(rail === 'SWIFT' ? 'UNSUPPORTED_RAIL' : 'payment');
      }
      expect(railOf(await swiftOnly.derive({ cpr: cprFor('SWIFT'), context: context() }))).toBe('SWIFT');
      expect(codeOf(await swiftOnly.derive({ cpr: cprFor('SEPA_CT'), context: context() }))).toBe(
        'UNSUPPORTED_RAIL',
      );
    } finally {
      await core.close();
      await swiftOnly.close();
    }
  });
});

describe('parseRailList (--supported-rails)', () => {
  it('reads a comma-separated list in any case, trimmed, skipping empty items and repeats', () => {
    expect(parseRailList('SEPA_CT,ACH')).toEqual(['SEPA_CT', 'ACH']);
    expect(parseRailList(' sepa_ct , Ach,,SEPA_CT, ,ach ')).toEqual(['SEPA_CT', 'ACH']);
    expect(parseRailList('swift')).toEqual(['SWIFT']);
    expect(parseRailList('')).toEqual([]);
    expect(parseRailList(' , ')).toEqual([]);
  });

  it('refuses an entry that is no rail, naming it and the rails', () => {
    const rails = 'ON_CHAIN, SEPA_CT, SEPA_INST, ACH, PIX, UPI, SWIFT';
    expect(() => parseRailList('SEPA_CT,  fedNow ')).toThrow(
      new Error(`"fedNow" is not a rail; use a comma-separated list of ${rails}`),
    );
    expect(() => parseRailList('OPEN')).toThrow(
      new Error(`"OPEN" is not a rail; use a comma-separated list of ${rails}`),
    );
  });
});

describe('a rail list leaving a sub-interface without a rail', () => {
  it('refuses a request of that sub-interface without a specific hint: UNSUPPORTED_RAIL naming both lists', async () => {
    for (const hint of ['OPEN', undefined, 'FEDNOW']) {
      const cpr = cprFor('ACH', { rail_hint: hint });
      const result = await derivePayment(
        { cpr, context: context() },
        { now: NOW, supportedRails: ['SEPA_CT', 'PIX'] },
      );
      expect(result, String(hint)).toEqual({
        ok: false,
        error: {
          code: 'UNSUPPORTED_RAIL',
          message:
            'this request can only be paid by [ACH], which this wallet does not support; it supports [SEPA_CT,PIX]',
        },
      });
    }
  });

  it('takes the first supported rail of the sub-interface otherwise, in the order of spec 2.4', async () => {
    const cpr = cprFor('SEPA_CT', { rail_hint: 'OPEN' });
    for (const [supported, rail] of [
      [['SWIFT'], 'SWIFT'],
      [['SWIFT', 'SEPA_INST'], 'SEPA_INST'],
      [['ACH', 'SWIFT', 'SEPA_CT'], 'SEPA_CT'],
    ] as [Rail[], Rail][]) {
      const result = await derivePayment(
        { cpr, context: context() },
        { now: NOW, supportedRails: supported },
      );
      expect(railOf(result)).toBe(rail);
    }
  });
});

describe('a derivation set up without a fetcher', () => {
  it('refuses a reference uri: TOKEN_REJECTED, contacting no one', async () => {
    const uri = payee.offer(cprFor('ACH'));
    const result = await derivePayment(
      { uri, context: context() },
      { now: NOW, supportedRails: DEFAULT_SUPPORTED_RAILS },
    );
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'TOKEN_REJECTED',
        message:
          'this wallet was set up without a way to retrieve reference uris; send the cpr itself or an inline uri',
      },
    });
    expect(payee.hits.get(tokenOf(uri))).toBe(0);
  });
});

function tokenOf(uri: string): string {
  return /^cpr:\/\/([0-9a-f]+)\?/.exec(uri)?.[1] ?? '';
}

describe('createWalletCore', () => {
  it('reads the system clock by default', async () => {
    const core = createWalletCore({ trustedCaPems: [] });
    try {
      expect(codeOf(await core.derive({ cpr: aroundNow(cprFor('PIX'), 60), context: context() }))).toBe(
        'payment',
      );
      expect(codeOf(await core.derive({ cpr: aroundNow(cprFor('PIX'), -1), context: context() }))).toBe(
        'EXPIRED',
      );
      // the fixtures' documents expired long before the system clock's now
      expect(codeOf(await core.derive({ cpr: cprFor('PIX'), context: context() }))).toBe('EXPIRED');
    } finally {
      await core.close();
    }
  });

  it('reads the clock it is given, at each derivation', async () => {
    let now = NOW;
    const core = createWalletCore({ trustedCaPems: [], clock: () => now });
    try {
      expect(codeOf(await core.derive({ cpr: cprFor('UPI'), context: context() }))).toBe('payment');
      now = new Date(Date.parse(cprFor('UPI').expires_at as string));
      expect(codeOf(await core.derive({ cpr: cprFor('UPI'), context: context() }))).toBe('EXPIRED');
    } finally {
      await core.close();
    }
  });

  it('retrieves reference uris from a payee its CAs vouch for', async () => {
    const trusting = createWalletCore({ trustedCaPems: [pki.ca.certPem], clock: () => NOW });
    const stranger = createWalletCore({ trustedCaPems: [], clock: () => NOW });
    try {
      expect(codeOf(await trusting.derive({ uri: payee.offer(cprFor('ACH')), context: context() }))).toBe(
        'payment',
      );
      expect(codeOf(await stranger.derive({ uri: payee.offer(cprFor('ACH')), context: context() }))).toBe(
        'TOKEN_REJECTED',
      );
    } finally {
      await trusting.close();
      await stranger.close();
    }
  });

  it('gives up a retrieval after fetchTimeoutMs (TOKEN_REJECTED)', async () => {
    const silent = createServer({ cert: pki.server.certPem, key: pki.server.keyPem }, () => {
      // never answers
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const endpoint = `https://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const core = createWalletCore({ trustedCaPems: [pki.ca.certPem], clock: () => NOW, fetchTimeoutMs: 200 });
    try {
      const started = Date.now();
      const uri = `cpr://${'a'.repeat(32)}?endpoint=${encodeURIComponent(endpoint)}`;
      expect(codeOf(await core.derive({ uri, context: context() }))).toBe('TOKEN_REJECTED');
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      await core.close();
      await new Promise<void>((resolve) => {
        silent.close(() => resolve());
        silent.closeAllConnections();
      });
    }
  });

  it('close() releases the fetcher: a reference uri after it is refused, contacting no one', async () => {
    const core = createWalletCore({ trustedCaPems: [pki.ca.certPem], clock: () => NOW });
    expect(codeOf(await core.derive({ uri: payee.offer(cprFor('ACH')), context: context() }))).toBe(
      'payment',
    );
    await core.close();
    const uri = payee.offer(cprFor('ACH'));
    expect(codeOf(await core.derive({ uri, context: context() }))).toBe('TOKEN_REJECTED');
    expect(payee.hits.get(tokenOf(uri))).toBe(0);
  });
});
