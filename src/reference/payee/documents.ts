/**
 * The reference payee's CPR document builder (spec 2.1-2.8, profile 2): realistic, valid
 * sub-interface documents for every rail of spec 2.4 — IBANs with real check digits
 * (`ibantools`), EIP-55 checksummed addresses (keccak-256 from `@noble/hashes`), ABA routing
 * numbers with a valid check digit, ISO 4217 codes.
 *
 * A class with one overridable method per duty, so that a deliberately broken variant in
 * `test/broken/` changes exactly one behaviour.
 *
 * @packageDocumentation
 */
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { composeIBAN } from 'ibantools';
import type { Asset, CreateRequestParams, RailHint } from './harness.js';

/** Spec 2.1 / 9 rule 1. */
export const CPR_VERSION = 'CPR-1.0';

/** A CPR document as the payee emits it (JSON object). */
export type CprDocument = Record<string, unknown>;

/** The fields of one sub-interface (spec 2.5-2.8) and the address fields of `payee.rail_address`. */
export interface RailFields {
  /** Top-level sub-interface fields (authoritative, profile 2). */
  fields: Record<string, unknown>;
  /** `payee.rail_address`: the rail's address fields, agreeing with `fields` (profile 2). */
  railAddress: Record<string, unknown>;
  /** `payee.display_name`. */
  displayName: string;
}

/** The validity window of one request. */
export interface ValidityWindow {
  /** created_at (whole seconds, UTC). */
  createdAt: Date;
  /** expires_at. */
  expiresAt: Date;
}

/** Formats an instant as RFC 3339 with `Z` and whole seconds (profile 1). */
export function rfc3339(d: Date): string {
  return `${d.toISOString().slice(0, 19)}Z`;
}

/**
 * EIP-55 mixed-case checksum of a 20-byte address, given as its 40 lower-case hex digits without
 * `0x` (the payee only writes addresses it made): a hex letter is upper case when the matching
 * nibble of keccak-256(lowercase hex) is 8 or more.
 *
 * @example
 * ```ts
 * toChecksumAddress('a0b86991c6218b36c1d19d4a2e9eb0ce3606eb48');
 * // '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'
 * ```
 */
export function toChecksumAddress(hex: string): string {
  const hash = keccak_256(new TextEncoder().encode(hex));
  let out = '0x';
  for (let i = 0; i < 40; i++) {
    const nibble = ((hash[i >> 1] ?? 0) >> (i % 2 === 0 ? 4 : 0)) & 0xf;
    const c = hex[i] as string;
    out += nibble >= 8 ? c.toUpperCase() : c;
  }
  return out;
}

function randomDigits(n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += String(randomInt(10));
  return s;
}

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex');
}

/** abi.encode of 32-byte words, then keccak-256. */
function keccakWords(...words: Uint8Array[]): Uint8Array {
  const buf = new Uint8Array(words.length * 32);
  words.forEach((w, i) => {
    buf.set(w, i * 32 + (32 - w.length));
  });
  return keccak_256(buf);
}

// Stryker disable BlockStatement: emptied, it returns undefined and the optional domain_separator is left out of the CPR, which spec 2.5 allows
/**
 * The EIP-712 domain separator of a token (EIP712Domain(name, version, chainId, verifyingContract)),
 * `contract` given as its 40 hex digits without `0x`.
 */
export function eip712DomainSeparator(
  name: string,
  version: string,
  chainId: bigint,
  contract: string,
): string {
  const enc = new TextEncoder();
  const typeHash = keccak_256(
    enc.encode('EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)'),
  );
  const chain = Buffer.from(chainId.toString(16).padStart(64, '0'), 'hex');
  const addr = Buffer.from(contract, 'hex');
  return `0x${hex(keccakWords(typeHash, keccak_256(enc.encode(name)), keccak_256(enc.encode(version)), chain, addr))}`;
}
// Stryker restore BlockStatement

/** USDC on Ethereum mainnet: the reference on-chain asset. */
const USDC_MAINNET = {
  chainId: '1',
  /** 40 lower-case hex digits, without `0x`. */
  contract: 'a0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
  name: 'USD Coin',
  version: '2',
} as const;

/** The usual asset of each rail when the harness names none. */
const DEFAULT_ASSETS: Readonly<Record<RailHint, Asset>> = {
  ON_CHAIN: { type: 'stablecoin', code: 'USDC', chain_id: USDC_MAINNET.chainId },
  SEPA_CT: { type: 'fiat', code: 'EUR' },
  SEPA_INST: { type: 'fiat', code: 'EUR' },
  SWIFT: { type: 'fiat', code: 'GBP' },
  ACH: { type: 'fiat', code: 'USD' },
  PIX: { type: 'fiat', code: 'BRL' },
  UPI: { type: 'fiat', code: 'INR' },
  OPEN: { type: 'fiat', code: 'EUR' },
};

/** The rails whose sub-interface is the IBAN one (profile 2). */
type IbanRail = 'SEPA_CT' | 'SEPA_INST' | 'SWIFT' | 'OPEN';

/** A German account, used for SEPA credit transfers and for OPEN. */
const COMMERZBANK = {
  country: 'DE',
  bban: () => `37040044${randomDigits(10)}`,
  bic: 'COBADEFFXXX',
  holder: 'Muster Handels GmbH',
};

/** The payee's receiving account on each IBAN rail: which account a payee uses is its own choice. */
const IBAN_ACCOUNTS: Readonly<
  Record<IbanRail, { country: string; bban: () => string; bic: string; holder: string }>
> = {
  SWIFT: {
    country: 'GB',
    bban: () => `NWBK601613${randomDigits(8)}`,
    bic: 'NWBKGB2LXXX',
    holder: 'Thames Valley Tools Ltd',
  },
  SEPA_INST: {
    country: 'DE',
    bban: () => `50010517${randomDigits(10)}`,
    bic: 'INGDDEFFXXX',
    holder: 'Bäckerei Müller GmbH',
  },
  SEPA_CT: COMMERZBANK,
  OPEN: COMMERZBANK,
};

/**
 * The reconciliation members of the IBAN and account sub-interfaces (spec 2.6, 2.7): the memo as
 * remittance text, else an invoice number; an end-to-end id from the request_id.
 */
// Stryker disable all: spec 2.6 and 2.7 leave remittance_info and end_to_end_id optional and their text free (nothing ties remittance_info to memo)
function reconciliation(requestId: string, memo: string | undefined): Record<string, string> {
  return {
    remittance_info: memo ?? `Invoice ${requestId.slice(0, 8).toUpperCase()}`,
    end_to_end_id: `E2E${requestId.replace(/-/g, '').toUpperCase()}`,
  };
}
// Stryker restore all

/**
 * Builds the reference payee's CPR documents.
 *
 * @example
 * ```ts
 * const builder = new DocumentBuilder();
 * const window = builder.validityWindow(new Date(), 3600, 2_592_000);
 * const doc = builder.build(params, builder.newRequestId(), window);
 * ```
 */
export class DocumentBuilder {
  /** Spec 2.1 / INV-3: a globally unique request_id; UUIDv4 (recommended). */
  newRequestId(): string {
    return randomUUID();
  }

  /**
   * Spec 2.1 / INV-8: a bounded validity window. `created_at` is `now` to the second;
   * `expires_at` is `created_at` + min(requested, maximum) (profile 2: capped at the payee's maximum).
   */
  validityWindow(now: Date, requestedSeconds: number, maxSeconds: number): ValidityWindow {
    const createdAt = new Date(Math.floor(now.getTime() / 1000) * 1000);
    const seconds = Math.min(requestedSeconds, maxSeconds);
    return { createdAt, expiresAt: new Date(createdAt.getTime() + seconds * 1000) };
  }

  /** The asset of a request: the one asked for, else the rail's usual one (spec 2.3). */
  assetFor(params: CreateRequestParams): Asset {
    return params.asset ?? { ...DEFAULT_ASSETS[params.railHint] };
  }

  /** Spec 2.5 on-chain fields: a fresh EIP-55 receiver address; USDC contract data for USDC on chain 1. */
  onChainFields(asset: Asset, requestId: string): RailFields {
    const chainId = asset.chain_id ?? USDC_MAINNET.chainId;
    const receiver = toChecksumAddress(hex(randomBytes(20)));
    const fields: Record<string, unknown> = { chain_id: chainId, receiver_address: receiver };
    // Stryker disable next-line BlockStatement,ConditionalExpression,StringLiteral,EqualityOperator: spec 2.5 makes contract_address ("if applicable") and domain_separator optional, so USDC may go without them; and which contract serves USDC off Ethereum mainnet the suite cannot know (it knows USDC's mainnet deployment, and checks that no other asset carries its separator)
    if (asset.code === 'USDC' && chainId === USDC_MAINNET.chainId) {
      fields.contract_address = toChecksumAddress(USDC_MAINNET.contract);
      fields.domain_separator = eip712DomainSeparator(
        USDC_MAINNET.name,
        USDC_MAINNET.version,
        BigInt(chainId),
        USDC_MAINNET.contract,
      );
    }
    // Spec 2.5: order_reference is a 16-byte reconciliation reference: the request_id's bytes.
    fields.order_reference = `0x${requestId.replace(/-/g, '')}`;
    return {
      fields,
      railAddress: { receiver_address: receiver, chain_id: chainId },
      displayName: 'Northwind Digital Goods',
    };
  }

  /** Spec 2.6 IBAN fields; the IBAN's check digits are computed (ISO 13616) by `ibantools`. */
  ibanFields(rail: IbanRail, requestId: string, memo: string | undefined): RailFields {
    const bank = IBAN_ACCOUNTS[rail];
    // The BBANs are of fixed valid national forms: composeIBAN returns null only for a malformed
    // one (test/reference/payee.test.ts checks the check digits of every rail).
    const iban = composeIBAN({ countryCode: bank.country, bban: bank.bban() }) as string;
    return {
      fields: {
        iban,
        bic: bank.bic,
        beneficiary_name: bank.holder,
        ...reconciliation(requestId, memo),
        purpose_code: 'GDDS',
      },
      railAddress: { iban, bic: bank.bic },
      displayName: bank.holder,
    };
  }

  /** Spec 2.7 account fields for ACH: an ABA routing number with a valid check digit. */
  accountFields(requestId: string, memo: string | undefined): RailFields {
    // JPMorgan Chase's routing number: its check digit is valid (test/reference/payee.test.ts).
    // Stryker disable next-line StringLiteral: spec 2.7 gives the optional routing_code no format and profile 2 none either, so an empty one breaks no rule (the profile is silent here: docs/mutation.md)
    const routing = '021000021';
    const account = randomDigits(12);
    return {
      fields: {
        account_number: account,
        routing_code: routing,
        routing_code_type: 'ABA',
        // Stryker disable next-line StringLiteral: spec 2.7 bank_name is optional and its text free
        bank_name: 'JPMorgan Chase Bank, N.A.',
        beneficiary_name: 'Hudson Street Books LLC',
        ...reconciliation(requestId, memo),
      },
      railAddress: { account_number: account, routing_code: routing, routing_code_type: 'ABA' },
      displayName: 'Hudson Street Books',
    };
  }

  /** Spec 2.8 instant-key fields for PIX: a random key (EVP). */
  pixFields(requestId: string): RailFields {
    const key = randomUUID();
    return {
      fields: {
        key_type: 'EVP',
        key_value: key,
        // Stryker disable next-line StringLiteral: spec 2.8 beneficiary_name is optional and its text free
        beneficiary_name: 'Padaria Exemplo Ltda',
        // Stryker disable next-line StringLiteral: spec 2.8 txid is the merchant's own transaction id: its form is free
        txid: requestId.replace(/-/g, ''),
      },
      railAddress: { key_type: 'EVP', key_value: key },
      displayName: 'Padaria Exemplo',
    };
  }

  /** Spec 2.8 instant-key fields for UPI: a virtual payment address. */
  upiFields(requestId: string): RailFields {
    const vpa = `store${randomDigits(6)}@okaxis`;
    return {
      fields: {
        key_type: 'UPI_ID',
        key_value: vpa,
        // Stryker disable next-line StringLiteral: spec 2.8 beneficiary_name is optional and its text free
        beneficiary_name: 'Sharma General Store',
        // Stryker disable next-line StringLiteral: spec 2.8 txid is the merchant's own transaction id: its form is free
        txid: `T${requestId.replace(/-/g, '')}`,
      },
      railAddress: { key_type: 'UPI_ID', key_value: vpa },
      displayName: 'Sharma General Store',
    };
  }

  /**
   * Profile 2 sub-interface selection: ON_CHAIN -> on-chain; SEPA_CT, SEPA_INST, SWIFT -> IBAN;
   * ACH -> account; PIX, UPI -> instant-key; OPEN -> IBAN (the sub-interface is then the one
   * whose address field is present).
   */
  railFields(params: CreateRequestParams, asset: Asset, requestId: string): RailFields {
    switch (params.railHint) {
      // ordered so that no case runs on into one of the same sub-interface
      case 'ON_CHAIN':
        return this.onChainFields(asset, requestId);
      case 'PIX':
        return this.pixFields(requestId);
      case 'ACH':
        return this.accountFields(requestId, params.memo);
      case 'UPI':
        return this.upiFields(requestId);
      default:
        return this.ibanFields(params.railHint, requestId, params.memo);
    }
  }

  /**
   * Assembles the full CPR (spec 2.1 base fields plus the sub-interface fields at the top level,
   * spec 2.4). No payer data (INV-1, INV-8), no state (spec 3 rule 1).
   */
  build(params: CreateRequestParams, requestId: string, window: ValidityWindow): CprDocument {
    const asset = this.assetFor(params);
    const rail = this.railFields(params, asset, requestId);
    return {
      cpr_version: CPR_VERSION,
      request_id: requestId,
      created_at: rfc3339(window.createdAt),
      expires_at: rfc3339(window.expiresAt),
      payee: { display_name: rail.displayName, rail_address: rail.railAddress },
      // Spec 2.3: amount omitted means an open amount; profile 1: a digit string. A member whose
      // value is undefined (no amount, memo or extensions asked) is not written: the document
      // only ever leaves the payee as JSON.
      value: { amount: params.amount, asset },
      memo: params.memo,
      rail_hint: params.railHint,
      ...rail.fields,
      extensions: params.extensions,
    };
  }
}
