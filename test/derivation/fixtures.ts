// Valid CPRs of every sub-interface for the derivation tests, and a derivation context.
import type { Rail } from '../../src/model/cpr.js';

/** The instant the tests derive at. */
export const NOW = new Date('2026-06-01T12:00:00Z');

type Json = Record<string, unknown>;

const base = (overrides: Json = {}): Json => ({
  cpr_version: 'CPR-1.0',
  request_id: '3f1c2b9e-7a4d-4c1e-9b2f-5d6e7f8a9b0c',
  created_at: '2026-06-01T11:50:00Z',
  expires_at: '2026-06-01T12:10:00Z',
  ...overrides,
});

/** A valid CPR for `rail` (its sub-interface filled in, rail_hint set to it). */
export function cprFor(rail: Rail, overrides: Json = {}): Json {
  switch (rail) {
    case 'ON_CHAIN':
      return base({
        rail_hint: 'ON_CHAIN',
        payee: {
          display_name: 'Chain Shop',
          rail_address: { receiver_address: '0x52908400098527886e0f7030069857d2e4169ee7', chain_id: '1' },
        },
        value: { amount: '2500000', asset: { type: 'stablecoin', code: 'USDC', chain_id: '1' } },
        chain_id: '1',
        receiver_address: '0x52908400098527886e0f7030069857d2e4169ee7',
        order_reference: '00112233445566778899aabbccddeeff',
        ...overrides,
      });
    case 'SEPA_CT':
    case 'SEPA_INST':
    case 'SWIFT':
      return base({
        rail_hint: rail,
        payee: {
          display_name: 'Bäckerei Müller',
          rail_address: { iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' },
        },
        value: { amount: '1250', asset: { type: 'fiat', code: 'EUR' } },
        iban: 'DE89370400440532013000',
        bic: 'COBADEFFXXX',
        beneficiary_name: 'Bäckerei Müller GmbH',
        remittance_info: 'Invoice 2026-0042',
        end_to_end_id: 'E2E-0042',
        ...overrides,
      });
    case 'ACH':
      return base({
        rail_hint: 'ACH',
        payee: {
          display_name: 'Acme Inc',
          rail_address: { account_number: '000123456789', routing_code: '021000021' },
        },
        value: { amount: '9900', asset: { type: 'fiat', code: 'USD' } },
        account_number: '000123456789',
        routing_code: '021000021',
        routing_code_type: 'ABA',
        beneficiary_name: 'Acme Inc',
        end_to_end_id: 'ACME-7',
        ...overrides,
      });
    case 'PIX':
    case 'UPI':
      return base({
        rail_hint: rail,
        payee: {
          display_name: 'Loja',
          rail_address:
            rail === 'PIX'
              ? { key_type: 'EMAIL', key_value: 'loja@example.com' }
              : { key_type: 'UPI_ID', key_value: 'shop@upi' },
        },
        value: { amount: '4200', asset: { type: 'fiat', code: rail === 'PIX' ? 'BRL' : 'INR' } },
        key_type: rail === 'PIX' ? 'EMAIL' : 'UPI_ID',
        key_value: rail === 'PIX' ? 'loja@example.com' : 'shop@upi',
        txid: 'TX123',
        ...overrides,
      });
  }
}

/** A derivation context as a paying application supplies it. */
export function context(overrides: Json = {}): Json {
  return {
    payer: { id: 'payer-7', name: 'Pat Payer' },
    rail: { network: 'test' },
    authorization: { type: 'device-pin', proof: 'opaque-proof' },
    ...overrides,
  };
}
