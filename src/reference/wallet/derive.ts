import { randomUUID } from 'node:crypto';
import { decodeCprUri } from '../../codec/uri.js';
import { isRail, type Rail, type SubInterface } from '../../model/cpr.js';
import type { Finding } from '../../model/finding.js';
import { isObject } from '../../model/util.js';
import { validateCpr } from '../../validator/index.js';
import { describeGiven, isAmountString } from './amount.js';
import { type DerivationError, DerivationFailure } from './errors.js';
import type { CprFetcher } from './fetch.js';
import { DEFAULT_SUPPORTED_RAILS, SUB_INTERFACES, subInterfaceOf } from './rails.js';

/** A JSON object. */
export type JsonObject = Record<string, unknown>;

/** The DerivationContext members a paying application supplies (spec 2.9, profile section 3). */
export interface DerivationContextInput {
  /** The payer (a CPD-001 Participant), resolved by the paying application. */
  payer: unknown;
  /** The ExecutionContext chosen by the paying application; copied to `payment.context.rail`. */
  rail: unknown;
  /** The AuthorizationProof produced by the paying application. */
  authorization: unknown;
  /** The amount the payer entered, for an open-amount request (spec 4.5). */
  payer_amount?: unknown;
}

/** Input of {@link derivePayment}: the harness `derive` body of profile section 3. */
export interface DerivationInput {
  /** The CPR itself (file / direct JSON delivery, spec 4.3 rule 3). */
  cpr?: unknown;
  /** A `cpr://` URI, reference or inline (spec 4.2). */
  uri?: unknown;
  /** The paying application's side of the derivation. */
  context: DerivationContextInput | unknown;
}

/** Options of {@link derivePayment}. */
export interface DerivationOptions {
  /** The instant "now" for the expiry check (the wallet core passes its clock's). */
  now: Date;
  /** Rails the wallet can execute (the wallet core passes {@link DEFAULT_SUPPORTED_RAILS}, all but SWIFT, unless configured). */
  supportedRails: readonly Rail[];
  /** Retrieves a reference URI's CPR; without it reference URIs give `TOKEN_REJECTED`. */
  fetchCpr?: CprFetcher;
  /**
   * Which validator errors the wallet does not refuse a document for (profile 3: a wallet MAY
   * refuse a document that breaks a rule of section 2, such as a bad IBAN checksum). The
   * reference refuses every error of the wallet reading: none is tolerated by default.
   */
  tolerates?: (finding: Finding, document: JsonObject) => boolean;
}

/** The derived Payment (CPD-001 subset, spec 2.10, profile section 3). */
export interface DerivedPayment {
  /** A fresh UUID. */
  id: string;
  /** `context.payer`, unchanged. */
  payer: unknown;
  /** The CPR's payee descriptor plus every sub-interface field of the CPR. */
  payee: JsonObject;
  /** The requested value, amount and asset preserved unmodified. */
  value: { amount: string; asset: JsonObject };
  /** The intent: reference and conditions. */
  intent: { reference: string; conditions: JsonObject };
  /** `context.authorization`, unchanged. */
  authorization: unknown;
  /** Always `CREATED` (spec 3 rule 3). */
  state: 'CREATED';
  /** The ExecutionContext given and the CPR's request_id (spec 2.10). */
  context: { rail: unknown; request_id: string };
}

/** Outcome of {@link derivePayment}: every refusal is returned, never thrown. */
export type DerivationResult = { ok: true; payment: DerivedPayment } | { ok: false; error: DerivationError };

/**
 * Derives a Payment from a CPR (spec 4.4), as a paying application does: resolves a `cpr://`
 * URI when given one, then performs steps 1 to 7 in order. Bad input and every refusal come back
 * as `{ ok: false, error: { code, message } }`; it throws only on a defect of its own.
 *
 * @example
 * ```ts
 * const result = await derivePayment(
 *   { cpr, context: { payer: { id: 'u-1' }, rail: { execution_id: 'x-1' }, authorization: { type: 'pin' } } },
 *   { now: new Date(), supportedRails: DEFAULT_SUPPORTED_RAILS },
 * );
 * if (result.ok) console.log(result.payment.value.amount);
 * ```
 */
export async function derivePayment(
  input: DerivationInput,
  options: DerivationOptions,
): Promise<DerivationResult> {
  try {
    const { uri, cpr: given, context } = checkInput(input);
    const document = uri !== undefined ? await resolveUri(uri, options.fetchCpr) : given;

    const cpr = parseAndValidate(document, options.now, options.tolerates); // step 1
    const selection = selectRail(cpr, options.supportedRails); // step 2
    const payer = resolvePayer(context); // step 3
    const value = constructValue(cpr, context); // step 4
    const intent = constructIntent(cpr, selection); // step 5
    const authorization = produceAuthorization(context); // step 6
    const payment = assemblePayment(cpr, selection, { payer, value, intent, authorization, context }); // step 7
    return { ok: true, payment };
  } catch (err) {
    // a defect of the wallet itself is thrown, never disguised as a refusal of the cpr
    // Stryker disable next-line ConditionalExpression: equivalent (an error that is no DerivationFailure has no toError: it is thrown either way)
    if (!(err instanceof DerivationFailure)) throw err;
    return { ok: false, error: err.toError() };
  }
}

// ---------------------------------------------------------------------------------------------
// Input shape (profile section 3: the harness body)

interface CheckedInput {
  /** The uri given, or undefined when the cpr itself is. */
  uri: string | undefined;
  /** The cpr given (undefined when a uri is). */
  cpr: unknown;
  context: DerivationContextInput & JsonObject;
}

/** Checks the harness body shape: exactly one of `cpr` / `uri`, and a complete `context`. */
function checkInput(input: unknown): CheckedInput {
  if (!isObject(input)) {
    throw new DerivationFailure(
      'INVALID_REQUEST',
      `the derive request must be a json object {cpr|uri, context}, not ${describeGiven(input)}`,
    );
  }
  const hasCpr = input.cpr !== undefined;
  const hasUri = input.uri !== undefined;
  if (hasCpr && hasUri) {
    throw new DerivationFailure(
      'INVALID_REQUEST',
      'the derive request carries both "cpr" and "uri"; send exactly one of them',
    );
  }
  if (!hasCpr && !hasUri) {
    throw new DerivationFailure(
      'INVALID_REQUEST',
      'the derive request carries neither "cpr" nor "uri"; send exactly one of them',
    );
  }
  if (hasUri && typeof input.uri !== 'string') {
    throw new DerivationFailure(
      'INVALID_REQUEST',
      `"uri" must be a cpr:// uri string, not ${describeGiven(input.uri)}`,
    );
  }
  // Stryker disable next-line all: an empty uri is a string (profile 3 names a uri that is not a string); refusing it as INVALID_REQUEST, as the derive-request schema reads it, or with a 422 code of the document is free
  if (input.uri === '') throw new DerivationFailure('INVALID_REQUEST', '"uri" is an empty string');
  if (hasCpr && !isObject(input.cpr)) {
    throw new DerivationFailure(
      'INVALID_REQUEST',
      `"cpr" must be the cpr json object, not ${describeGiven(input.cpr)}; to send a uri use "uri"`,
    );
  }
  const context = input.context;
  if (!isObject(context)) {
    throw new DerivationFailure(
      'INVALID_REQUEST',
      `"context" must be an object {payer, rail, authorization, payer_amount?}, not ${describeGiven(context)}`,
    );
  }
  for (const member of ['payer', 'rail', 'authorization'] as const) {
    if (!isObject(context[member])) {
      throw new DerivationFailure(
        'INVALID_REQUEST',
        `"context.${member}" must be an object (the paying application supplies it, spec 2.9), not ${describeGiven(context[member])}`,
      );
    }
  }
  // Profile section 3: payer_amount is an amount string (profile section 1).
  if (context.payer_amount !== undefined && !isAmountString(context.payer_amount)) {
    throw new DerivationFailure(
      'INVALID_REQUEST',
      `"context.payer_amount" must be an amount string (base-10 digits in the smallest unit, from 1 to 2^256 - 1), not ${describeGiven(context.payer_amount)}`,
    );
  }
  return {
    uri: input.uri as string | undefined,
    cpr: input.cpr,
    context: context as DerivationContextInput & JsonObject,
  };
}

// ---------------------------------------------------------------------------------------------
// Delivery (spec 4.2, 4.3 rule 1, spec 5; profile section 2): resolve the URI, retrieve the payload

/** Spec 4.2: an inline URI carries the CPR; a reference URI names where to retrieve it (spec 4.1). */
async function resolveUri(uri: string, fetchCpr: CprFetcher | undefined): Promise<unknown> {
  // Spec 5 rule 4: the token is transmitted only over TLS, so a non-https endpoint is refused
  // before anything is sent (checked here so the refusal is TOKEN_REJECTED whatever the codec says).
  const endpoint = referenceEndpointOf(uri);
  if (endpoint !== undefined && !/^https:\/\//i.test(endpoint)) {
    throw new DerivationFailure(
      'TOKEN_REJECTED',
      "the uri's endpoint is not https; a cpr token is only sent over tls (spec 5 rule 4)",
    );
  }
  const decoded = decodeCprUri(uri);
  // a uri string that is no usable cpr uri is about the document (profile 3: one of the 422 codes;
  // INVALID_STRUCTURE or TOKEN_REJECTED is free, AMB-36)
  if (!decoded.ok) {
    throw new DerivationFailure(
      'INVALID_STRUCTURE',
      // Stryker disable next-line OptionalChaining: equivalent (a decoding that failed has a finding)
      `the uri is not a usable cpr uri: ${decoded.findings[0]?.message}`,
    );
  }
  const value = decoded.value;
  if (value.kind === 'inline') return value.document;
  // The retrieval url is the endpoint's (profile 2), found https above.
  if (!fetchCpr) {
    throw new DerivationFailure(
      'TOKEN_REJECTED',
      'this wallet was set up without a way to retrieve reference uris; send the cpr itself or an inline uri',
    );
  }
  try {
    return await fetchCpr(value.retrievalUrl);
  } catch (err) {
    // a token refused (404, 410, any other status), a payee that cannot be reached, an answer that
    // cannot be read or is no JSON: the cpr cannot be obtained (AMB-36: TOKEN_REJECTED)
    throw new DerivationFailure(
      'TOKEN_REJECTED',
      `retrieving the cpr failed: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}

/** The `endpoint` query parameter of a reference URI, if the URI has one. */
function referenceEndpointOf(uri: string): string | undefined {
  // without a "?", the whole uri is read as one query key, and it has no "endpoint"
  return new URLSearchParams(uri.slice(uri.indexOf('?') + 1)).get('endpoint') ?? undefined;
}

// ---------------------------------------------------------------------------------------------
// Step 1 (spec 4.4 step 1; 4.3 rule 3; 9 rule 1; 7 rule 2; INV-2, INV-7)

/** A CPR that passed step 1: an object, amount normalized to its digit string when present. */
interface ValidatedCpr {
  doc: JsonObject;
  requestId: string;
}

/**
 * Spec 4.4 step 1: parse and validate: cpr_version (spec 9 rule 1), request_id, expires_at in
 * the future (spec 7 rule 2, INV-2), then the structure (the validator in wallet mode).
 */
function parseAndValidate(
  document: unknown,
  now: Date,
  tolerates: (finding: Finding, document: JsonObject) => boolean = () => false,
): ValidatedCpr {
  if (!isObject(document)) {
    throw new DerivationFailure(
      'INVALID_STRUCTURE',
      `a cpr is a json object, not ${describeGiven(document)}`,
    );
  }
  // Spec 9 rule 1: cpr_version must equal CPR-1.0; the application validates it before processing.
  if (document.cpr_version !== 'CPR-1.0') {
    throw new DerivationFailure(
      'INVALID_VERSION',
      `"cpr_version" is ${describeGiven(document.cpr_version)}; this wallet reads "CPR-1.0" only`,
    );
  }
  // Profile section 1: a JSON-number amount that is a safe integer is read as its digit string
  // (the validator then refuses 0 and negatives); any other number stays a number, which the
  // validator in wallet mode refuses (precision may already be lost).
  const doc: JsonObject = { ...document };
  const amount = isObject(document.value) ? document.value.amount : undefined;
  // (Number.isSafeInteger is false for anything that is no number)
  if (Number.isSafeInteger(amount)) {
    doc.value = { ...(document.value as JsonObject), amount: (amount as number).toFixed(0) };
  }

  // The validator in wallet mode: request_id (spec 4.3 rule 3), expires_at in the future (spec 7
  // rule 2, INV-2; any RFC 3339 offset, instants compared, profile section 1), the structure. An
  // unrecognised rail_hint is only a warning there (INV-7: ignored gracefully).
  // Stryker disable next-line ObjectLiteral: equivalent (the validator reads an absent mode as the wallet's, every rule testing for 'payee', and an absent now as the current time)
  const verdict = validateCpr(doc, { mode: 'wallet', now });
  const errors = verdict.findings.filter((f) => f.severity === 'error' && !tolerates(f, doc));
  const expired = errors.find((f) => f.requirement === 'CPR-7-EXPIRED-REJECTED');
  if (expired !== undefined) {
    throw new DerivationFailure(
      'EXPIRED',
      `${expired.message}; a paying application never fulfills an expired request (spec 7 rule 2); ask the payee for a new one`,
    );
  }
  const first = errors[0];
  if (first !== undefined) {
    throw new DerivationFailure(
      'INVALID_STRUCTURE',
      `the cpr is not valid at "${first.path}": ${first.message}`,
    );
  }
  const requestId = doc.request_id as string;
  return { doc, requestId };
}

// ---------------------------------------------------------------------------------------------
// Step 2 (spec 4.4 step 2; 4.5 "unsupported rail_hint"; 7 rule 3; INV-4)

/** The rail chosen for the payment and the sub-interface whose fields apply. */
interface RailSelection {
  rail: Rail;
  subInterface: SubInterface;
}

/**
 * Spec 4.4 step 2: select the rail, rail_hint being a non-binding signal (INV-4). The document
 * completes exactly one sub-interface whatever its rail_hint (profile section 2, step 1). The
 * ExecutionContext (`context.rail`) is opaque (profile section 3): it is never read here. A
 * specific hint is followed when supported; with `OPEN`, no hint or an unrecognised hint (INV-7;
 * profile 3 reads it as `OPEN`, compared case-sensitively: `sepa_ct` is unrecognised) the first
 * supported rail of the sub-interface is taken, and UNSUPPORTED_RAIL comes only when none is. A
 * known hint the wallet does not serve is refused (spec 4.4 step 2 "may reject the request when
 * it cannot serve the indicated rail"), even when another rail of its sub-interface is served,
 * with a message for a person (spec 4.5), never silently.
 */
function selectRail(cpr: ValidatedCpr, supported: readonly Rail[]): RailSelection {
  // Profile 2: step 1's validator (wallet mode) refused a document completing no sub-interface or
  // two, whatever its rail_hint, so exactly one applies here (were it ever undefined, the lookup
  // below would throw and the derivation end as INVALID_STRUCTURE all the same).
  const subInterface = subInterfaceOf(cpr.doc) as SubInterface;
  const candidates = SUB_INTERFACES[subInterface].rails;
  const offered = candidates.filter((r) => supported.includes(r));

  const hint = cpr.doc.rail_hint;
  if (isRail(hint)) {
    if (!supported.includes(hint)) {
      throw new DerivationFailure(
        'UNSUPPORTED_RAIL',
        `the payee asks for payment by ${hint}, which this wallet does not support; it supports [${supported}]`,
      );
    }
    return { rail: hint, subInterface };
  }

  const first = offered[0];
  if (first === undefined) {
    throw new DerivationFailure(
      'UNSUPPORTED_RAIL',
      `this request can only be paid by [${candidates}], which this wallet does not support; it supports [${supported}]`,
    );
  }
  return { rail: first, subInterface };
}

// ---------------------------------------------------------------------------------------------
// Step 3 (spec 4.4 step 3; INV-1, INV-6)

/** Spec 4.4 step 3: the payer comes from the application's own user (the context), never from the CPR. */
function resolvePayer(context: JsonObject): unknown {
  return structuredClone(context.payer);
}

// ---------------------------------------------------------------------------------------------
// Step 4 (spec 4.4 step 4; 2.3; 4.5 amount rows; INV-5)

/**
 * Spec 4.4 step 4: the value, amount and asset preserved unmodified (INV-5), as strings. An
 * open amount (spec 4.5) takes the payer's amount; a fixed amount is paid in full and any
 * `payer_amount` is not used.
 */
function constructValue(cpr: ValidatedCpr, context: JsonObject): DerivedPayment['value'] {
  const value = cpr.doc.value as JsonObject;
  const asset = structuredClone(value.asset) as JsonObject;
  if (typeof value.amount === 'string') return { amount: value.amount, asset };
  // Spec 4.5: amount omitted: the payer's amount becomes the payment amount.
  if (context.payer_amount === undefined) {
    throw new DerivationFailure(
      'AMOUNT_REQUIRED',
      'the request leaves the amount open; prompt the payer for it and send it as "context.payer_amount"',
    );
  }
  // checkInput made sure payer_amount is an amount string.
  return { amount: context.payer_amount as string, asset };
}

// ---------------------------------------------------------------------------------------------
// Step 5 (spec 4.4 step 5; 2.10 intent rows)

/**
 * Spec 4.4 step 5 and 2.10: `reference` is the memo when present, otherwise the request_id;
 * `conditions` are the selected rail and the sub-interface fields of the CPR.
 */
function constructIntent(cpr: ValidatedCpr, selection: RailSelection): DerivedPayment['intent'] {
  const memo = cpr.doc.memo;
  const reference = typeof memo === 'string' ? memo : cpr.requestId;
  // Stryker disable next-line ObjectLiteral: profile 3 leaves to the wallet which members conditions holds (each one named after a sub-interface field equals the CPR's value; the rail is the wallet's own): an empty object is conformant
  const conditions: JsonObject = { rail: selection.rail, ...subInterfaceFields(cpr, selection.subInterface) };
  return { reference, conditions };
}

/**
 * The fields of a sub-interface with the CPR's values. A field the CPR does not carry is
 * undefined here, so it is absent from the Payment on the wire (JSON has no undefined).
 */
function subInterfaceFields(cpr: ValidatedCpr, subInterface: SubInterface): JsonObject {
  const fields = SUB_INTERFACES[subInterface];
  const out: JsonObject = {};
  for (const name of [...fields.required, ...fields.optional]) out[name] = structuredClone(cpr.doc[name]);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Step 6 (spec 4.4 step 6; INV-6)

/** Spec 4.4 step 6: the authorization is the application's own (the context); none comes from the CPR. */
function produceAuthorization(context: JsonObject): unknown {
  return structuredClone(context.authorization);
}

// ---------------------------------------------------------------------------------------------
// Step 7 (spec 4.4 step 7; 2.10; 3 rules 2-3; profile section 3)

interface PaymentParts {
  payer: unknown;
  value: DerivedPayment['value'];
  intent: DerivedPayment['intent'];
  authorization: unknown;
  context: JsonObject;
}

/**
 * Spec 4.4 step 7 and 2.10: a fresh id, state CREATED (spec 3 rule 3, no state carried over),
 * the payee descriptor with every sub-interface field (profile section 3), and
 * `context: {rail, request_id}` binding the request_id for traceability.
 */
function assemblePayment(cpr: ValidatedCpr, selection: RailSelection, parts: PaymentParts): DerivedPayment {
  const payee = {
    ...(structuredClone(cpr.doc.payee) as JsonObject),
    ...subInterfaceFields(cpr, selection.subInterface),
  };
  return {
    id: randomUUID(),
    payer: parts.payer,
    payee,
    value: parts.value,
    intent: parts.intent,
    authorization: parts.authorization,
    state: 'CREATED',
    context: { rail: structuredClone(parts.context.rail), request_id: cpr.requestId },
  };
}

// ---------------------------------------------------------------------------------------------
