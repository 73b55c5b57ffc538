import { describe, it } from 'vitest';
import { assetCodeIso4217 } from '../../../src/validator/rules/asset-code-iso4217.js';
import { expectFindings } from './run-rule.js';

// CPR-1.0 2.3: asset.code is an ISO 4217 code when asset.type is fiat.
const REQ = 'CPR-2.3-ASSET-CODE-ISO4217';
const doc = (asset: unknown): Record<string, unknown> => ({ value: { amount: '1', asset } });

describe('asset-code-iso4217', () => {
  it('accepts ISO 4217 codes on fiat assets, anything on other types', () => {
    for (const mode of ['payee', 'wallet'] as const) {
      for (const code of ['EUR', 'USD', 'JPY', 'CHF', 'BRL', 'INR'])
        expectFindings(assetCodeIso4217, doc({ type: 'fiat', code }), [], { mode });
      for (const type of ['stablecoin', 'crypto', 'FIAT', undefined])
        expectFindings(assetCodeIso4217, doc({ type, code: 'USDC' }), [], { mode });
      expectFindings(assetCodeIso4217, doc({ type: 'fiat' }), [], { mode });
      expectFindings(assetCodeIso4217, doc({ type: 'fiat', code: 978 }), [], { mode });
      expectFindings(assetCodeIso4217, doc(undefined), [], { mode });
    }
  });

  it('refuses a fiat code not in ISO 4217', () => {
    for (const code of ['eur', 'EURO', 'EU', 'XYZ', 'USDC', '', ' EUR', '978']) {
      expectFindings(assetCodeIso4217, doc({ type: 'fiat', code }), [[REQ, '/value/asset/code']]);
      expectFindings(assetCodeIso4217, doc({ type: 'fiat', code }), [[REQ, '/value/asset/code']], {
        mode: 'wallet',
      });
    }
  });
});
