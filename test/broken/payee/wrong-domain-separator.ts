import { eip712DomainSeparator } from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { brokenDocuments } from './document-defects.js';

/** USDC's contract on Ethereum mainnet, 40 hex digits. */
const USDC = 'a0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';

/**
 * Spec 2.5 broken (CPR-2.5-DOMAIN-SEPARATOR), both ways a domain separator is well formed but not
 * the target token's: USDC's is computed over the wrong domain (version "1"), and every other
 * on-chain asset (ETH, a tokenized fund) carries USDC's.
 */
export const wrongDomainSeparator: BrokenImplementation = brokenDocuments(
  'payee-wrong-domain-separator',
  'the domain_separator is not the target token’s: USDC’s computed with version "1", every other on-chain asset given USDC’s',
  ['CPR-2.5-DOMAIN-SEPARATOR'],
  (doc) => {
    if (doc.rail_hint !== 'ON_CHAIN') return doc;
    const usdc = (doc.value as { asset: { code: string } }).asset.code === 'USDC';
    return {
      ...doc,
      domain_separator: eip712DomainSeparator('USD Coin', usdc ? '1' : '2', 1n, USDC),
    };
  },
);
