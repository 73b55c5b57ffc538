/**
 * fast-check arbitraries of CPR-1.0 documents, valid under both readings (payee and wallet) of
 * the reference validator. Used by the project's property tests and by the conformance suites
 * to generate requests of every rail.
 *
 * @example
 * ```ts
 * import fc from 'fast-check';
 * fc.assert(fc.property(cprArbitrary({ rail: 'PIX' }), (cpr) => validateCpr(cpr, { mode: 'payee' }).valid));
 * ```
 * @packageDocumentation
 */
import { bytesToHex } from '@noble/hashes/utils.js';
import fc from 'fast-check';
import { composeIBAN } from 'ibantools';
import { RAIL_HINTS, type RailHint, SUB_INTERFACE_OF_HINT } from '../model/cpr.js';
import { toChecksumAddress } from '../validator/rules/evm-address-checksum.js';
import { isPayerDataName } from '../validator/rules/no-payer-data.js';

/** A rail to generate: one of the eight rail_hint values, or `'NONE'` for a document without rail_hint. */
export type CprRail = RailHint | 'NONE';

/** Every rail {@link cprArbitrary} can generate. */
export const CPR_RAILS: readonly CprRail[] = [...RAIL_HINTS, 'NONE'];

/** Constraints of {@link cprArbitrary}. */
export interface CprArbitraryConstraints {
  /** Rail to generate; default: any of {@link CPR_RAILS}. */
  rail?: CprRail;
  /** The instant the request is valid at: created_at up to a day before, expires_at 1 h to 28 days after. Default: now. */
  now?: Date;
}

/** A JSON object (generated CPRs are plain JSON). */
export type JsonObject = Record<string, unknown>;

/**
 * Amount strings in the smallest unit: digits, no leading zero, from 1 to 2^256 - 1 (profile 1);
 * biased to include values beyond 2^53.
 */
export function amountArbitrary(): fc.Arbitrary<string> {
  return fc
    .oneof(
      fc.bigInt({ min: 1n, max: 2n ** 64n }),
      fc.bigInt({ min: 1n, max: 2n ** 256n - 1n }),
      fc.constantFrom(1n, 2n ** 53n + 1n, 2n ** 256n - 1n),
    )
    .map((n) => n.toString());
}

/** EIP-55 checksummed EVM addresses (mixed case, so the checksum is visible). */
export function evmAddressArbitrary(): fc.Arbitrary<string> {
  // a checksum shows only in mixed case: an address whose letters came out single-case is left out
  return fc
    .uint8Array({ minLength: 20, maxLength: 20 })
    .map((b) => toChecksumAddress(`0x${bytesToHex(b)}`))
    .filter((a) => /[a-f]/.test(a.slice(2)) && /[A-F]/.test(a.slice(2)));
}

/**
 * An EVM address in every form a document may write it: EIP-55 checksummed (mixed case), all
 * lower-case or all upper-case hex (single case: no checksum, valid), so that a wallet copying it
 * is tried on each written form.
 */
export function anyCaseEvmAddressArbitrary(): fc.Arbitrary<string> {
  return fc.oneof(
    evmAddressArbitrary(),
    evmAddressArbitrary().map((a) => `0x${a.slice(2).toLowerCase()}`),
    evmAddressArbitrary().map((a) => `0x${a.slice(2).toUpperCase()}`),
  );
}

/** Example IBANs of the official SWIFT IBAN registry (several countries). */
export const REGISTRY_IBANS: readonly string[] = [
  'DE89370400440532013000',
  'GB29NWBK60161331926819',
  'FR1420041010050500013M02606',
  'NL91ABNA0417164300',
  'ES9121000418450200051332',
  'IT60X0542811101000000123456',
  'BE68539007547034',
  'CH9300762011623852957',
  'AT611904300234573201',
  'PL61109010140000071219812874',
];

/** Valid IBANs: German IBANs with random BBANs (checksum computed) and registry examples. */
export function ibanArbitrary(): fc.Arbitrary<string> {
  return fc.oneof(
    fc
      .stringMatching(/^[0-9]{18}$/)
      .map((bban) => composeIBAN({ countryCode: 'DE', bban }) ?? 'DE89370400440532013000'),
    fc.constantFrom(...REGISTRY_IBANS),
  );
}

/** Valid BICs (ISO 9362). */
export function bicArbitrary(): fc.Arbitrary<string> {
  return fc.constantFrom('DEUTDEFF', 'COBADEFFXXX', 'ABNANL2A', 'BNPAFRPP', 'NWBKGB2L', 'UBSWCHZH80A');
}

/**
 * One Unicode code point of any plane (a lone surrogate never): what fast-check's `unit: 'binary'`
 * gives, without the table of every code point that fast-check builds on first use of that unit
 * (about 2 s of every process that builds a text arbitrary: each suite run, each vitest file).
 */
export function codePointArbitrary(): fc.Arbitrary<string> {
  return CODE_POINT;
}

const CODE_POINT = fc
  .integer({ min: 0, max: 0x10ffff })
  .filter((c) => c < 0xd800 || c > 0xdfff)
  .map((c) => String.fromCodePoint(c));

/** Text of 1 to `max` Unicode code points (any plane), for names, memos and remittance information. */
export function textArbitrary(max: number): fc.Arbitrary<string> {
  return fc.string({ unit: CODE_POINT, minLength: 1, maxLength: max });
}

/**
 * A name or key a payee would write (1 to `max` code points, not only white space). A suite
 * demands a Payment only for realistic documents: the contract does not say whether a legal name
 * or a key made of a vertical tab alone is present, and a wallet may read it as missing (the clean
 * foreign wallet does).
 */
export function nameArbitrary(max: number): fc.Arbitrary<string> {
  return textArbitrary(max).filter((s) => s.trim() !== '');
}

/**
 * A member name that is payer, authorization or state data under profile section 2 at some depth
 * (read at the top level, where the list is longest: a name forbidden there is kept out everywhere).
 */
function isPayerOrStateName(key: string): boolean {
  return isPayerDataName(key, true);
}

function hasForbiddenKey(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasForbiddenKey);
  if (typeof value !== 'object' || value === null) return false;
  return Object.entries(value).some(([k, v]) => isPayerOrStateName(k) || hasForbiddenKey(v));
}

/** Extension maps with namespaced keys and arbitrary JSON values, free of payer/state member names. */
export function extensionsArbitrary(): fc.Arbitrary<JsonObject> {
  const key = fc.oneof(
    fc.constantFrom('foundation:loyalty', 'com.example:order', 'org.acme:terminal'),
    fc.string({ minLength: 1, maxLength: 20 }).map((s) => `com.example:${s}`),
  );
  return fc.dictionary(key, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }).filter((e) => !hasForbiddenKey(e));
}

function optional<T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> {
  return fc.option(arb, { nil: undefined });
}

/** Drops undefined members (optional fields left out). */
function compact(obj: Record<string, unknown>): JsonObject {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined));
}

const FIAT_OF_RAIL: Readonly<Record<string, readonly string[]>> = {
  SEPA_CT: ['EUR'],
  SEPA_INST: ['EUR'],
  SWIFT: ['USD', 'EUR', 'GBP', 'CHF', 'JPY'],
  ACH: ['USD'],
  PIX: ['BRL'],
  UPI: ['INR'],
  OPEN: ['EUR', 'USD'],
  NONE: ['EUR', 'USD'],
};

/** How a chain identifier is written (profile 2): `eip155:N`, decimal `N` or `0x`-hex. */
type ChainForm = 'eip155' | 'decimal' | 'hex';
const CHAIN_FORMS: readonly ChainForm[] = ['eip155', 'decimal', 'hex'];

/** Chain `n` written in `form`. */
function chainIdIn(n: number | bigint, form: ChainForm): string {
  const v = BigInt(n);
  return form === 'eip155' ? `eip155:${v}` : form === 'hex' ? `0x${v.toString(16)}` : `${v}`;
}

/** The chain number of an identifier written by {@link chainIdIn}. */
function chainNumber(id: string): bigint {
  return BigInt(id.startsWith('eip155:') ? id.slice('eip155:'.length) : id);
}

/** The sub-interface fields (top level) and the matching rail_address of one rail. */
function subInterfaceArbitrary(kind: 'onchain' | 'iban' | 'account' | 'instant-key') {
  switch (kind) {
    case 'onchain':
      return fc
        .record({
          // profile 2: a chain identifier is written eip155:N, N or 0x-hex; the document's and
          // rail_address's each in its own form (they name the same chain), so that a wallet
          // copying the sub-interface fields is tried on every form (profile 3: copied verbatim)
          chain_id: fc
            .tuple(fc.integer({ min: 1, max: 1_000_000 }), fc.constantFrom(...CHAIN_FORMS))
            .map(([n, form]) => chainIdIn(n, form)),
          railChainForm: fc.constantFrom(...CHAIN_FORMS),
          receiver_address: anyCaseEvmAddressArbitrary(),
          domain_separator: optional(
            fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => `0x${bytesToHex(b)}`),
          ),
          order_reference: optional(
            fc.uint8Array({ minLength: 16, maxLength: 16 }).map((b) => bytesToHex(b)),
          ),
          acquirer_id: optional(fc.uuid({ version: 4 })),
          contract_address: optional(anyCaseEvmAddressArbitrary()),
        })
        .map(({ railChainForm, ...f }) => ({
          fields: compact(f),
          railAddress: {
            receiver_address: f.receiver_address,
            chain_id: chainIdIn(chainNumber(f.chain_id), railChainForm),
          },
        }));
    case 'iban':
      return fc
        .record({
          iban: ibanArbitrary(),
          bic: optional(bicArbitrary()),
          beneficiary_name: nameArbitrary(70),
          remittance_info: optional(textArbitrary(140)),
          end_to_end_id: optional(fc.stringMatching(/^[A-Z0-9]{1,35}$/)),
          purpose_code: optional(fc.constantFrom('GDDS', 'SUPP', 'SALA')),
        })
        .map((f) => ({ fields: compact(f), railAddress: compact({ iban: f.iban, bic: f.bic }) }));
    case 'account':
      return fc
        .record({
          account_number: fc.stringMatching(/^[0-9]{6,17}$/),
          routing_code: optional(fc.stringMatching(/^[0-9]{9}$/)),
          routing_code_type: optional(fc.constantFrom('ABA', 'SORT_CODE', 'BSB', 'IFSC')),
          bank_name: optional(textArbitrary(40)),
          beneficiary_name: nameArbitrary(70),
          remittance_info: optional(textArbitrary(140)),
          end_to_end_id: optional(fc.stringMatching(/^[A-Z0-9]{1,35}$/)),
        })
        .map((f) => ({
          fields: compact(f),
          railAddress: compact({
            account_number: f.account_number,
            routing_code: f.routing_code,
            routing_code_type: f.routing_code_type,
          }),
        }));
    case 'instant-key':
      return fc
        .record({
          key_type: fc.constantFrom('CPF', 'PHONE', 'EMAIL', 'EVP', 'UPI_ID'),
          key_value: nameArbitrary(77),
          beneficiary_name: optional(nameArbitrary(70)),
          txid: optional(fc.stringMatching(/^[A-Za-z0-9]{1,35}$/)),
        })
        .map((f) => ({ fields: compact(f), railAddress: { key_type: f.key_type, key_value: f.key_value } }));
  }
}

/**
 * The parts of a CPR of one rail that do not depend on the instant, built once per rail and
 * process: building them costs some 20 ms (fast-check prepares every string arbitrary's
 * shrinking slices when it is built), which a property that builds a CPR generator per run or per
 * value (`chain`) would otherwise pay again and again.
 */
const PARTS_OF_RAIL = new Map<CprRail, ReturnType<typeof buildPartsOfRail>>();

function partsOfRail(rail: CprRail): ReturnType<typeof buildPartsOfRail> {
  let parts = PARTS_OF_RAIL.get(rail);
  if (!parts) {
    parts = buildPartsOfRail(rail);
    PARTS_OF_RAIL.set(rail, parts);
  }
  return parts;
}

function buildPartsOfRail(rail: CprRail) {
  const sub =
    rail === 'OPEN' || rail === 'NONE'
      ? fc.oneof(
          subInterfaceArbitrary('iban'),
          subInterfaceArbitrary('account'),
          subInterfaceArbitrary('instant-key'),
        )
      : subInterfaceArbitrary(SUB_INTERFACE_OF_HINT[rail]);
  const asset =
    rail === 'ON_CHAIN'
      ? fc.oneof(
          fc.record({
            type: fc.constantFrom('stablecoin', 'tokenized'),
            code: fc.constantFrom('USDC', 'EURC', 'USDT', 'BOND-2030'),
            // profile 2: every chain identifier names the same chain (the document's chain_id,
            // filled in below), written as eip155:N, N or 0x-hex
            chain_id: fc.constantFrom('eip155', 'decimal', 'hex'),
          }),
          fc.record({ type: fc.constant('crypto'), code: fc.constantFrom('ETH', 'BTC') }),
        )
      : fc.record({ type: fc.constant('fiat'), code: fc.constantFrom(...(FIAT_OF_RAIL[rail] ?? ['EUR'])) });
  return fc.record({
    request_id: fc.uuid({ version: 4 }),
    createdAgoMs: fc.integer({ min: 0, max: 86_400_000 }),
    expiresInMs: fc.integer({ min: 3_600_000, max: 28 * 86_400_000 }),
    withMillis: fc.boolean(),
    // profile 2: a display_name is not only white space
    display_name: optional(textArbitrary(70).filter((t) => t.trim() !== '')),
    amount: optional(amountArbitrary()),
    asset,
    memo: optional(textArbitrary(140)),
    extensions: optional(extensionsArbitrary()),
    sub,
  });
}

/** Generates one valid CPR of a fixed rail around `nowMs`. */
function cprOfRail(rail: CprRail, nowMs: number): fc.Arbitrary<JsonObject> {
  return partsOfRail(rail).map((r) => {
    const asset: JsonObject = { ...r.asset };
    const chain = r.sub.fields.chain_id;
    if (typeof asset.chain_id === 'string' && typeof chain === 'string') {
      asset.chain_id = chainIdIn(chainNumber(chain), asset.chain_id as ChainForm);
    }
    const iso = (ms: number): string => {
      const s = new Date(Math.floor(ms / 1000) * 1000 + (r.withMillis ? ms % 1000 : 0)).toISOString();
      return r.withMillis ? s : s.replace('.000Z', 'Z');
    };
    return compact({
      cpr_version: 'CPR-1.0',
      request_id: r.request_id,
      created_at: iso(nowMs - r.createdAgoMs),
      expires_at: iso(nowMs + r.expiresInMs),
      payee: compact({ display_name: r.display_name, rail_address: r.sub.railAddress }),
      value: compact({ amount: r.amount, asset }),
      memo: r.memo,
      rail_hint: rail === 'NONE' ? undefined : rail,
      extensions: r.extensions,
      ...r.sub.fields,
    });
  });
}

/**
 * Valid CPR-1.0 documents (payee and wallet readings, every rule of profile section 2) of one
 * rail or of any rail: UUIDv4 request_id, Z timestamps around `now`, a digit-string amount
 * (sometimes omitted, often beyond 2^53), an asset fitting the rail (an on-chain asset's
 * chain_id names the document's chain), the sub-interface's fields at the top level with
 * `payee.rail_address` agreeing, byte-length fields in their written forms, a display_name that
 * is not only white space, optional memo and namespaced extensions free of payer/state names.
 *
 * @example
 * ```ts
 * const [sample] = fc.sample(cprArbitrary({ rail: 'SEPA_CT', now: new Date() }), 1);
 * ```
 */
export function cprArbitrary(constraints: CprArbitraryConstraints = {}): fc.Arbitrary<JsonObject> {
  const nowMs = (constraints.now ?? new Date()).getTime();
  if (constraints.rail !== undefined) return cprOfRail(constraints.rail, nowMs);
  // oneof over prebuilt generators (not chain, which rebuilds a generator for every value)
  return fc.oneof(...CPR_RAILS.map((rail) => cprOfRail(rail, nowMs)));
}
