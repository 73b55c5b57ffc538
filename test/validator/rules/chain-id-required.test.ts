import { describe, expect, it } from 'vitest';
import { chainIdRequired } from '../../../src/validator/rules/chain-id-required.js';
import { expectFindings } from './run-rule.js';

// CPR-1.0 2.3: asset.chain_id is required when asset.type is stablecoin or tokenized.
const REQ = 'CPR-2.3-CHAIN-ID-REQUIRED';
const AT = '/value/asset/chain_id';
const doc = (asset: unknown): Record<string, unknown> => ({ value: { amount: '1', asset } });

describe('chain-id-required', () => {
  it('accepts a non-empty chain_id on stablecoin and tokenized assets; other types need none', () => {
    for (const mode of ['payee', 'wallet'] as const) {
      for (const type of ['stablecoin', 'tokenized'])
        expectFindings(chainIdRequired, doc({ type, code: 'USDC', chain_id: '1' }), [], { mode });
      for (const type of ['fiat', 'crypto', 'STABLECOIN', 'Tokenized', undefined, 7])
        expectFindings(chainIdRequired, doc({ type, code: 'X' }), [], { mode });
      expectFindings(chainIdRequired, doc(undefined), [], { mode });
      expectFindings(chainIdRequired, doc('stablecoin'), [], { mode });
      expectFindings(chainIdRequired, {}, [], { mode });
    }
  });

  it('refuses a missing, empty or non-string chain_id on stablecoin and tokenized assets', () => {
    for (const type of ['stablecoin', 'tokenized']) {
      const [missing] = expectFindings(chainIdRequired, doc({ type, code: 'USDC' }), [[REQ, AT]]);
      expect(missing?.message).toContain(type);
      const [empty] = expectFindings(
        chainIdRequired,
        doc({ type, code: 'USDC', chain_id: '' }),
        [[REQ, AT]],
        { mode: 'wallet' },
      );
      expect(empty?.message).toContain(type);
      expect(empty?.message).toContain('""');
      for (const chain_id of [1, null, ['1'], {}])
        expectFindings(chainIdRequired, doc({ type, code: 'USDC', chain_id }), [[REQ, AT]]);
    }
  });
});
