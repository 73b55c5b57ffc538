import { describe, expect, it } from 'vitest';
import { chainIdAgrees, chainKey } from '../../../src/validator/rules/chain-id-agrees.js';
import { expectFindings } from './run-rule.js';

// Profile section 2: in an on-chain CPR every chain identifier present (chain_id,
// payee.rail_address.chain_id, value.asset.chain_id) names the same chain, compared after mapping
// eip155:N and 0x-hex to decimal N. Payee reading: a PROFILE error; wallet reading: a warning.

const REQ = 'PRF-2-CHAIN-ID-AGREES';
const RAIL = '/payee/rail_address/chain_id';
const ASSET = '/value/asset/chain_id';

const onchain = (
  top: unknown,
  rail?: unknown,
  asset?: unknown,
  hint: unknown = 'ON_CHAIN',
): Record<string, unknown> => ({
  rail_hint: hint,
  chain_id: top,
  receiver_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  payee: {
    rail_address: {
      receiver_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      ...(rail === undefined ? {} : { chain_id: rail }),
    },
  },
  value: {
    amount: '1',
    asset: { type: 'stablecoin', code: 'USDC', ...(asset === undefined ? {} : { chain_id: asset }) },
  },
});

describe('chainKey', () => {
  it('maps decimal, eip155:N and 0x-hex spellings of one chain to the same decimal', () => {
    for (const [spelling, key] of [
      ['8453', '8453'],
      ['08453', '8453'],
      ['0008453', '8453'],
      ['eip155:8453', '8453'],
      ['eip155:08453', '8453'],
      ['0x2105', '8453'],
      ['0X2105', '8453'],
      ['0x02105', '8453'],
      ['0x2105'.toUpperCase().replace('0X', '0x'), '8453'],
      ['1', '1'],
      ['0x1', '1'],
      ['eip155:1', '1'],
      ['100', '100'],
      ['1000', '1000'],
      ['0100', '100'],
      ['0x64', '100'],
      ['eip155:100', '100'],
      ['eip155:0100', '100'],
      ['0', '0'],
      ['00', '0'],
      ['0x0', '0'],
      ['0x00', '0'],
      ['eip155:0', '0'],
      ['eip155:00', '0'],
      [
        '115792089237316195423570985008687907853269984665640564039457584007913129639935',
        '115792089237316195423570985008687907853269984665640564039457584007913129639935',
      ],
      [`0x${'f'.repeat(64)}`, (2n ** 256n - 1n).toString()],
    ] as const) {
      expect(chainKey(spelling), spelling).toBe(key);
    }
  });

  it('keeps any other string as itself and gives null for an empty or non-string value', () => {
    for (const s of [
      'solana:mainnet',
      'eip155:',
      'eip155:0x1',
      'EIP155:1',
      ' 1',
      '1 ',
      '0x',
      '0xg',
      'x1',
      '1x',
      'eip155:1a',
      'aeip155:1',
      '-1',
      '+1',
      '1.0',
      'base',
      '0x1 ',
      ' 0x1',
      'eip155: 1',
    ]) {
      expect(chainKey(s), s).toBe(s);
    }
    for (const v of ['', 1, 8453, null, undefined, true, {}, ['1']]) expect(chainKey(v)).toBeNull();
  });
});

describe('chain-id-agrees', () => {
  it('accepts equal identifiers in any spelling, and absent ones', () => {
    for (const mode of ['payee', 'wallet'] as const) {
      expectFindings(chainIdAgrees, onchain('8453', '8453', '8453'), [], { mode });
      expectFindings(chainIdAgrees, onchain('8453', 'eip155:8453', '0x2105'), [], { mode });
      expectFindings(chainIdAgrees, onchain('0x2105', '08453', 'eip155:8453'), [], { mode });
      expectFindings(chainIdAgrees, onchain('eip155:100', '0x64', '100'), [], { mode });
      expectFindings(chainIdAgrees, onchain('8453'), [], { mode });
      expectFindings(chainIdAgrees, onchain('solana:mainnet', 'solana:mainnet', 'solana:mainnet'), [], {
        mode,
      });
    }
  });

  it('payee: refuses each identifier naming another chain than chain_id (error, at its path)', () => {
    const found = expectFindings(
      chainIdAgrees,
      onchain('8453', '1', 'eip155:137'),
      [
        [REQ, RAIL],
        [REQ, ASSET],
      ],
      { mode: 'payee' },
    );
    expect(found[0]?.message).toContain('"1"');
    expect(found[0]?.message).toMatch(/^payee\.rail_address\.chain_id /);
    expect(found[1]?.message).toMatch(/^value\.asset\.chain_id /);
    expect(found[1]?.message).toContain('eip155:137');
    expectFindings(chainIdAgrees, onchain('8453', '8454'), [[REQ, RAIL]], { mode: 'payee' });
    expectFindings(chainIdAgrees, onchain('8453', undefined, '0x2106'), [[REQ, ASSET]], { mode: 'payee' });
    expectFindings(chainIdAgrees, onchain('1', '100'), [[REQ, RAIL]], { mode: 'payee' });
    expectFindings(chainIdAgrees, onchain('1', '10'), [[REQ, RAIL]], { mode: 'payee' });
    expectFindings(chainIdAgrees, onchain('0', '00', '1'), [[REQ, ASSET]], { mode: 'payee' });
    expectFindings(chainIdAgrees, onchain('Solana:mainnet', 'solana:mainnet'), [[REQ, RAIL]], {
      mode: 'payee',
    });
  });

  it('wallet: a disagreement is a warning (the wallet may refuse or derive)', () => {
    expectFindings(
      chainIdAgrees,
      onchain('8453', '1', 'eip155:137'),
      [
        [REQ, RAIL, 'warning'],
        [REQ, ASSET, 'warning'],
      ],
      { mode: 'wallet' },
    );
  });

  it('compares nothing without a top-level chain_id to compare to, and ignores empty or non-string ones', () => {
    expectFindings(chainIdAgrees, onchain(undefined, '1', '137'), []);
    expectFindings(chainIdAgrees, onchain('', '1', '137'), []);
    expectFindings(chainIdAgrees, onchain(8453, '1', '137'), []);
    expectFindings(chainIdAgrees, onchain('8453', '', 8453), []);
    expectFindings(chainIdAgrees, onchain('8453', null, ['1']), []);
  });

  it('applies to on-chain CPRs only', () => {
    for (const hint of ['SEPA_CT', 'ACH', 'PIX', 'OPEN', 'BOGUS', null]) {
      expectFindings(chainIdAgrees, onchain('8453', '1', '137', hint), []);
    }
    const { rail_hint: _, ...noHint } = onchain('8453', '1', '137');
    expectFindings(chainIdAgrees, noHint, []);
  });
});
