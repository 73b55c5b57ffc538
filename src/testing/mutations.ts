/**
 * Single-defect mutation operators of valid CPRs: each breaks exactly one rule and names the
 * requirement ID the reference validator must report for it. Used by the property "every
 * single-defect mutation of a valid CPR is rejected with the right requirement ID", and by
 * suites that need invalid requests of a known kind.
 *
 * @packageDocumentation
 */
import { toChecksumAddress } from '../validator/rules/evm-address-checksum.js';
import { selectSubInterface } from '../validator/subinterface.js';
import type { ValidationMode } from '../validator/types.js';
import type { CprRail, JsonObject } from './arbitraries.js';

/** One mutation operator. */
export interface CprMutation {
  /** Short name, e.g. `'amount-leading-zero'`. */
  name: string;
  /** Requirement ID the validator must report as an error, per mode. */
  requirement: Readonly<Record<ValidationMode, string>>;
  /** Modes the defect is an error in (e.g. an offset timestamp only breaks the payee reading). */
  modes: readonly ValidationMode[];
  /** Rails whose generated CPRs the operator can apply to (default: every rail). */
  rails?: readonly CprRail[];
  /** Whether the operator applies to `doc` (e.g. IBAN defects need an IBAN). */
  applies(doc: JsonObject): boolean;
  /** A deep copy of `doc` with the defect; `now` is the validation instant. */
  apply(doc: JsonObject, now: Date): JsonObject;
}

const BOTH: readonly ValidationMode[] = ['payee', 'wallet'];

function clone(doc: JsonObject): JsonObject {
  return structuredClone(doc);
}

function obj(v: unknown): JsonObject {
  return v as JsonObject;
}

function same(id: string): Record<ValidationMode, string> {
  return { payee: id, wallet: id };
}

function edit(fn: (d: JsonObject, now: Date) => void): (doc: JsonObject, now: Date) => JsonObject {
  return (doc, now) => {
    const d = clone(doc);
    fn(d, now);
    return d;
  };
}

const always = (): boolean => true;
const has =
  (field: string) =>
  (d: JsonObject): boolean =>
    d[field] !== undefined;
const selected = (sub: string) => (d: JsonObject) => {
  const s = selectSubInterface(d);
  return (
    (s.kind === 'named' && s.sub === sub) ||
    (s.kind === 'open' && s.complete.length === 1 && s.complete[0] === sub)
  );
};

/** Flips the case of the first letter of an address whose flip leaves it mixed-case and off its EIP-55 checksum form. */
function breakChecksum(address: string): string | null {
  const body = address.slice(2);
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string;
    if (!/[a-fA-F]/.test(c)) continue;
    const flipped = c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase();
    const digits = body.slice(0, i) + flipped + body.slice(i + 1);
    if (digits === digits.toLowerCase() || digits === digits.toUpperCase()) continue;
    // not the checksum form by chance (an upper-case address with one letter lowered is the
    // checksum form about once in 2^(letters))
    const out = `0x${digits}`;
    if (out !== toChecksumAddress(out)) return out;
  }
  return null;
}

/** Replaces the check digits of an IBAN with wrong ones. */
function breakIban(iban: string): string {
  const check = iban.slice(2, 4);
  const wrong = check === '00' ? '01' : check === '01' ? '02' : '00';
  return iban.slice(0, 2) + wrong + iban.slice(4);
}

/** Every mutation operator, each tied to the requirement it must trip. */
export const CPR_MUTATIONS: readonly CprMutation[] = [
  {
    name: 'version-wrong',
    requirement: same('CPR-2.1-VERSION'),
    modes: BOTH,
    applies: always,
    apply: edit((d) => {
      d.cpr_version = 'CPR-2.0';
    }),
  },
  {
    name: 'version-missing',
    requirement: same('CPR-2.1-REQUIRED-FIELDS'),
    modes: BOTH,
    applies: always,
    apply: edit((d) => {
      delete d.cpr_version;
    }),
  },
  {
    name: 'request-id-not-uuid',
    requirement: same('PRF-1-IDENTIFIER-UUID'),
    // profile section 1: a wallet accepts any non-empty string request_id (only a warning)
    modes: ['payee'],
    applies: always,
    apply: edit((d) => {
      d.request_id = 'order-42';
    }),
  },
  {
    name: 'expires-at-missing',
    requirement: same('CPR-2.1-REQUIRED-FIELDS'),
    modes: BOTH,
    applies: always,
    apply: edit((d) => {
      delete d.expires_at;
    }),
  },
  {
    name: 'expired',
    requirement: { payee: 'CPR-2.1-EXPIRES-AT', wallet: 'CPR-7-EXPIRED-REJECTED' },
    modes: BOTH,
    applies: always,
    // an hour past, not a second: a single defect must be one under every reading, and the
    // instant of expiry itself is checked on its own (expiry at and around now, section 7)
    apply: edit((d, now) => {
      d.created_at = new Date(now.getTime() - 7_200_000).toISOString();
      d.expires_at = new Date(now.getTime() - 3_600_000).toISOString();
    }),
  },
  {
    name: 'created-after-expires',
    requirement: same('PRF-2-CREATED-BEFORE-EXPIRES'),
    modes: BOTH,
    applies: always,
    apply: edit((d, now) => {
      d.expires_at = new Date(now.getTime() + 3_600_000).toISOString();
      d.created_at = new Date(now.getTime() + 7_200_000).toISOString();
    }),
  },
  {
    name: 'timestamp-not-rfc3339',
    requirement: same('CPR-2.1-TIMESTAMPS-UTC'),
    modes: BOTH,
    applies: always,
    apply: edit((d) => {
      d.created_at = '01/06/2026 12:00';
    }),
  },
  {
    name: 'timestamp-non-utc-offset',
    requirement: same('CPR-2.1-TIMESTAMPS-UTC'),
    modes: ['payee'],
    applies: always,
    apply: edit((d, now) => {
      const local = new Date(now.getTime() - 60_000 + 2 * 3_600_000).toISOString().slice(0, 19);
      d.created_at = `${local}+02:00`;
    }),
  },
  {
    name: 'timestamp-utc-offset-not-z',
    requirement: same('PRF-1-TIMESTAMP-Z'),
    modes: ['payee'],
    applies: always,
    apply: edit((d, now) => {
      d.created_at = `${new Date(now.getTime() - 60_000).toISOString().slice(0, 19)}+00:00`;
    }),
  },
  {
    name: 'memo-too-long',
    requirement: same('CPR-2.1-MEMO-LENGTH'),
    modes: BOTH,
    applies: always,
    apply: edit((d) => {
      d.memo = '\u{1F4B6}'.repeat(141); // 141 code points, 282 UTF-16 units
    }),
  },
  {
    name: 'amount-leading-zero',
    requirement: same('PRF-1-AMOUNT-FORMAT'),
    modes: BOTH,
    applies: always,
    apply: edit((d) => {
      const v = obj(d.value);
      v.amount = `0${typeof v.amount === 'string' ? v.amount : '100'}`;
    }),
  },
  {
    name: 'amount-fraction',
    requirement: same('CPR-2.3-AMOUNT-SMALLEST-UNIT'),
    modes: BOTH,
    applies: always,
    apply: edit((d) => {
      obj(d.value).amount = '12.50';
    }),
  },
  {
    name: 'amount-above-2-256',
    requirement: same('PRF-1-AMOUNT-FORMAT'),
    modes: BOTH,
    applies: always,
    apply: edit((d) => {
      obj(d.value).amount = (2n ** 256n).toString();
    }),
  },
  {
    name: 'amount-zero',
    requirement: same('PRF-1-AMOUNT-FORMAT'),
    modes: BOTH,
    applies: always,
    apply: edit((d) => {
      obj(d.value).amount = '0';
    }),
  },
  {
    name: 'amount-json-number',
    requirement: same('PRF-1-AMOUNT-FORMAT'),
    modes: ['payee'],
    applies: always,
    apply: edit((d) => {
      obj(d.value).amount = 1000;
    }),
  },
  {
    name: 'amount-unsafe-json-number',
    requirement: { payee: 'PRF-1-AMOUNT-FORMAT', wallet: 'PRF-1-AMOUNT-NUMBER-UNSAFE' },
    modes: BOTH,
    applies: always,
    apply: edit((d) => {
      obj(d.value).amount = 2 ** 53 + 2;
    }),
  },
  {
    name: 'asset-type-unknown',
    requirement: same('CPR-2.3-ASSET-TYPE'),
    modes: BOTH,
    applies: always,
    apply: edit((d) => {
      obj(obj(d.value).asset).type = 'commodity';
    }),
  },
  {
    name: 'fiat-code-not-iso4217',
    rails: ['SEPA_CT', 'SEPA_INST', 'SWIFT', 'ACH', 'PIX', 'UPI', 'OPEN', 'NONE'],
    requirement: same('CPR-2.3-ASSET-CODE-ISO4217'),
    modes: BOTH,
    applies: (d) => obj(obj(d.value).asset).type === 'fiat',
    apply: edit((d) => {
      obj(obj(d.value).asset).code = 'EURO';
    }),
  },
  {
    name: 'chain-id-missing',
    rails: ['ON_CHAIN'],
    requirement: same('CPR-2.3-CHAIN-ID-REQUIRED'),
    modes: BOTH,
    applies: (d) => ['stablecoin', 'tokenized'].includes(obj(obj(d.value).asset).type as string),
    apply: edit((d) => {
      delete obj(obj(d.value).asset).chain_id;
    }),
  },
  {
    name: 'rail-hint-unknown',
    requirement: same('CPR-2.4-RAIL-HINT-ENUM'),
    modes: ['payee'],
    applies: always,
    apply: edit((d) => {
      d.rail_hint = 'FEDNOW';
    }),
  },
  {
    name: 'receiver-address-bad-checksum',
    rails: ['ON_CHAIN'],
    requirement: same('CPR-2.5-RECEIVER-ADDRESS'),
    modes: BOTH,
    applies: (d) => typeof d.receiver_address === 'string' && breakChecksum(d.receiver_address) !== null,
    apply: edit((d) => {
      d.receiver_address = breakChecksum(d.receiver_address as string);
    }),
  },
  {
    name: 'onchain-receiver-missing',
    rails: ['ON_CHAIN'],
    requirement: same('CPR-2.5-ONCHAIN-FIELDS'),
    modes: BOTH,
    applies: selected('onchain'),
    apply: edit((d) => {
      delete d.receiver_address;
    }),
  },
  {
    name: 'iban-bad-checksum',
    rails: ['SEPA_CT', 'SEPA_INST', 'SWIFT', 'OPEN', 'NONE'],
    requirement: same('CPR-2.6-IBAN-VALID'),
    modes: BOTH,
    applies: has('iban'),
    apply: edit((d) => {
      d.iban = breakIban(d.iban as string);
    }),
  },
  {
    name: 'bic-malformed',
    rails: ['SEPA_CT', 'SEPA_INST', 'SWIFT', 'OPEN', 'NONE'],
    requirement: same('CPR-2.6-BIC-VALID'),
    modes: BOTH,
    applies: selected('iban'),
    apply: edit((d) => {
      d.bic = 'DEUT-DE';
    }),
  },
  {
    name: 'remittance-too-long-iban',
    rails: ['SEPA_CT', 'SEPA_INST', 'SWIFT', 'OPEN', 'NONE'],
    requirement: same('CPR-2.6-REMITTANCE-LENGTH'),
    modes: BOTH,
    applies: selected('iban'),
    apply: edit((d) => {
      d.remittance_info = 'é'.repeat(141);
    }),
  },
  {
    name: 'remittance-too-long-account',
    rails: ['ACH', 'OPEN', 'NONE'],
    requirement: same('CPR-2.7-REMITTANCE-LENGTH'),
    modes: BOTH,
    applies: selected('account'),
    apply: edit((d) => {
      d.remittance_info = '\u{1F600}'.repeat(141);
    }),
  },
  {
    name: 'iban-beneficiary-missing',
    rails: ['SEPA_CT', 'SEPA_INST', 'SWIFT'],
    requirement: { payee: 'CPR-2.6-IBAN-FIELDS', wallet: 'CPR-2.6-IBAN-FIELDS' },
    modes: BOTH,
    applies: (d) => selected('iban')(d) && selectSubInterface(d).kind === 'named',
    apply: edit((d) => {
      delete d.beneficiary_name;
    }),
  },
  {
    name: 'account-number-missing',
    rails: ['ACH'],
    requirement: same('CPR-2.7-ACCOUNT-FIELDS'),
    modes: BOTH,
    applies: (d) => selected('account')(d) && selectSubInterface(d).kind === 'named',
    apply: edit((d) => {
      delete d.account_number;
    }),
  },
  {
    name: 'key-value-missing',
    rails: ['PIX', 'UPI'],
    requirement: same('CPR-2.8-INSTANT-KEY-FIELDS'),
    modes: BOTH,
    applies: (d) => selected('instant-key')(d) && selectSubInterface(d).kind === 'named',
    apply: edit((d) => {
      delete d.key_value;
    }),
  },
  {
    name: 'open-no-sub-interface',
    rails: ['OPEN', 'NONE'],
    requirement: same('PRF-2-EXACTLY-ONE-SUB-INTERFACE'),
    modes: BOTH,
    applies: (d) => selectSubInterface(d).kind === 'open',
    apply: edit((d) => {
      for (const f of ['iban', 'account_number', 'key_type']) delete d[f];
    }),
  },
  {
    name: 'open-two-sub-interfaces',
    rails: ['OPEN', 'NONE'],
    requirement: same('PRF-2-EXACTLY-ONE-SUB-INTERFACE'),
    modes: BOTH,
    applies: (d) => selectSubInterface(d).kind === 'open',
    apply: edit((d) => {
      if (d.key_type === undefined) {
        d.key_type = 'EMAIL';
        d.key_value = 'shop@example.com';
      } else {
        d.iban = 'DE89370400440532013000';
        d.beneficiary_name = 'Example GmbH';
      }
    }),
  },
  {
    name: 'rail-address-missing',
    requirement: same('CPR-2.2-RAIL-ADDRESS'),
    modes: BOTH,
    applies: always,
    apply: edit((d) => {
      delete obj(d.payee).rail_address;
    }),
  },
  {
    name: 'rail-address-disagrees',
    requirement: same('PRF-2-RAIL-ADDRESS-AGREES'),
    modes: BOTH,
    applies: (d) => selectSubInterface(d).kind !== 'unknown',
    apply: edit((d) => {
      const ra = obj(obj(d.payee).rail_address);
      for (const f of ['receiver_address', 'iban', 'account_number', 'key_value']) {
        if (typeof ra[f] !== 'string') continue;
        ra[f] =
          f === 'receiver_address'
            ? ra[f] === '0x52908400098527886E0F7030069857D2E4169EE7'
              ? '0x8617E340B3D01FA5F11F306F4090FD50E238070D'
              : '0x52908400098527886E0F7030069857D2E4169EE7'
            : f === 'iban'
              ? ra[f] === 'GB29NWBK60161331926819'
                ? 'DE89370400440532013000'
                : 'GB29NWBK60161331926819'
              : `${ra[f]}9`;
      }
    }),
  },
  {
    name: 'payer-data-top-level',
    requirement: same('CPR-INV-1-NO-PAYER-DATA'),
    modes: BOTH,
    applies: always,
    apply: edit((d) => {
      d.payer = { name: 'Alice' };
    }),
  },
  {
    name: 'payer-data-in-extensions',
    requirement: same('CPR-INV-1-NO-PAYER-DATA'),
    modes: BOTH,
    applies: always,
    apply: edit((d) => {
      d.extensions = { ...obj(d.extensions ?? {}), 'com.example:payer_id': 'cust-7' };
    }),
  },
  {
    name: 'status-field',
    requirement: same('CPR-INV-6-SEPARATION'),
    modes: BOTH,
    applies: always,
    apply: edit((d) => {
      d.status = 'PAID';
    }),
  },
  {
    name: 'authorization-in-extensions',
    requirement: same('CPR-INV-6-SEPARATION'),
    modes: BOTH,
    applies: always,
    apply: edit((d) => {
      d.extensions = { ...obj(d.extensions ?? {}), 'foundation:auth': { authorization: 'sig' } };
    }),
  },
  {
    name: 'extensions-not-object',
    requirement: same('CPR-2.1-FIELD-TYPES'),
    modes: BOTH,
    applies: always,
    apply: edit((d) => {
      d.extensions = ['loyalty'];
    }),
  },
];
