/**
 * Builds the test vectors (vectors/*.json, docs/vectors.md) from the specs of this folder and the
 * answers of the suite's own modules (lib/evaluate.ts). Each spec states its intended verdict; a
 * module that answers otherwise stops the generation with the case named, so a wrong answer never
 * becomes a vector silently. Run by `npm run vectors` (scripts/gen-vectors.mjs).
 *
 * Stability: a case ID never changes meaning. Against the vectors already written, the generator
 * refuses a case whose input changed and a case that disappeared, unless its ID is retired
 * (retired.ts); it refuses a retired ID in use.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { PNG } from 'pngjs';
import { loadCatalog } from '../../../src/catalog/index.js';
import {
  ALL_FIELDS,
  isRail,
  REQUIRED_FIELDS,
  SUB_INTERFACE_FIELD_NAMES,
  SUB_INTERFACE_NAMES,
  SUB_INTERFACE_OF_HINT,
  type SubInterface,
} from '../../../src/model/cpr.js';
import {
  evaluateChain,
  evaluateDerivation,
  evaluateDocument,
  evaluateJcs,
  evaluateOperator,
  evaluateQr,
  evaluateSignature,
  evaluateThumbprint,
  evaluateUri,
  matchesOutcome,
  renderForVector,
  type StepResult,
  stepMeets,
} from '../lib/evaluate.js';
import { describeKey } from '../lib/keys.js';
import { evaluatePayee, type PayeeStepResult, payeeStepMeets } from '../lib/payee.js';
import type {
  CaseBase,
  CryptoCase,
  DerivationCase,
  DerivationOutcome,
  DocumentCase,
  OperatorCase,
  OperatorStep,
  PayeeCase,
  QrCase,
  UriCase,
  VectorFile,
  VectorFinding,
  VectorIndex,
} from '../lib/types.js';
import { type Doc, NOW } from './bases.js';
import { chainSpecs, jcsSpecs, signatureSpecs, thumbprintSpecs } from './crypto.js';
import { CONTEXT, DEFAULT_RAILS, derivationSpecs } from './derivation.js';
import { documentSpecs, type Intent } from './documents.js';
import { NOT_EXPRESSED } from './not-expressed.js';
import { initialState, operatorSpecs } from './operator.js';
import { payeeInitial, payeeSpecs } from './payee.js';
import { qrSpecs } from './qr.js';
import { RETIRED, type RetiredCase } from './retired.js';
import { uriSpecs } from './uris.js';

/** The vector groups, in the order the docs list them. */
export const GROUPS = ['documents', 'uris', 'qr', 'crypto', 'payee', 'derivation', 'operator'] as const;
export type GroupName = (typeof GROUPS)[number];

/** Every vector key label the cases use (published in index.json). */
const KEY_LABELS = [
  'operator',
  'principal-funded',
  'principal-low',
  'bearer-0',
  'bearer-1',
  'bearer-2',
  'bearer-3',
  'intruder',
];

/** The members of a case that are its input (compared for stability); the rest is expected output. */
const EXPECTED_MEMBERS: Record<GroupName, readonly string[]> = {
  documents: ['result', 'outcomes', 'findings', 'requirements', 'comment', 'flags'],
  uris: ['result', 'outcomes', 'decoded', 'findings', 'requirements', 'comment', 'flags'],
  qr: ['result', 'modes', 'findings', 'requirements', 'comment', 'flags', 'png_base64'],
  crypto: [
    'result',
    'canonical',
    'canonical_utf8_hex',
    'signing_input',
    'digests',
    'kid',
    'requirements',
    'comment',
    'flags',
  ],
  payee: ['result', 'requirements', 'comment', 'flags', 'steps.expected'],
  derivation: ['result', 'outcomes', 'requirements', 'comment', 'flags'],
  operator: ['result', 'requirements', 'comment', 'flags', 'steps.expected'],
};

const HEADERS: Record<GroupName, { description: string; source: string[]; notes: Record<string, string> }> = {
  documents: {
    description:
      "CPR documents (parsed JSON, JSON text or bytes) judged in one reading (payee: what a payee may emit; wallet: what a paying application must accept) at the instant now. result is the verdict (invalid when a finding is an error); findings are the reference validator's (requirement, level, severity, path; messages left out). acceptable: the profile lets an implementation choose; outcomes lists the verdicts allowed.",
    source: ['CPR-1.0 sections 2, 4.3, 7, 8, 9, INV-1, INV-6, INV-7', 'profile sections 1 and 2'],
    notes: {
      PayerData:
        'a member that profile 2 lists as payer, authorization or state data, or a DerivationContext member',
      MemberNameReading:
        'profile 2: a name and every tail after ":", "/" or ".", compared case-insensitively without "_", "-", "." and white space',
      TextLevel:
        'the input is JSON text or bytes: rules that a parsed object cannot show (byte order mark, duplicate names, UTF-8)',
    },
  },
  uris: {
    description:
      'cpr:// URIs (spec 4.2, profile 2) with the codec findings and what a reader decodes (reference: token, endpoint, retrieval_url; inline: the JSON text and document). result is invalid when a finding is an error; decoded is absent when the URI cannot be read at all, and present for a URI that breaks only a rule of the payee (a token outside the profile format: an error of the payee that does not stop a reader). acceptable: a reader may accept or refuse.',
    source: ['CPR-1.0 sections 4.2, 5', 'profile section 2'],
    notes: {
      ReaderChoice: 'profile 2 fixes how a payee writes it, not whether a reader refuses another spelling',
    },
  },
  qr: {
    description:
      'QR images (profile 2: the URI as the payload, byte mode, error correction M or better). read: png_base64 is rendered at error_correction, scale and margin; payload and modes are what a decoder reads; result says whether a payee may emit it. render: a URI and an error correction level; result says whether one symbol holds it.',
    source: ['CPR-1.0 section 4.3 rule 1', 'profile section 2'],
    notes: {},
  },
  crypto: {
    description:
      'jcs: a JSON text and its RFC 8785 canonical form (invalid: no canonical form exists). signature: a cash-pack message, the public key (base64url of 32 raw bytes) and whether signature verifies as profile 4 defines it (Ed25519 over the JCS bytes of the object without signature, base64url without padding). chain: a pack seed and renewal entries with d0..dN (valid), or a chain_digest computed a wrong way (invalid). jwk-thumbprint: the RFC 7638 kid of an Operator key.',
    source: ['profile section 4 (keys, signature, chain digest)', 'RFC 8785', 'RFC 8032', 'RFC 7638'],
    notes: {
      FlippedBit: 'one bit of the signature changed',
      WrongKey: "verified with a key other than the signer's",
      ModifiedMessage: 'the message changed after signing',
      MissingMember: 'a member the profile requires is absent',
      NonCanonicalEncoding:
        'the signature bytes or their base64url are not in the one form profile 4 accepts',
      Malleability: 'S + L: accepted by a verifier that skips the S < L check of RFC 8032 5.1.7',
      NotJcsSigned: 'signed over other bytes than the JCS of the object without signature',
      NotJcsInput: 'a JSON text that has no RFC 8785 form',
    },
  },
  payee: {
    description:
      'Request sequences to a payee in a stated configuration (its clock at now, token lifetime ceiling, validity ceiling and default window). Each step: action (create: POST {harness}/requests; retrieve: GET {base_url}/cpr/{token}; fulfill: POST {harness}/fulfillments; advance_clock: POST {harness}/clock), body or token ({"$token": "<step>"} is the token of the reference URI a create step answered; {"$ref": "<step>.body.<member>"} a member of an earlier answer), and the expected status, code (or an alternative), body members and checks of a 2xx answer: cpr-valid (valid in the payee reading at the payee\'s now), reference-uri (a reference URI whose token has the profile format), inline-uri (an inline URI of a valid CPR with the request_id answered), token-lifetime<=N (token_expires_at at most N s after now), window=N (expires_at - created_at is N s). Every answer is application/json; an error body has error.code and error.message and no CPR member.',
    source: [
      'CPR-1.0 sections 4.1, 4.3 rule 5, 5, 7',
      'profile sections 1 and 2 (payee harness, test clock)',
    ],
    notes: { PayeeChoice: 'the profile lets the payee answer either way (alternatives)' },
  },
  derivation: {
    description:
      "A derive request (profile 3: cpr or uri, and the DerivationContext) judged at now by a wallet serving supported_rails; payee_answer is what the payee answers at retrieval_url for a reference URI. outcomes lists the answers allowed: an error code, or a Payment whose id is a fresh UUID, whose other members equal payment, and whose intent.conditions holds, for each member named after a sub-interface field, the value in conditions (which members it repeats is the wallet's choice). acceptable: more than one outcome is allowed.",
    source: ['CPR-1.0 sections 2.9, 2.10, 4.4, 4.5, 7', 'profile sections 1, 2, 3'],
    notes: { PayerData: 'the CPR carries payer, authorization or state data' },
  },
  operator: {
    description:
      'Request sequences to an Operator in a stated initial state (policy, principals with their keys, credentials and available balances, identity tokens, the clock at now). Each step: action, body template ({"$ref": "<step>.body.<member>"} is a member of an earlier answer; "$with" beside it replaces members), sign (the vector key that signs the message, or its member, once resolved; tamper: flip-bit, remove or set after signing), and the expected status, code (or an alternative), body members, checks (operator-signature, chain-digest) and balances after the step: available, locked (by ACTIVE and held by CANCELLED packs) and released (to redeemers).',
    source: ['Cash-Pack API 1.0 sections 1, 3, 4, 5, 7, 8', 'profile sections 1 and 4'],
    notes: {},
  },
};

interface Generated {
  files: Record<GroupName, VectorFile>;
  index: VectorIndex;
  docs: string;
}

const sorted = (ids: Iterable<string>): string[] => [...new Set(ids)].sort();

function fail(message: string): never {
  throw new Error(`gen-vectors: ${message}`);
}

/** Every case whose module answer differs from its spec's intent (reported together). */
let mismatches: string[] = [];

function mismatch(message: string): void {
  mismatches.push(message);
}

// ------------------------------------------------------------------------------------ intents

function checkIntent(
  where: string,
  intent: Intent,
  verdict: 'valid' | 'invalid',
  findings: readonly VectorFinding[],
): 'valid' | 'invalid' | 'acceptable' {
  if ('acceptable' in intent) return 'acceptable';
  if ('valid' in intent) {
    if (verdict !== 'valid')
      mismatch(`${where}: intended valid, the module says invalid: ${JSON.stringify(findings)}`);
    for (const id of intent.warn ?? []) {
      if (!findings.some((f) => f.requirement === id && f.severity === 'warning')) {
        mismatch(`${where}: intended a ${id} warning, got ${JSON.stringify(findings)}`);
      }
    }
    return 'valid';
  }
  if (verdict !== 'invalid')
    mismatch(`${where}: intended invalid, the module says valid: ${JSON.stringify(findings)}`);
  for (const id of intent.errors) {
    if (!findings.some((f) => f.requirement === id && f.severity === 'error')) {
      mismatch(`${where}: intended a ${id} error, got ${JSON.stringify(findings)}`);
    }
  }
  return 'invalid';
}

const reqsOf = (req: readonly string[], findings: readonly VectorFinding[]): string[] =>
  sorted([...req, ...findings.map((f) => f.requirement)]);

// ------------------------------------------------------------------------------------ groups

/**
 * The spec's requirement IDs that apply to a reading: a requirement of the wallet (its catalog
 * actor) is not exercised by the payee reading, nor a payee's by the wallet reading.
 */
function forReading(ids: readonly string[], reading: 'payee' | 'wallet'): string[] {
  const actor = new Map(loadCatalog().requirements.map((r) => [r.id, r.actor]));
  const other = reading === 'payee' ? 'wallet' : 'payee';
  return ids.filter((id) => actor.get(id) !== other);
}

function documentCases(): DocumentCase[] {
  const out: DocumentCase[] = [];
  for (const s of documentSpecs()) {
    for (const reading of ['payee', 'wallet'] as const) {
      const input = {
        reading,
        now: s.now ?? NOW,
        ...(s.maxValiditySeconds === undefined ? {} : { max_validity_seconds: s.maxValiditySeconds }),
        ...(s.bytes !== undefined
          ? { bytes_base64: s.bytes.toString('base64') }
          : s.text !== undefined
            ? { text: s.text }
            : { document: s.doc }),
      };
      const id = `${s.id}-${reading}`;
      const { verdict, findings } = evaluateDocument(input);
      const result = checkIntent(`documents ${id}`, s[reading], verdict, findings);
      out.push({
        id,
        comment: s.comment,
        requirements: reqsOf(forReading(s.req, reading), findings),
        ...(s.flags ? { flags: s.flags } : {}),
        ...input,
        result,
        ...(result === 'acceptable' ? { outcomes: ['valid', 'invalid'] as Array<'valid' | 'invalid'> } : {}),
        findings,
      } as DocumentCase);
    }
  }
  return out;
}

function uriCases(): UriCase[] {
  return uriSpecs().map((s) => {
    const { verdict, decoded, findings } = evaluateUri(s.uri);
    const result = checkIntent(`uris ${s.id}`, s.intent, verdict, findings);
    return {
      id: s.id,
      comment: s.comment,
      requirements: reqsOf(s.req, findings),
      ...(s.flags ? { flags: s.flags } : {}),
      uri: s.uri,
      result,
      ...(result === 'acceptable' ? { outcomes: ['valid', 'invalid'] as Array<'valid' | 'invalid'> } : {}),
      ...(decoded ? { decoded } : {}),
      findings,
    };
  });
}

async function qrCases(): Promise<QrCase[]> {
  const out: QrCase[] = [];
  for (const s of qrSpecs()) {
    const base: QrCase = {
      id: s.id,
      comment: s.comment,
      requirements: sorted([...s.req, ...(s.breaks ? [s.breaks] : [])]),
      ...(s.flags ? { flags: s.flags } : {}),
      kind: s.kind,
      error_correction: s.ec,
      ...(s.scale === undefined ? {} : { scale: s.scale }),
      ...(s.margin === undefined ? {} : { margin: s.margin }),
      result: s.conforms ? 'valid' : 'invalid',
      findings: [],
    };
    if (s.blank !== undefined) {
      const img = new PNG({ width: s.blank, height: s.blank });
      img.data.fill(255);
      base.png_base64 = PNG.sync.write(img).toString('base64');
      const r = await evaluateQr(base);
      if (r.verdict !== 'invalid' || r.payload !== undefined)
        mismatch(`qr ${s.id}: the reader read a blank image`);
      base.findings = r.findings;
      base.requirements = reqsOf(base.requirements, r.findings);
      out.push(base);
      continue;
    }
    if (s.kind === 'read') {
      const png = await renderForVector(s.payload, s.ec, s.scale as number, s.margin as number, s.segments);
      base.png_base64 = png.toString('base64');
    }
    base.payload = s.payload;
    const r = await evaluateQr(base);
    if (s.kind === 'read') {
      if (r.payload !== s.payload) mismatch(`qr ${s.id}: the reader reads ${JSON.stringify(r.payload)}`);
      base.modes = r.modes as string[];
      const allByte = base.modes.every((m) => m === 'byte');
      if (s.conforms !== (allByte && s.ec !== 'L'))
        mismatch(`qr ${s.id}: conforms ${s.conforms}, modes ${base.modes}`);
    } else if ((r.verdict === 'valid') !== s.conforms) {
      mismatch(`qr ${s.id}: intended ${s.conforms ? 'to fit' : 'to overflow'}, the codec says ${r.verdict}`);
    }
    base.findings = r.findings;
    base.requirements = reqsOf(base.requirements, r.findings);
    out.push(base);
  }
  return out;
}

function cryptoCases(): CryptoCase[] {
  const out: CryptoCase[] = [];
  for (const s of jcsSpecs()) {
    const { req, valid, ...rest } = s;
    const r = evaluateJcs({ ...rest, requirements: [], result: 'valid' });
    if ((r.canonical !== undefined) !== valid)
      mismatch(`crypto ${s.id}: intended ${valid ? 'a' : 'no'} canonical form`);
    out.push({ ...rest, requirements: sorted(req), result: valid ? 'valid' : 'invalid', ...r });
  }
  for (const s of signatureSpecs()) {
    const { req, valid, ...rest } = s;
    const r = evaluateSignature({ ...rest, requirements: [], result: 'valid' });
    if ((r.verdict === 'valid') !== valid)
      mismatch(`crypto ${s.id}: intended ${valid ? 'valid' : 'invalid'}, the module says ${r.verdict}`);
    out.push({ ...rest, requirements: sorted(req), result: r.verdict, signing_input: r.signing_input });
  }
  for (const s of chainSpecs()) {
    const { req, valid, ...rest } = s;
    const digests = evaluateChain({ ...rest, requirements: [], result: 'valid' });
    if (valid && !isDeepStrictEqual(digests, s.digests)) mismatch(`crypto ${s.id}: digests differ`);
    if (!valid && digests[digests.length - 1] === s.chain_digest)
      mismatch(`crypto ${s.id}: the wrong digest is right`);
    out.push({ ...rest, requirements: sorted(req), result: valid ? 'valid' : 'invalid' });
  }
  for (const s of thumbprintSpecs()) {
    const { req, valid: _v, ...rest } = s;
    if (evaluateThumbprint({ ...rest, requirements: [], result: 'valid' }) !== s.kid)
      mismatch(`crypto ${s.id}: kid differs`);
    out.push({ ...rest, requirements: sorted(req), result: 'valid' });
  }
  return out;
}

/** The sub-interface a valid CPR applies (profile 2), from the model's tables. */
function subInterfaceOf(doc: Doc): SubInterface {
  const hint = doc.rail_hint;
  if (isRail(hint)) return SUB_INTERFACE_OF_HINT[hint];
  const complete = SUB_INTERFACE_NAMES.filter(
    (s) => s !== 'onchain' && REQUIRED_FIELDS[s].every((f) => doc[f] !== undefined),
  );
  if (complete.length !== 1) fail(`no single sub-interface in ${JSON.stringify(doc).slice(0, 80)}`);
  return complete[0] as SubInterface;
}

/** The Payment spec 2.10 and profile 3 give for a CPR and a context (the generator's own mapping). */
function expectedPayment(
  doc: Doc,
  context: Record<string, unknown>,
  amountAsNumber = false,
): DerivationOutcome {
  const sub = subInterfaceOf(doc);
  const fields: Record<string, unknown> = {};
  for (const f of ALL_FIELDS[sub]) if (doc[f] !== undefined && f !== 'rail_hint') fields[f] = doc[f];
  const conditions: Record<string, unknown> = { ...fields };
  if (sub === 'onchain' && conditions.acquirer_id === undefined)
    conditions.acquirer_id = '00000000-0000-0000-0000-000000000000';
  const value = doc.value as Doc;
  const given = value.amount ?? context.payer_amount;
  const amount = typeof given === 'number' && !amountAsNumber ? given.toFixed(0) : given;
  return {
    payment: JSON.parse(
      JSON.stringify({
        payer: context.payer,
        payee: { ...(doc.payee as Doc), ...fields },
        value: { amount, asset: value.asset },
        intent: { reference: typeof doc.memo === 'string' ? doc.memo : doc.request_id },
        authorization: context.authorization,
        state: 'CREATED',
        context: { rail: context.rail, request_id: doc.request_id },
      }),
    ),
    conditions,
  };
}

async function derivationCases(): Promise<DerivationCase[]> {
  const out: DerivationCase[] = [];
  for (const s of derivationSpecs()) {
    const context = {
      ...(s.context ?? CONTEXT),
      ...(s.payer_amount === undefined ? {} : { payer_amount: s.payer_amount }),
    };
    const input = {
      ...(s.cpr === undefined ? {} : { cpr: s.cpr }),
      ...(s.uri === undefined ? {} : { uri: s.uri }),
      context,
    };
    const c = {
      now: s.now ?? NOW,
      supported_rails: s.supported ?? DEFAULT_RAILS,
      input,
      ...(s.payee_answer ? { payee_answer: s.payee_answer } : {}),
    };
    const actual = await evaluateDerivation(c);
    // the document the wallet derives from: the cpr, the inline uri's, or the payee's answer
    const doc = (s.payee_answer?.body ??
      (typeof s.uri === 'string' && s.uri.startsWith('cpr://inline/')
        ? JSON.parse(Buffer.from(s.uri.slice(13), 'base64url').toString('utf8'))
        : s.cpr)) as Doc;
    const kinds =
      'payment' in s.intent ? ['payment'] : 'error' in s.intent ? [s.intent.error] : s.intent.either;
    const outcomes: DerivationOutcome[] = [];
    for (const k of kinds) {
      if (k === 'payment') {
        outcomes.push(expectedPayment(doc, context));
        if (s.id === 'amount-json-number-safe') outcomes.push(expectedPayment(doc, context, true));
      } else outcomes.push({ error: k });
    }
    if (!outcomes.some((o) => matchesOutcome(actual, o, SUB_INTERFACE_FIELD_NAMES))) {
      mismatch(
        `derivation ${s.id}: the reference wallet answers ${JSON.stringify(actual).slice(0, 600)}; intended ${JSON.stringify(outcomes).slice(0, 600)}`,
      );
    }
    out.push({
      id: s.id,
      comment: s.comment,
      requirements: sorted([
        ...s.req,
        'PRF-3-DERIVE-HARNESS',
        ...(outcomes.some((o) => 'error' in o && o.error !== 'INVALID_REQUEST')
          ? ['PRF-3-DERIVE-ERROR-CODES']
          : []),
      ]),
      ...(s.flags ? { flags: s.flags } : {}),
      ...c,
      result:
        outcomes.length > 1
          ? 'acceptable'
          : 'error' in (outcomes[0] as DerivationOutcome)
            ? 'invalid'
            : 'valid',
      outcomes,
    });
  }
  return out;
}

async function payeeCases(): Promise<PayeeCase[]> {
  const out: PayeeCase[] = [];
  for (const s of payeeSpecs()) {
    const c: PayeeCase = {
      id: s.id,
      comment: s.comment,
      requirements: sorted(s.req),
      ...(s.flags ? { flags: s.flags } : {}),
      result: 'valid',
      initial: payeeInitial(s.initial),
      steps: s.steps,
    };
    const results = await evaluatePayee(c);
    const done: Record<string, PayeeStepResult> = {};
    c.steps.forEach((step, i) => {
      const r = results[i] as PayeeStepResult;
      done[step.step] = r;
      const problems = payeeStepMeets(step, r, done);
      if (problems.length > 0) mismatch(`payee ${s.id} step ${step.step}: ${problems.join('; ')}`);
    });
    out.push(c);
  }
  return out;
}

async function operatorCases(): Promise<OperatorCase[]> {
  const out: OperatorCase[] = [];
  for (const s of operatorSpecs()) {
    const draft: OperatorCase = {
      id: s.id,
      comment: s.comment,
      requirements: sorted(s.req),
      ...(s.flags ? { flags: s.flags } : {}),
      result: 'valid',
      initial: initialState(),
      steps: s.steps.map(
        ({ expect, ...step }) =>
          ({ ...step, expected: { ...expect, balances: expect.balances ?? {} } }) as OperatorStep,
      ),
    };
    const results = await evaluateOperator(draft);
    const done: Record<string, StepResult> = {};
    draft.steps.forEach((step, i) => {
      const r = results[i] as StepResult;
      const given = (s.steps[i] as (typeof s.steps)[number]).expect.balances;
      if (given === undefined) step.expected.balances = r.balances;
      done[step.step] = r;
      const problems = stepMeets(draft, step, r, done);
      if (problems.length > 0) mismatch(`operator ${s.id} step ${step.step}: ${problems.join('; ')}`);
    });
    out.push(draft);
  }
  return out;
}

// ------------------------------------------------------------------------------------ stability

function inputOf(group: GroupName, c: Record<string, unknown>): unknown {
  const copy: Record<string, unknown> = structuredClone(c);
  for (const m of EXPECTED_MEMBERS[group]) {
    if (m === 'steps.expected') {
      for (const st of (copy.steps as Array<Record<string, unknown>>) ?? []) delete st.expected;
    } else delete copy[m];
  }
  return copy;
}

/**
 * Refuses an ID used twice, a retired ID in use, and (against the previous file) a case whose
 * input changed or that disappeared without being retired.
 */
export function checkStability(
  group: GroupName,
  previous: VectorFile | undefined,
  next: CaseBase[],
  retiredCases: readonly RetiredCase[] = RETIRED,
): void {
  const retired = new Set(retiredCases.filter((r) => r.group === group).map((r) => r.id));
  const ids = new Set<string>();
  for (const c of next) {
    if (ids.has(c.id)) fail(`${group}: case ID ${c.id} is used twice`);
    ids.add(c.id);
    if (retired.has(c.id))
      fail(`${group}: case ID ${c.id} is retired (build/retired.ts); give the case a new ID`);
  }
  if (!previous) return;
  const byId = new Map(next.map((c) => [c.id, c]));
  for (const old of previous.cases) {
    if (retired.has(old.id)) continue;
    const now = byId.get(old.id);
    if (!now) fail(`${group}: case ${old.id} disappeared; retire it in build/retired.ts (with why) instead`);
    const a = inputOf(group, old as unknown as Record<string, unknown>);
    const b = inputOf(group, now as unknown as Record<string, unknown>);
    if (!isDeepStrictEqual(a, b)) {
      fail(
        `${group}: the input of case ${old.id} changed; a case never changes meaning: retire ${old.id} in build/retired.ts and add the new case under a new ID`,
      );
    }
  }
}

// ------------------------------------------------------------------------------------ all

function fileOf<C extends CaseBase>(group: GroupName, version: string, cases: C[]): VectorFile<C> {
  const h = HEADERS[group];
  return {
    group,
    schema: `schemas/vectors/${group}.schema.json`,
    suite_version: version,
    description: h.description,
    source: h.source,
    requirements: sorted(cases.flatMap((c) => c.requirements)),
    notes: h.notes,
    number_of_cases: cases.length,
    cases,
  };
}

/** Reads the vectors already written in `root` (absent: none). */
function previousFile(root: string, group: GroupName): VectorFile | undefined {
  try {
    return JSON.parse(readFileSync(join(root, 'vectors', `${group}.json`), 'utf8')) as VectorFile;
  } catch {
    return undefined;
  }
}

/**
 * Builds every vector file, the index and docs/vectors.md for the package in `root`. Throws
 * naming the case when a module's answer differs from a spec's intent, or when stability or
 * requirement coverage is broken.
 */
export async function generate(root: string): Promise<Generated> {
  mismatches = [];
  const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string })
    .version;
  const cases: Record<GroupName, CaseBase[]> = {
    documents: documentCases(),
    uris: uriCases(),
    qr: await qrCases(),
    crypto: cryptoCases(),
    payee: await payeeCases(),
    derivation: await derivationCases(),
    operator: await operatorCases(),
  };
  if (mismatches.length > 0)
    fail(`${mismatches.length} case(s) differ from their intent:\n  ${mismatches.join('\n  ')}`);
  const files = {} as Record<GroupName, VectorFile>;
  for (const g of GROUPS) {
    checkStability(g, previousFile(root, g), cases[g]);
    files[g] = fileOf(g, version, cases[g]);
  }
  const catalog = loadCatalog().requirements.map((r) => r.id);
  const covered = new Set(GROUPS.flatMap((g) => files[g].requirements));
  for (const id of covered)
    if (!catalog.includes(id)) fail(`requirement ${id} of a vector is not in the catalog`);
  const missing = catalog.filter((id) => !covered.has(id) && !(id in NOT_EXPRESSED));
  if (missing.length > 0) fail(`no vector and no reason (build/not-expressed.ts) for: ${missing.join(', ')}`);
  const stale = Object.keys(NOT_EXPRESSED).filter((id) => covered.has(id) || !catalog.includes(id));
  if (stale.length > 0)
    fail(
      `build/not-expressed.ts lists requirements that have vectors or are not in the catalog: ${stale.join(', ')}`,
    );
  const index: VectorIndex = {
    suite_version: version,
    description:
      'Test vectors of cpr-conformance: one file per group, each valid against schemas/vectors/<group>.schema.json. Case IDs are stable; retired IDs are never reused. docs/vectors.md says how to consume them.',
    groups: GROUPS.map((g) => ({
      group: g,
      file: `vectors/${g}.json`,
      schema: `schemas/vectors/${g}.schema.json`,
      number_of_cases: files[g].number_of_cases,
    })),
    keys: KEY_LABELS.map((l) => describeKey(l) as unknown as VectorIndex['keys'][number]),
    retired: RETIRED.map((r) => ({ ...r })),
    not_expressed: Object.entries(NOT_EXPRESSED)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([requirement, reason]) => ({ requirement, reason })),
  };
  return { files, index, docs: docsOf(files, index, catalog) };
}

function docsOf(
  files: Record<GroupName, VectorFile>,
  index: VectorIndex,
  catalog: readonly string[],
): string {
  const lines: string[] = [];
  const total = GROUPS.reduce((n, g) => n + files[g].number_of_cases, 0);
  lines.push(
    '# Test vectors',
    '',
    '<!-- generated by `npm run vectors` (test/vectors/build/generate.ts); do not edit by hand -->',
    '',
    `The suite's knowledge as data: ${total} cases in ${GROUPS.length} groups under \`vectors/\` (in the`,
    'repository and in the npm package), each file valid against its schema in `schemas/vectors/`. The',
    'README section "Test vectors" says how to run them in any language; `cprc vectors --out DIR` writes',
    'them out. Every case is proved against the validator, the codec, the crypto module and the',
    'reference implementations by `test/vectors/vectors.test.ts`; `examples/vectors-python/` checks the',
    'crypto, chain-digest and URI vectors with the Python standard library alone.',
    '',
    '## Reading a file',
    '',
    'Every file has a header (`group`, `schema`, `suite_version`, `description`, `source`: the spec and',
    'profile sections, `requirements`: every ID its cases exercise, `notes`: the meaning of each flag)',
    'and `cases`. Every case has a stable `id`, a `comment`, the `requirements` it exercises, optional',
    '`flags`, its input members and `result`: `valid`, `invalid`, or `acceptable` where the profile lets',
    'an implementation choose (the allowed answers are listed in `outcomes`, or as `alternatives` of an',
    'operator or payee step). `vectors/index.json` lists the groups, the published test keys (seed,',
    'public key, JWK), the retired case IDs and the requirements no vector expresses.',
    '',
    ...GROUPS.flatMap((g) => [`- **${g}**: ${files[g].description}`]),
    '',
    '## Cases per group',
    '',
    '| group | cases | valid | invalid | acceptable | requirements |',
    '|---|---:|---:|---:|---:|---:|',
  );
  for (const g of GROUPS) {
    const cs = files[g].cases;
    const n = (r: string) => cs.filter((c) => c.result === r).length;
    lines.push(
      `| ${g} | ${cs.length} | ${n('valid')} | ${n('invalid')} | ${n('acceptable')} | ${files[g].requirements.length} |`,
    );
  }
  lines.push(
    '',
    '## Cases per requirement',
    '',
    `| requirement | ${GROUPS.join(' | ')} |`,
    `|---|${GROUPS.map(() => '---:').join('|')}|`,
  );
  const covered = sorted(GROUPS.flatMap((g) => files[g].requirements));
  for (const id of catalog.filter((i) => covered.includes(i))) {
    const counts = GROUPS.map((g) => {
      const n = files[g].cases.filter((c) => c.requirements.includes(id)).length;
      return n === 0 ? '' : String(n);
    });
    lines.push(`| ${id} | ${counts.join(' | ')} |`);
  }
  lines.push(
    '',
    '## Requirements no vector expresses',
    '',
    `${index.not_expressed.length} of the catalog's ${catalog.length} requirements have no vector. A vector is an input (a document, a URI,`,
    'bytes, or a sequence of requests from a stated state) and the answer it must get; these are about the',
    'transport (TLS, HTTP routes, stdio framing), uniqueness over everything a system ever issues, or what',
    'no interface shows (the catalog marks them untestable). The suites check the rest against a live target.',
    '',
    '| requirement | why no vector |',
    '|---|---|',
    ...index.not_expressed.map((n) => `| ${n.requirement} | ${n.reason} |`),
    '',
    '## Retired cases',
    '',
    index.retired.length === 0
      ? 'None yet. A case that turns out wrong is retired (listed in `vectors/index.json` with why) and its ID never reused.'
      : index.retired
          .map(
            (r) =>
              `- ${r.group} ${r.id}: ${r.reason}${r.replaced_by ? ` (replaced by ${r.replaced_by})` : ''}`,
          )
          .join('\n'),
    '',
  );
  return lines.join('\n');
}
