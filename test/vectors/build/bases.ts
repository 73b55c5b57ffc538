/**
 * Valid CPRs, one per rail, that the document and derivation vectors start from (each valid under
 * every rule of profile section 2 at {@link NOW}, in both readings).
 */

/** The instant every document and derivation vector is judged at, unless it says otherwise. */
export const NOW = '2026-06-01T12:00:00Z';

export type Doc = Record<string, unknown>;

const REQUEST_ID = '8b5c1f9e-3f0a-4c0e-9a51-2f1d8c7e6b40';

export const SEPA_CT: Doc = {
  cpr_version: 'CPR-1.0',
  request_id: REQUEST_ID,
  created_at: '2026-06-01T11:00:00Z',
  expires_at: '2026-06-02T11:00:00Z',
  payee: {
    display_name: 'Example Shop GmbH',
    rail_address: { iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' },
  },
  value: { amount: '2500', asset: { type: 'fiat', code: 'EUR' } },
  memo: 'Order 1234',
  rail_hint: 'SEPA_CT',
  iban: 'DE89370400440532013000',
  bic: 'COBADEFFXXX',
  beneficiary_name: 'Example Shop GmbH',
  remittance_info: 'Invoice 2026-1234',
};

export const SEPA_INST: Doc = { ...SEPA_CT, rail_hint: 'SEPA_INST' };

export const SWIFT: Doc = {
  ...SEPA_CT,
  payee: {
    display_name: 'Example Shop Ltd',
    rail_address: { iban: 'GB29NWBK60161331926819', bic: 'NWBKGB2L' },
  },
  value: { amount: '2500', asset: { type: 'fiat', code: 'GBP' } },
  rail_hint: 'SWIFT',
  iban: 'GB29NWBK60161331926819',
  bic: 'NWBKGB2L',
  beneficiary_name: 'Example Shop Ltd',
};

export const ACH: Doc = {
  cpr_version: 'CPR-1.0',
  request_id: '6ec0bd7f-11c0-43da-975e-2a8ad9ebae0b',
  created_at: '2026-06-01T11:00:00Z',
  expires_at: '2026-06-08T11:00:00Z',
  payee: {
    rail_address: { account_number: '000123456789', routing_code: '021000021', routing_code_type: 'ABA' },
  },
  value: { amount: '1999', asset: { type: 'fiat', code: 'USD' } },
  rail_hint: 'ACH',
  account_number: '000123456789',
  routing_code: '021000021',
  routing_code_type: 'ABA',
  beneficiary_name: 'Example LLC',
  bank_name: 'Example Bank',
  remittance_info: 'Invoice 77',
  end_to_end_id: 'E2E-77',
};

export const PIX: Doc = {
  cpr_version: 'CPR-1.0',
  request_id: 'c56a4180-65aa-42ec-a945-5fd21dec0538',
  created_at: '2026-06-01T11:00:00Z',
  expires_at: '2026-06-01T12:15:00Z',
  payee: {
    display_name: 'Loja Exemplo',
    rail_address: { key_type: 'EMAIL', key_value: 'loja@example.com.br' },
  },
  value: { amount: '15000', asset: { type: 'fiat', code: 'BRL' } },
  rail_hint: 'PIX',
  key_type: 'EMAIL',
  key_value: 'loja@example.com.br',
  txid: 'TX123',
};

export const UPI: Doc = {
  ...PIX,
  payee: { display_name: 'Example Store', rail_address: { key_type: 'UPI_ID', key_value: 'shop@okaxis' } },
  value: { amount: '15000', asset: { type: 'fiat', code: 'INR' } },
  rail_hint: 'UPI',
  key_type: 'UPI_ID',
  key_value: 'shop@okaxis',
};

export const ON_CHAIN: Doc = {
  cpr_version: 'CPR-1.0',
  request_id: '0f8fad5b-d9cb-469f-a165-70867728950e',
  created_at: '2026-06-01T11:00:00.250Z',
  expires_at: '2026-06-01T13:00:00Z',
  payee: {
    display_name: 'Example Merchant',
    rail_address: { receiver_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', chain_id: '8453' },
  },
  value: { amount: '1000000', asset: { type: 'stablecoin', code: 'USDC', chain_id: 'eip155:8453' } },
  rail_hint: 'ON_CHAIN',
  chain_id: '8453',
  receiver_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  order_reference: '7f3c2a1b9e8d4c6f0a1b2c3d4e5f6071',
};

/** A deep copy of `doc` with `edit` applied. */
export function edit(doc: Doc, fn: (d: Doc) => void): Doc {
  const d = structuredClone(doc);
  fn(d);
  return d;
}

/** A deep copy with top-level members replaced (undefined deletes). */
export function withTop(doc: Doc, members: Record<string, unknown>): Doc {
  return edit(doc, (d) => {
    for (const [k, v] of Object.entries(members)) {
      if (v === undefined) delete d[k];
      else d[k] = v;
    }
  });
}
