/**
 * What the suite's own modules answer for the input of a vector: the validator for documents,
 * the codec for URIs and QR images, the crypto module for JCS, signatures and chain digests, the
 * reference wallet for derivations and the reference Operator for request sequences. The
 * generator records these answers as the vectors' expected values; the proof
 * (test/vectors/vectors.test.ts) asks again and compares, so a change that alters a verdict shows
 * as a changed vector.
 */
import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { PNG } from 'pngjs';
import QRCode from 'qrcode';
import { readQrPng, renderQrPng } from '../../../src/codec/qr.js';
import { decodeCprUri } from '../../../src/codec/uri.js';
import { base64urlDecode, base64urlEncode } from '../../../src/crypto/base64url.js';
import { initialChainDigest, nextChainDigest } from '../../../src/crypto/chain-digest.js';
import { jwkThumbprint, signObject, verifyObject } from '../../../src/crypto/ed25519.js';
import { canonicalize } from '../../../src/crypto/jcs.js';
import type { Rail } from '../../../src/model/cpr.js';
import type { Finding } from '../../../src/model/finding.js';
import { OPERATOR_ERROR_STATUS, OperatorError } from '../../../src/reference/operator/errors.js';
import { type OperatorDeps, ReferenceOperator } from '../../../src/reference/operator/operator.js';
import { assetKey as assetKeyOf, OperatorStore } from '../../../src/reference/operator/store.js';
import type { Policy } from '../../../src/reference/operator/types.js';
import { derivePayment } from '../../../src/reference/wallet/derive.js';
import { DerivationFailure } from '../../../src/reference/wallet/errors.js';
import { validateCpr, validateCprBytes, validateCprText } from '../../../src/validator/index.js';
import { vectorKey } from './keys.js';
import type {
  ChainCase,
  DecodedUri,
  DerivationCase,
  DerivationOutcome,
  DocumentCase,
  JcsCase,
  OperatorBalance,
  OperatorCase,
  OperatorStep,
  QrCase,
  SignatureCase,
  ThumbprintCase,
  VectorFinding,
} from './types.js';

/** A finding without its message (messages are for people and may be reworded). */
export function vectorFinding(f: Finding, withPath = true): VectorFinding {
  return withPath
    ? { requirement: f.requirement, level: f.level, severity: f.severity, path: f.path }
    : { requirement: f.requirement, level: f.level, severity: f.severity };
}

const verdictOf = (findings: readonly VectorFinding[]): 'valid' | 'invalid' =>
  findings.some((f) => f.severity === 'error') ? 'invalid' : 'valid';

// ------------------------------------------------------------------------------------ documents

/** The validator's answer for a document case. */
export function evaluateDocument(
  c: Pick<DocumentCase, 'reading' | 'now' | 'max_validity_seconds' | 'document' | 'text' | 'bytes_base64'>,
): {
  verdict: 'valid' | 'invalid';
  findings: VectorFinding[];
} {
  const opts = {
    mode: c.reading,
    now: new Date(c.now),
    ...(c.max_validity_seconds === undefined ? {} : { maxValiditySeconds: c.max_validity_seconds }),
  };
  const result =
    c.bytes_base64 !== undefined
      ? validateCprBytes(new Uint8Array(Buffer.from(c.bytes_base64, 'base64')), opts)
      : c.text !== undefined
        ? validateCprText(c.text, opts)
        : validateCpr(c.document, opts);
  const findings = result.findings.map((f) => vectorFinding(f));
  return { verdict: verdictOf(findings), findings };
}

// ------------------------------------------------------------------------------------ uris

/** The codec's answer for a URI. */
export function evaluateUri(uri: string): {
  verdict: 'valid' | 'invalid';
  decoded?: DecodedUri;
  findings: VectorFinding[];
} {
  const r = decodeCprUri(uri);
  const findings = r.findings.map((f) => vectorFinding(f, false));
  if (!r.ok) return { verdict: 'invalid', findings };
  const v = r.value;
  const decoded: DecodedUri =
    v.kind === 'reference'
      ? { kind: 'reference', token: v.token, endpoint: v.endpoint, retrieval_url: v.retrievalUrl }
      : { kind: 'inline', json: v.json, document: v.document };
  return { verdict: verdictOf(findings), decoded, findings };
}

// ------------------------------------------------------------------------------------ qr

/** Renders a QR PNG as the vectors describe it (the codec for M/Q/H in byte mode; qrcode for the rest). */
export async function renderForVector(
  payload: string,
  ec: 'L' | 'M' | 'Q' | 'H',
  scale: number,
  margin: number,
  segments?: Array<{ data: string; mode: 'byte' | 'numeric' | 'alphanumeric' }>,
): Promise<Buffer> {
  if (segments === undefined && ec !== 'L') {
    const r = await renderQrPng(payload, { errorCorrection: ec, scale, margin });
    if (!r.ok) throw new Error(`render failed: ${r.findings[0]?.message}`);
    return r.png;
  }
  const segs = segments ?? [{ data: payload, mode: 'byte' as const }];
  const data = segs.map((s) =>
    s.mode === 'byte' ? { data: Buffer.from(s.data, 'utf8'), mode: 'byte' as const } : s,
  );
  return (QRCode.toBuffer as (segments: unknown, options: unknown) => Promise<Buffer>)(data, {
    type: 'png',
    errorCorrectionLevel: ec,
    scale,
    margin,
  });
}

/**
 * Whether the PNG shows, module for module, the symbol of `payload` in one byte segment at error
 * correction `ec` (drawn at `scale` pixels per module inside a `margin`-module quiet zone): the
 * proof that the image was rendered at the level the vector states, independent of how the PNG
 * bytes were compressed.
 */
export function qrModulesMatch(
  pngBase64: string,
  payload: string,
  ec: 'L' | 'M' | 'Q' | 'H',
  scale: number,
  margin: number,
): boolean {
  const image = PNG.sync.read(Buffer.from(pngBase64, 'base64'));
  const symbol = QRCode.create([{ data: Buffer.from(payload, 'utf8'), mode: 'byte' }] as never, {
    errorCorrectionLevel: ec,
  });
  const size = symbol.modules.size;
  if (image.width !== (size + 2 * margin) * scale || image.height !== image.width) return false;
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size; col++) {
      const x = (margin + col) * scale + Math.floor(scale / 2);
      const y = (margin + row) * scale + Math.floor(scale / 2);
      const dark = (image.data[(y * image.width + x) * 4] as number) < 128;
      if (dark !== Boolean(symbol.modules.get(row, col))) return false;
    }
  }
  return true;
}

/** The codec's answer for a QR case: what it reads from the PNG, or what it says of rendering. */
export async function evaluateQr(c: QrCase): Promise<{
  verdict: 'valid' | 'invalid';
  payload?: string;
  modes?: string[];
  findings: VectorFinding[];
}> {
  if (c.kind === 'render') {
    const r = await renderQrPng(c.payload as string, {
      errorCorrection: c.error_correction as 'M',
      ...(c.scale === undefined ? {} : { scale: c.scale }),
      ...(c.margin === undefined ? {} : { margin: c.margin }),
    });
    if (r.ok) return { verdict: 'valid', findings: [] };
    const findings = r.findings.map((f) => vectorFinding(f, false));
    return { verdict: 'invalid', findings };
  }
  const r = readQrPng(Buffer.from(c.png_base64 as string, 'base64'));
  const findings = r.findings.map((f) => vectorFinding(f, false));
  if (!r.ok) return { verdict: 'invalid', findings };
  return { verdict: verdictOf(findings), payload: r.text, modes: r.modes, findings };
}

// ------------------------------------------------------------------------------------ crypto

/** RFC 8785 output of a JCS case's input, or `undefined` when the crypto module refuses it. */
export function evaluateJcs(c: JcsCase): { canonical?: string; canonical_utf8_hex?: string } {
  try {
    const canonical = canonicalize(JSON.parse(c.input_json));
    return { canonical, canonical_utf8_hex: Buffer.from(canonical, 'utf8').toString('hex') };
  } catch {
    return {};
  }
}

/** Whether the crypto module verifies a signature case, and the JCS text it signs. */
export function evaluateSignature(c: SignatureCase): { verdict: 'valid' | 'invalid'; signing_input: string } {
  const { signature: _s, ...rest } = c.message;
  return {
    verdict: verifyObject(c.message, c.public_key) ? 'valid' : 'invalid',
    signing_input: canonicalize(rest),
  };
}

/** The chain digests d0..dN of a chain case, as the crypto module computes them. */
export function evaluateChain(c: ChainCase): string[] {
  const out = [initialChainDigest(c.seed as never)];
  for (const entry of c.renewal_chain) out.push(nextChainDigest(out[out.length - 1] as string, entry));
  return out;
}

/** The RFC 7638 thumbprint (the Operator's `kid`) of a public key. */
export function evaluateThumbprint(c: ThumbprintCase): string {
  return jwkThumbprint(c.public_key);
}

// ------------------------------------------------------------------------------------ derivation

/** Every Payment field but `id` and `intent.conditions`, and the conditions apart. */
function splitPayment(payment: Record<string, unknown>): {
  id: unknown;
  rest: Record<string, unknown>;
  conditions: Record<string, unknown>;
} {
  const { id, intent, ...others } = payment;
  const { conditions, ...intentRest } = (intent ?? {}) as Record<string, unknown>;
  return {
    id,
    rest: JSON.parse(JSON.stringify({ ...others, intent: intentRest })),
    conditions: JSON.parse(JSON.stringify(conditions ?? {})),
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What the reference wallet derives for a derivation case: `{payment}` or `{error}`. */
export async function evaluateDerivation(
  c: Pick<DerivationCase, 'now' | 'supported_rails' | 'input' | 'payee_answer'>,
): Promise<{ payment: Record<string, unknown> } | { error: string }> {
  const answer = c.payee_answer;
  const r = await derivePayment(c.input, {
    now: new Date(c.now),
    supportedRails: c.supported_rails as Rail[],
    ...(answer === undefined
      ? {}
      : {
          fetchCpr: async (url: string) => {
            if (url !== answer.retrieval_url)
              throw new DerivationFailure('TOKEN_REJECTED', `unexpected url ${url}`);
            if (answer.status !== 200) throw new Error(`the payee answered ${answer.status}`);
            return structuredClone(answer.body);
          },
        }),
  });
  if (!r.ok) return { error: r.error.code };
  return { payment: JSON.parse(JSON.stringify(r.payment)) };
}

/**
 * Whether a derived answer is one of a case's outcomes: the same error code, or a Payment whose
 * `id` is a UUID, whose other fields equal the outcome's, and whose `intent.conditions` is an
 * object in which each member named in the outcome's `conditions` equals it (profile 3: which
 * sub-interface fields it repeats is the wallet's choice).
 */
export function matchesOutcome(
  actual: { payment: Record<string, unknown> } | { error: string },
  outcome: DerivationOutcome,
  subInterfaceFieldNames: readonly string[],
): boolean {
  if ('error' in outcome) return 'error' in actual && actual.error === outcome.error;
  if (!('payment' in actual)) return false;
  const { id, rest, conditions } = splitPayment(actual.payment);
  if (typeof id !== 'string' || !UUID.test(id)) return false;
  if (!isDeepStrictEqual(rest, outcome.payment)) return false;
  for (const [name, value] of Object.entries(conditions)) {
    if (!subInterfaceFieldNames.includes(name)) continue;
    if (!(name in outcome.conditions) || !isDeepStrictEqual(value, outcome.conditions[name])) return false;
  }
  return true;
}

/** The outcome form of a reference Payment: every field but id and conditions. */
export function outcomeOfPayment(
  payment: Record<string, unknown>,
  conditions: Record<string, unknown>,
): DerivationOutcome {
  return { payment: splitPayment(payment).rest, conditions };
}

// ------------------------------------------------------------------------------------ operator

/** One step's answer and what follows it. */
export interface StepResult {
  status: number;
  body: unknown;
  balances: Record<string, OperatorBalance>;
}

type Resolved = Record<string, StepResult>;

/**
 * Resolves `{"$ref": "<step>.body.<path>"}` placeholders against earlier steps' answers; a
 * `$with` object beside `$ref` replaces members of the object it names.
 */
export function resolveTemplate(value: unknown, done: Resolved): unknown {
  if (Array.isArray(value)) return value.map((v) => resolveTemplate(v, done));
  if (value === null || typeof value !== 'object') return value;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj);
  if (typeof obj.$ref === 'string' && keys.every((k) => k === '$ref' || k === '$with')) {
    const [step, ...path] = obj.$ref.split('.');
    let at: unknown = done[step as string];
    if (at === undefined) throw new Error(`$ref to unknown step ${step}`);
    for (const p of path) at = (at as Record<string, unknown>)[p];
    if (at === undefined) throw new Error(`$ref ${obj.$ref} names nothing`);
    if (obj.$with === undefined) return structuredClone(at);
    return { ...(structuredClone(at) as object), ...(resolveTemplate(obj.$with, done) as object) };
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) out[k] = resolveTemplate(v, done);
  return out;
}

/** Signs (and then tampers with) a step's message as its `sign` member says. */
export function signStepBody(body: unknown, sign: OperatorStep['sign']): unknown {
  if (sign === undefined) return body;
  const outer = body as Record<string, unknown>;
  const target = (sign.member === undefined ? outer : outer[sign.member]) as Record<string, unknown>;
  let signed: Record<string, unknown> = signObject(target, vectorKey(sign.key).privateJwk);
  const tamper = sign.tamper;
  if (tamper?.op === 'flip-bit') {
    const bytes = base64urlDecode(signed.signature as string);
    bytes[0] = (bytes[0] as number) ^ 0x01;
    signed = { ...signed, signature: base64urlEncode(bytes) };
  } else if (tamper?.op === 'remove') {
    const { signature: _s, ...rest } = signed;
    signed = rest;
  } else if (tamper?.op === 'set') {
    signed = { ...signed, [tamper.name]: tamper.value };
  }
  return sign.member === undefined ? signed : { ...outer, [sign.member]: signed };
}

/** The body and, for status, the path parameter of a step, resolved and signed. */
export function requestOfStep(step: OperatorStep, done: Resolved): { body: unknown; packId?: string } {
  const body =
    step.body === undefined ? undefined : signStepBody(resolveTemplate(step.body, done), step.sign);
  const packId = step.pack_id === undefined ? undefined : (resolveTemplate(step.pack_id, done) as string);
  return { body, ...(packId === undefined ? {} : { packId }) };
}

/** Runs an operator case's steps against a fresh reference Operator; one result per step. */
export async function evaluateOperator(c: OperatorCase): Promise<StepResult[]> {
  const startMs = Date.parse(c.initial.now);
  let offsetMs = 0;
  const store = new OperatorStore();
  const policy = c.initial.policy as unknown as Policy;
  const asset = policy.assets[0] as Policy['assets'][number];
  const assetKey = assetKeyOf(asset);
  const principals = new Map<string, { publicKey: string; statusCredential: string }>();
  for (const p of c.initial.principals) {
    principals.set(p.principal_id, {
      publicKey: vectorKey(p.key).publicKey,
      statusCredential: p.status_credential,
    });
    store.openAccount(p.principal_id, assetKey, BigInt(p.available_balance));
  }
  const deps: OperatorDeps = {
    policy,
    signingKey: vectorKey(c.initial.operator_key).privateJwk,
    principals,
    identityTokens: new Map(Object.entries(c.initial.identity_tokens)),
    operatorCredential: c.initial.operator_credential,
    clock: () => new Date(startMs + offsetMs),
    store,
  };
  const operator = new ReferenceOperator(deps);
  const credentials = new Map<string, string>([
    ['operator', c.initial.operator_credential],
    ...c.initial.principals.map((p) => [p.principal_id, p.status_credential] as [string, string]),
  ]);
  const balances = (): Record<string, OperatorBalance> => {
    const out: Record<string, OperatorBalance> = {};
    const ledger = store.ledger().accounts;
    for (const p of c.initial.principals) {
      const a = ledger[p.principal_id]?.[assetKey];
      out[p.principal_id] = {
        available: a?.available ?? '0',
        locked: a?.locked ?? '0',
        released: a?.redeemedOut ?? '0',
      };
    }
    return out;
  };
  const done: Resolved = {};
  const results: StepResult[] = [];
  for (const step of c.steps) {
    const { body, packId } = requestOfStep(step, done);
    let status: number;
    let answer: unknown;
    try {
      let r: { status: number; body: unknown };
      switch (step.action) {
        case 'issue':
          r = await operator.issue(body);
          break;
        case 'renew':
          r = await operator.renew(body);
          break;
        case 'redeem':
          r = await operator.redeem(body);
          break;
        case 'expire':
          r = await operator.expire(body);
          break;
        case 'cancel':
          r = await operator.cancel(body);
          break;
        case 'status': {
          const cred =
            step.credential === undefined ? undefined : (credentials.get(step.credential) ?? step.credential);
          r = await operator.status(packId as string, cred === undefined ? undefined : `Bearer ${cred}`);
          break;
        }
        case 'set_balance': {
          // the optional balance harness (profile 4), read as an optional member of the Operator
          const setBalance = (
            operator as unknown as { setBalance?: (b: unknown) => Promise<{ status: number; body: unknown }> }
          ).setBalance;
          if (setBalance === undefined)
            throw new Error('the reference Operator has no balance harness (setBalance)');
          r = await setBalance.call(operator, body);
          break;
        }
        case 'policy':
          r = operator.policyDocument();
          break;
        case 'public_key':
          r = operator.publicKeyDocument();
          break;
        case 'advance_clock':
          offsetMs += (step.seconds as number) * 1000;
          r = { status: 200, body: { now: new Date(startMs + offsetMs).toISOString() } };
          break;
      }
      status = r.status;
      answer = r.body;
    } catch (err) {
      if (!(err instanceof OperatorError)) throw err;
      status = OPERATOR_ERROR_STATUS[err.code];
      answer = { error: { code: err.code, message: err.message } };
    }
    const result: StepResult = { status, body: answer, balances: balances() };
    done[step.step] = result;
    results.push(result);
  }
  return results;
}

/** The operator's public key of a case (what `operator-signature` checks verify with). */
export function operatorPublicKey(c: OperatorCase): string {
  return vectorKey(c.initial.operator_key).publicKey;
}

/** d0..dN of a cash-pack as profile 4 computes them from the pack itself. */
export function chainDigestOfPack(pack: Record<string, unknown>): string {
  const chain = pack.renewal_chain as Array<Record<string, unknown>>;
  const initial = (chain[0]?.bearer_pk ?? pack.current_bearer_pk) as string;
  let d = initialChainDigest({
    pack_id: pack.pack_id as string,
    amount: pack.amount as string,
    asset: pack.asset,
    expires_at: pack.expires_at as string,
    initial_bearer_pk: initial,
  });
  for (const e of chain) d = nextChainDigest(d, e);
  return d;
}

/**
 * Whether one step's answer meets its `expected`: status, code (or one of `codes`), each member
 * of `body` (templates resolved), each named check, and the balances.
 */
export function stepMeets(c: OperatorCase, step: OperatorStep, result: StepResult, done: Resolved): string[] {
  const problems: string[] = [];
  const e = step.expected;
  const code = (result.body as { error?: { code?: string } } | undefined)?.error?.code;
  const allowed = [{ status: e.status, code: e.code }, ...(e.alternatives ?? [])];
  if (e.any_error_code) {
    for (const [c, st] of Object.entries(OPERATOR_ERROR_STATUS)) allowed.push({ status: st, code: c });
  }
  if (!allowed.some((a) => a.status === result.status && a.code === code)) {
    problems.push(
      `answer ${result.status} ${code ?? '(no error)'}, expected ${allowed.map((a) => `${a.status} ${a.code ?? '(no error)'}`).join(' or ')}`,
    );
  }
  if (e.body !== undefined) {
    const want = resolveTemplate(e.body, done) as Record<string, unknown>;
    for (const [k, v] of Object.entries(want)) {
      const got = (result.body as Record<string, unknown>)[k];
      if (!isDeepStrictEqual(got, v))
        problems.push(`body.${k} is ${JSON.stringify(got)}, expected ${JSON.stringify(v)}`);
    }
  }
  for (const [k, instant] of Object.entries(e.instants ?? {})) {
    const got = (result.body as Record<string, unknown>)[k];
    if (
      typeof got !== 'string' ||
      !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(got) ||
      Date.parse(got) !== Date.parse(instant)
    ) {
      problems.push(`body.${k} is ${JSON.stringify(got)}, expected the instant ${instant} written with Z`);
    }
  }
  for (const check of e.checks ?? []) {
    const body = result.body as Record<string, unknown>;
    if (check === 'operator-signature') {
      if (!verifyObject(body, operatorPublicKey(c))) problems.push('operator signature does not verify');
      if (body.kid !== jwkThumbprint(operatorPublicKey(c)))
        problems.push('kid is not the thumbprint of the operator key');
    } else if (check === 'jwk-kid') {
      if (body.kid !== jwkThumbprint(operatorPublicKey(c)))
        problems.push('kid is not the RFC 7638 thumbprint of the key');
    } else if (check === 'chain-digest') {
      if (body.chain_digest !== chainDigestOfPack(body))
        problems.push('chain_digest is not d0..dN of the pack');
    } else problems.push(`unknown check ${check}`);
  }
  if (!isDeepStrictEqual(result.balances, e.balances)) {
    problems.push(`balances ${JSON.stringify(result.balances)}, expected ${JSON.stringify(e.balances)}`);
  }
  return problems;
}

/** SHA-256 hex of text (docs and the stability check). */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
