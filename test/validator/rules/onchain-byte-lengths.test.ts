import { describe, expect, it } from 'vitest';
import { onchainByteLengths } from '../../../src/validator/rules/onchain-byte-lengths.js';
import { type Expected, expectFindings } from './run-rule.js';

// CPR-1.0 2.5 with profile section 2: order_reference and acquirer_id are 16 bytes (a canonical
// UUID, 32 hex digits or 0x + 32 hex digits); domain_separator is 32 bytes (0x + 64 hex digits).
// Checked when the on-chain sub-interface applies or none does.

const ORDER = 'CPR-2.5-ORDER-REFERENCE';
const ACQUIRER = 'CPR-2.5-ACQUIRER-ID';
const DOMAIN = 'CPR-2.5-DOMAIN-SEPARATOR';
const UUID = '7f3c2a1b-9e8d-4c6f-0a1b-2c3d4e5f6071';
const HEX32 = '7f3c2a1b9e8d4c6f0a1b2c3d4e5f6071';
const HEX64 = `0x${HEX32}${HEX32.toUpperCase()}`;

const onchain = (fields: Record<string, unknown>, hint: unknown = 'ON_CHAIN'): Record<string, unknown> => ({
  rail_hint: hint,
  chain_id: '1',
  receiver_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  ...fields,
});
const all = (o: unknown, a: unknown, d: unknown): Record<string, unknown> => ({
  order_reference: o,
  acquirer_id: a,
  domain_separator: d,
});

describe('onchain-byte-lengths', () => {
  it('accepts every written form of 16 and 32 bytes, and absent fields', () => {
    for (const v16 of [
      UUID,
      UUID.toUpperCase(),
      HEX32,
      HEX32.toUpperCase(),
      `0x${HEX32}`,
      '00000000-0000-0000-0000-000000000000',
    ]) {
      expectFindings(onchainByteLengths, onchain(all(v16, v16, HEX64)), []);
      expectFindings(onchainByteLengths, onchain(all(v16, v16, HEX64)), [], { mode: 'wallet' });
    }
    expectFindings(onchainByteLengths, onchain({}), []);
    expectFindings(onchainByteLengths, onchain({ acquirer_id: HEX32 }), []);
  });

  it('refuses each 16-byte field written in any other form, at its path', () => {
    for (const bad of [
      HEX32.slice(1),
      `${HEX32}0`,
      `0x${HEX32.slice(1)}`,
      `0x${HEX32}0`,
      `0X${HEX32}`,
      `${HEX32.slice(1)}g`,
      UUID.replace(/-/g, '_'),
      UUID.slice(1),
      `${UUID}0`,
      `{${UUID}}`,
      UUID.replace('-', ''),
      `${UUID.slice(0, 8)}-${UUID.slice(9, 13)}${UUID.slice(13)}0`,
      ` ${HEX32}`,
      `${HEX32}\n`,
      HEX64,
      `0x${HEX32}`.replace('0x', '00'),
      '',
    ]) {
      const found = expectFindings(onchainByteLengths, onchain(all(bad, bad, HEX64)), [
        [ORDER, '/order_reference'],
        [ACQUIRER, '/acquirer_id'],
      ]);
      expect(found[0]?.message).toContain('order_reference');
      expect(found[1]?.message).toContain('acquirer_id');
      expect(found[0]?.message).toContain('16 bytes');
    }
  });

  it('refuses a domain separator not written 0x + 64 hex digits', () => {
    for (const bad of [
      HEX64.slice(0, -1),
      `${HEX64}0`,
      HEX64.slice(2),
      `0X${HEX64.slice(2)}`,
      `${HEX64.slice(0, -1)}g`,
      `0x${HEX32}`,
      UUID,
      ` ${HEX64}`,
      `${HEX64}\n`,
      `x${HEX64}`,
      '',
    ]) {
      const [f] = expectFindings(onchainByteLengths, onchain(all(UUID, HEX32, bad)), [
        [DOMAIN, '/domain_separator'],
      ]);
      expect(f?.message).toContain('domain_separator');
      expect(f?.message).toContain('32 bytes');
    }
  });

  it('refuses a non-string value of each field', () => {
    for (const v of [42, null, true, {}, [HEX32]]) {
      const shown = JSON.stringify(v);
      const found = expectFindings(onchainByteLengths, onchain(all(v, v, v)), [
        [ORDER, '/order_reference'],
        [ACQUIRER, '/acquirer_id'],
        [DOMAIN, '/domain_separator'],
      ]);
      for (const f of found) expect(f.message).toContain(shown);
    }
  });

  it('checks no field when another sub-interface applies; checks them when none applies', () => {
    const bad = all('x', 'y', 'z');
    expectFindings(
      onchainByteLengths,
      { rail_hint: 'SEPA_CT', iban: 'DE89370400440532013000', beneficiary_name: 'x', ...bad },
      [],
    );
    expectFindings(onchainByteLengths, { rail_hint: 'PIX', ...bad }, []);
    expectFindings(
      onchainByteLengths,
      { rail_hint: 'OPEN', key_type: 'EMAIL', key_value: 'a@b.c', ...bad },
      [],
    );
    const three: Expected[] = [
      [ORDER, '/order_reference'],
      [ACQUIRER, '/acquirer_id'],
      [DOMAIN, '/domain_separator'],
    ];
    expectFindings(onchainByteLengths, onchain(bad, 'BOGUS'), three);
    expectFindings(onchainByteLengths, { ...bad }, three);
    expectFindings(onchainByteLengths, { rail_hint: 'OPEN', ...bad }, three);
    expectFindings(onchainByteLengths, { rail_hint: 'PIX', domain_separator: 'z' }, []);
    expectFindings(onchainByteLengths, { rail_hint: 'PIX', acquirer_id: 'z' }, []);
  });
});
