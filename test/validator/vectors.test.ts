import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REGISTRY_IBANS } from '../../src/testing/arbitraries.js';
import { toChecksumAddress, validateCpr } from '../../src/validator/index.js';

const NOW = new Date('2026-06-01T12:00:00Z');
const onchain = JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', 'onchain-ok.json'), 'utf8'));
const sepa = JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', 'sepa-ct-ok.json'), 'utf8'));

function withAddress(address: string): unknown {
  return {
    ...onchain,
    receiver_address: address,
    payee: { ...onchain.payee, rail_address: { ...onchain.payee.rail_address, receiver_address: address } },
  };
}
function withIban(iban: string): unknown {
  return { ...sepa, iban, payee: { ...sepa.payee, rail_address: { iban } } };
}

// EIP-55 "Test Cases" (https://eips.ethereum.org/EIPS/eip-55).
const EIP55_ALL_CAPS = [
  '0x52908400098527886E0F7030069857D2E4169EE7',
  '0x8617E340B3D01FA5F11F306F4090FD50E238070D',
];
const EIP55_ALL_LOWER = [
  '0xde709f2102306220921060314715629080e2fb77',
  '0x27b1fdb04752bbc536007a920d24acb045561c26',
];
const EIP55_NORMAL = [
  '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
  '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
  '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
];

describe('EIP-55 test vectors (CPR-2.5-RECEIVER-ADDRESS)', () => {
  it.each(EIP55_NORMAL)('toChecksumAddress reproduces the EIP example %s', (a) => {
    expect(toChecksumAddress(a.toLowerCase())).toBe(a);
  });
  it.each(EIP55_NORMAL)('the mixed-case EIP example %s validates without finding', (a) => {
    const r = validateCpr(withAddress(a), { mode: 'payee', now: NOW });
    expect(r.findings).toEqual([]);
  });
  // The EIP's all-caps and all-lower examples are their own checksum form (the hash makes every
  // letter upper, or every letter lower): correctly written, so no finding.
  it.each([...EIP55_ALL_CAPS, ...EIP55_ALL_LOWER])(
    'the single-case EIP example %s is its own checksum form and validates without finding',
    (a) => {
      expect(toChecksumAddress(a.toLowerCase())).toBe(a);
      const r = validateCpr(withAddress(a), { mode: 'payee', now: NOW });
      expect(r.findings).toEqual([]);
    },
  );
  it.each(EIP55_NORMAL)(
    'the mixed-case EIP example %s written in one case carries no checksum and validates without finding',
    (a) => {
      for (const single of [`0x${a.slice(2).toLowerCase()}`, `0x${a.slice(2).toUpperCase()}`]) {
        expect(toChecksumAddress(single)).not.toBe(single);
        const r = validateCpr(withAddress(single), { mode: 'payee', now: NOW });
        expect(r.findings).toEqual([]);
      }
    },
  );
  it.each(EIP55_NORMAL)('the EIP example %s with one letter case flipped is an error', (a) => {
    const i = a.search(/[a-fA-F]/u);
    const c = a[i] as string;
    const flipped =
      a.slice(0, i) + (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()) + a.slice(i + 1);
    const r = validateCpr(withAddress(flipped), { mode: 'wallet', now: NOW });
    expect(r.valid).toBe(false);
    expect(r.findings.filter((f) => f.severity === 'error').map((f) => f.requirement)).toContain(
      'CPR-2.5-RECEIVER-ADDRESS',
    );
  });
});

describe('IBAN registry examples (CPR-2.6-IBAN-VALID)', () => {
  it.each(REGISTRY_IBANS)('the registry example %s validates', (iban) => {
    const r = validateCpr(withIban(iban), { mode: 'payee', now: NOW });
    expect(r.findings.filter((f) => f.severity === 'error')).toEqual([]);
  });
  it.each(REGISTRY_IBANS)('%s with altered check digits is rejected', (iban) => {
    const check = iban.slice(2, 4) === '99' ? '98' : String(Number(iban.slice(2, 4)) + 1).padStart(2, '0');
    const r = validateCpr(withIban(iban.slice(0, 2) + check + iban.slice(4)), { mode: 'payee', now: NOW });
    expect(r.findings.filter((f) => f.severity === 'error').map((f) => f.requirement)).toContain(
      'CPR-2.6-IBAN-VALID',
    );
  });
  it.each(REGISTRY_IBANS)('%s with a digit dropped (wrong country length) is rejected', (iban) => {
    const r = validateCpr(withIban(iban.slice(0, -1)), { mode: 'payee', now: NOW });
    const f = r.findings.find((x) => x.requirement === 'CPR-2.6-IBAN-VALID' && x.path === '/iban');
    expect(f?.severity).toBe('error');
  });
});
