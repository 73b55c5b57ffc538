import { describe, expect, it } from 'vitest';
import { evmAddressChecksum, toChecksumAddress } from '../../../src/validator/rules/evm-address-checksum.js';
import { expectFindings } from './run-rule.js';

// CPR-1.0 2.5: receiver_address (top level and payee.rail_address) and contract_address are EVM
// addresses, 0x + 40 hex digits. EIP-55: a mixed-case address must match its checksum (error); a
// single-case one carries none and is a valid address (no finding: the contract does not ask for EIP-55).

const RECEIVER = 'CPR-2.5-RECEIVER-ADDRESS';
const CONTRACT = 'CPR-2.5-CONTRACT-ADDRESS';

/** The EIP-55 test vectors (mixed case, all upper-case checksum, all lower-case checksum). */
const MIXED = [
  '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
  '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
  '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
];
const ALL_UPPER = [
  '0x52908400098527886E0F7030069857D2E4169EE7',
  '0x8617E340B3D01FA5F11F306F4090FD50E238070D',
];
const ALL_LOWER = [
  '0xde709f2102306220921060314715629080e2fb77',
  '0x27b1fdb04752bbc536007a920d24acb045561c26',
];
const DIGITS_ONLY = `0x${'1234567890'.repeat(4)}`;
const USDC = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';

const flipFirstLetter = (a: string): string => {
  const i = a.slice(2).search(/[a-fA-F]/) + 2;
  const c = a[i] as string;
  return a.slice(0, i) + (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) + a.slice(i + 1);
};
const onchain = (
  receiver: unknown,
  inner: unknown = receiver,
  contract?: unknown,
): Record<string, unknown> => ({
  rail_hint: 'ON_CHAIN',
  chain_id: '1',
  receiver_address: receiver,
  payee: { rail_address: { receiver_address: inner, chain_id: '1' } },
  ...(contract === undefined ? {} : { contract_address: contract }),
});

describe('toChecksumAddress (EIP-55)', () => {
  it('gives the EIP-55 vectors from any case', () => {
    for (const a of [...MIXED, ...ALL_UPPER, ...ALL_LOWER, USDC]) {
      expect(toChecksumAddress(a.toLowerCase())).toBe(a);
      expect(toChecksumAddress(`0x${a.slice(2).toUpperCase()}`)).toBe(a);
      expect(toChecksumAddress(a)).toBe(a);
    }
    expect(toChecksumAddress(DIGITS_ONLY)).toBe(DIGITS_ONLY);
  });
});

describe('evm-address-checksum', () => {
  it('accepts checksummed addresses, single-case ones equal to their checksum, digits only', () => {
    for (const a of [...MIXED, ...ALL_UPPER, ...ALL_LOWER, DIGITS_ONLY, USDC]) {
      expectFindings(evmAddressChecksum, onchain(a, a, a), []);
      expectFindings(evmAddressChecksum, onchain(a, a, a), [], { mode: 'wallet' });
    }
  });

  it('ignores absent and non-string members (the schema reports them)', () => {
    expectFindings(evmAddressChecksum, {}, []);
    expectFindings(
      evmAddressChecksum,
      { receiver_address: 42, contract_address: null, payee: { rail_address: { receiver_address: [] } } },
      [],
    );
    expectFindings(evmAddressChecksum, { payee: 'x', receiver_address: undefined }, []);
  });

  it('refuses a mixed-case address that fails its checksum, at each place, naming the fixed form', () => {
    for (const a of [...MIXED, USDC]) {
      const bad = flipFirstLetter(a);
      const found = expectFindings(evmAddressChecksum, onchain(bad, bad, bad), [
        [RECEIVER, '/receiver_address'],
        [RECEIVER, '/payee/rail_address/receiver_address'],
        [CONTRACT, '/contract_address'],
      ]);
      for (const f of found) expect(f.message).toContain(a);
    }
  });

  it('accepts a single-case address whose checksum form differs (no checksum is no defect)', () => {
    for (const a of [
      ...MIXED,
      ...ALL_UPPER.map((x) => x.toLowerCase()),
      ...ALL_LOWER.map((x) => `0x${x.slice(2).toUpperCase()}`),
    ]) {
      for (const single of [a.toLowerCase(), `0x${a.slice(2).toUpperCase()}`]) {
        if (toChecksumAddress(single) === single) continue; // its own checksum form: covered above
        expectFindings(evmAddressChecksum, onchain(single, single, single), []);
        expectFindings(evmAddressChecksum, onchain(single, single, single), [], { mode: 'wallet' });
      }
    }
  });

  it('still refuses a mixed-case address one letter away from single case', () => {
    const lower = (MIXED[0] as string).toLowerCase();
    const i = lower.slice(2).search(/[a-f]/) + 2;
    const oneUpper = lower.slice(0, i) + (lower[i] as string).toUpperCase() + lower.slice(i + 1);
    if (oneUpper !== toChecksumAddress(oneUpper))
      expectFindings(evmAddressChecksum, onchain(oneUpper, oneUpper, oneUpper), [
        [RECEIVER, '/receiver_address'],
        [RECEIVER, '/payee/rail_address/receiver_address'],
        [CONTRACT, '/contract_address'],
      ]);
    else expect.unreachable('the first letter of the vector upper-cased alone is not its checksum form');
  });

  it('refuses what is not 0x followed by exactly 40 hex digits', () => {
    const a = MIXED[0] as string;
    for (const bad of [
      a.slice(0, 41),
      `${a}0`,
      `0X${a.slice(2)}`,
      a.slice(2),
      `${a.slice(0, 41)}g`,
      `${a.slice(0, 2)}g${a.slice(3)}`,
      ` ${a}`,
      `${a}\n`,
      `x${a}`,
      '0x',
      '',
      `0x${'0'.repeat(64)}`,
    ]) {
      const found = expectFindings(evmAddressChecksum, onchain(bad, bad, bad), [
        [RECEIVER, '/receiver_address'],
        [RECEIVER, '/payee/rail_address/receiver_address'],
        [CONTRACT, '/contract_address'],
      ]);
      for (const f of found) expect(f.message).toContain('40 hex digits');
      expect(found.map((f) => f.message.split(' ')[0])).toEqual([
        'receiver_address',
        'payee.rail_address.receiver_address',
        'contract_address',
      ]);
    }
  });

  it('judges the rail_address copy on its own when it differs from the top-level address', () => {
    const good = MIXED[0] as string;
    const bad = flipFirstLetter(MIXED[1] as string);
    expectFindings(evmAddressChecksum, onchain(good, bad), [
      [RECEIVER, '/payee/rail_address/receiver_address'],
    ]);
    expectFindings(evmAddressChecksum, onchain(bad, good), [[RECEIVER, '/receiver_address']]);
    expectFindings(evmAddressChecksum, onchain(good, good.toLowerCase()), []);
    expectFindings(evmAddressChecksum, onchain(42, bad), [
      [RECEIVER, '/payee/rail_address/receiver_address'],
    ]);
    expectFindings(evmAddressChecksum, onchain(good, 'nope'), [
      [RECEIVER, '/payee/rail_address/receiver_address'],
    ]);
    expectFindings(evmAddressChecksum, onchain(good, good, bad), [[CONTRACT, '/contract_address']]);
    expectFindings(evmAddressChecksum, onchain(bad, good, good), [[RECEIVER, '/receiver_address']]);
  });

  it('gives the same verdict on the second sight of an address (cached) as on the first', () => {
    const bad = flipFirstLetter(MIXED[2] as string);
    for (let i = 0; i < 3; i++) {
      expectFindings(evmAddressChecksum, onchain(bad, MIXED[2]), [[RECEIVER, '/receiver_address']]);
      expectFindings(evmAddressChecksum, onchain(MIXED[2], bad), [
        [RECEIVER, '/payee/rail_address/receiver_address'],
      ]);
    }
  });
});
