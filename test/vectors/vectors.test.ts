// The proof of the test vectors (issue 28): every vector file is valid against its schema, every
// case is true of the suite's own modules (validator, codec, crypto, reference payee, wallet and
// Operator), the committed files are what the generator makes now (so a change that alters a
// verdict shows as a changed vector in review), every requirement of the catalog has a vector or
// a stated reason why none can express it, every rule has cases on both sides of its boundary,
// and a case ID never changes meaning.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/index.js';
import { CODEC_REQUIREMENTS, QR_REQUIREMENTS } from '../../src/codec/index.js';
import { SUB_INTERFACE_FIELD_NAMES } from '../../src/model/cpr.js';
import { OPERATOR_ERROR_STATUS } from '../../src/reference/operator/errors.js';
import { getSchemaValidator } from '../../src/schemas/registry.js';
import { documentRequirementIds, JSON_TEXT_REQUIREMENTS } from '../../src/validator/index.js';
import { checkStability, GROUPS, type GroupName, generate } from './build/generate.js';
import { RETIRED } from './build/retired.js';
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
  qrModulesMatch,
  type StepResult,
  stepMeets,
} from './lib/evaluate.js';
import { keyFromSeed } from './lib/keys.js';
import { evaluatePayee, type PayeeStepResult, payeeStepMeets } from './lib/payee.js';
import type {
  CaseBase,
  CryptoCase,
  DerivationCase,
  DocumentCase,
  OperatorCase,
  PayeeCase,
  QrCase,
  UriCase,
  VectorFile,
  VectorIndex,
} from './lib/types.js';

const ROOT = join(import.meta.dirname, '..', '..');
const read = <T>(rel: string): T => JSON.parse(readFileSync(join(ROOT, rel), 'utf8')) as T;
const file = <C = { id: string; requirements: string[] }>(g: GroupName) =>
  read<Omit<VectorFile, 'cases'> & { cases: C[] }>(`vectors/${g}.json`);
const index = read<VectorIndex>('vectors/index.json');

describe('vector files', () => {
  it.each([...GROUPS, 'index'])('vectors/%s.json is valid against its schema in schemas/vectors/', (g) => {
    const validate = getSchemaValidator(`vectors/${g}`);
    const ok = validate(read(`vectors/${g}.json`));
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it('the schemas refuse a case without a result (they can fail)', () => {
    const validate = getSchemaValidator('vectors/uris');
    const broken = structuredClone(file<UriCase>('uris'));
    delete (broken.cases[0] as Partial<UriCase>).result;
    expect(validate(broken)).toBe(false);
  });

  it('index.json lists every group with its count, and each key is the one its seed makes', () => {
    expect(index.groups.map((g) => g.group)).toEqual([...GROUPS]);
    for (const g of index.groups) expect(g.number_of_cases).toBe(file(g.group as GroupName).cases.length);
    for (const k of index.keys) {
      const pair = keyFromSeed(Buffer.from(k.seed_hex, 'hex'));
      expect(pair.publicKey, k.label).toBe(k.public_key);
      expect(pair.privateJwk, k.label).toEqual(k.private_jwk);
    }
  });

  it('every key a vector names is published in index.json (labels and public keys)', () => {
    const labels = new Set(index.keys.map((k) => k.label));
    const publicKeys = new Set(index.keys.map((k) => k.public_key));
    const used = new Set<string>();
    for (const c of file<OperatorCase>('operator').cases) {
      used.add(c.initial.operator_key);
      for (const p of c.initial.principals) used.add(p.key);
      for (const st of c.steps) if (st.sign) used.add(st.sign.key);
    }
    expect([...used].filter((l) => !labels.has(l))).toEqual([]);
    const cryptoKeys = file<CryptoCase>('crypto').cases.flatMap((c) =>
      'public_key' in c ? [c.public_key] : [],
    );
    expect(cryptoKeys.length).toBeGreaterThan(50);
    expect(cryptoKeys.filter((k) => !publicKeys.has(k))).toEqual([]);
  });

  it('case IDs are unique in their group and no retired ID is in use', () => {
    for (const g of GROUPS) {
      const ids = file<{ id: string }>(g).cases.map((c) => c.id);
      expect(new Set(ids).size, g).toBe(ids.length);
      const retired = index.retired.filter((r) => r.group === g).map((r) => r.id);
      expect(
        ids.filter((id) => retired.includes(id)),
        g,
      ).toEqual([]);
    }
  });
});

describe('every requirement has a vector or a reason', () => {
  const catalog = loadCatalog().requirements.map((r) => r.id);
  const covered = new Set(GROUPS.flatMap((g) => file(g).requirements));
  const reasons = new Map(index.not_expressed.map((n) => [n.requirement, n.reason]));

  it('each requirement of the catalog is exercised by a vector or listed in not_expressed with why', () => {
    expect(catalog.filter((id) => !covered.has(id) && !reasons.has(id))).toEqual([]);
  });
  it('not_expressed names only catalog requirements that have no vector', () => {
    expect([...reasons.keys()].filter((id) => covered.has(id) || !catalog.includes(id))).toEqual([]);
    for (const [id, why] of reasons) expect(why.length, id).toBeGreaterThan(20);
  });
  it("every requirement a vector names is in the catalog, and each file header lists its cases' requirements", () => {
    expect([...covered].filter((id) => !catalog.includes(id))).toEqual([]);
    for (const g of GROUPS) {
      const f = file<{ requirements: string[] }>(g);
      expect(f.requirements, g).toEqual([...new Set(f.cases.flatMap((c) => c.requirements))].sort());
    }
  });
});

/**
 * Requirement IDs a module can report that no input is known to make it report: the validator's
 * fallback finding for a schema failure no rule explains (a safety net, see validate-cpr.ts).
 */
const NEVER_REPORTED = new Set(['PRF-2-SUB-INTERFACE-SELECTION']);

/** The IDs of `ids` without a case reporting them, and without a valid case exercising them unreported. */
function oneSided(
  ids: readonly string[],
  cases: ReadonlyArray<{ result: string; requirements: string[]; findings: Array<{ requirement: string }> }>,
): { neverReported: string[]; noValidSide: string[] } {
  const reported = (id: string) => cases.some((c) => c.findings.some((f) => f.requirement === id));
  const validSide = (id: string) =>
    cases.some(
      (c) =>
        c.result === 'valid' && c.requirements.includes(id) && !c.findings.some((f) => f.requirement === id),
    );
  return {
    neverReported: ids.filter((id) => !NEVER_REPORTED.has(id) && !reported(id)),
    noValidSide: ids.filter((id) => !validSide(id)),
  };
}

describe('every rule has cases on both sides of its boundary', () => {
  it('each requirement the validator can report: a document case reports it, and a valid one holds to it', () => {
    const ids = [...new Set([...documentRequirementIds(), ...JSON_TEXT_REQUIREMENTS])];
    expect(oneSided(ids, file<DocumentCase>('documents').cases)).toEqual({
      neverReported: [],
      noValidSide: [],
    });
  });
  it('each requirement the URI codec can report: a URI case reports it, and a valid one holds to it', () => {
    expect(oneSided(Object.values(CODEC_REQUIREMENTS), file<UriCase>('uris').cases)).toEqual({
      neverReported: [],
      noValidSide: [],
    });
  });
  it('each QR requirement: a QR case breaks it, and a valid one holds to it', () => {
    const cases = file<QrCase>('qr').cases;
    for (const id of Object.values(QR_REQUIREMENTS)) {
      expect(
        cases.some((c) => c.result === 'invalid' && c.requirements.includes(id)),
        id,
      ).toBe(true);
      expect(
        cases.some((c) => c.result === 'valid' && c.requirements.includes(id)),
        id,
      ).toBe(true);
    }
  });
  it('the two-sided check finds a requirement with one side only (it can fail)', () => {
    const cases = [{ result: 'invalid', requirements: ['A'], findings: [{ requirement: 'A' }] }];
    expect(oneSided(['A', 'B'], cases)).toEqual({ neverReported: ['B'], noValidSide: ['A', 'B'] });
  });
});

describe('every error code and status transition has a sequence', () => {
  const codesOf = (steps: Array<{ expected: { code?: string; alternatives?: Array<{ code?: string }> } }>) =>
    new Set(
      steps.flatMap((st) => [st.expected.code, ...(st.expected.alternatives ?? []).map((a) => a.code)]),
    );

  it('each Operator error code (profile 1 table) is the expected answer of some operator step', () => {
    const codes = codesOf(file<OperatorCase>('operator').cases.flatMap((c) => c.steps));
    expect(Object.keys(OPERATOR_ERROR_STATUS).filter((code) => !codes.has(code))).toEqual([]);
  });
  it('each pack status is reached: renewed ACTIVE, REDEEMED, EXPIRED (by the harness and by time), CANCELLED', () => {
    const steps = file<OperatorCase>('operator').cases.flatMap((c) => c.steps);
    const reached = (action: string, status: string) =>
      steps.some((st) => (action === '' || st.action === action) && st.expected.body?.status === status);
    expect(reached('renew', 'ACTIVE')).toBe(true);
    expect(reached('redeem', 'REDEEMED')).toBe(true);
    expect(reached('expire', 'EXPIRED')).toBe(true);
    expect(reached('cancel', 'CANCELLED')).toBe(true);
    expect(
      file<OperatorCase>('operator').cases.some(
        (c) =>
          c.steps.some((st) => st.action === 'advance_clock') &&
          c.steps.some((st) => st.expected.body?.status === 'EXPIRED'),
      ),
    ).toBe(true);
  });
  it('each payee error code of profile 1-2 is the expected answer of some payee step', () => {
    const codes = codesOf(file<PayeeCase>('payee').cases.flatMap((c) => c.steps));
    const payeeCodes = [
      'TOKEN_CONSUMED',
      'TOKEN_EXPIRED',
      'TOKEN_UNKNOWN',
      'DUPLICATE_ID',
      'REQUEST_EXPIRED',
      'REQUEST_UNKNOWN',
      'INVALID_REQUEST',
    ];
    expect(payeeCodes.filter((code) => !codes.has(code))).toEqual([]);
  });
  it('each derivation error code (harness/derive-error schema) is an outcome of some derivation case', () => {
    const schema = read<{ properties: { error: { properties: { code: { enum: string[] } } } } }>(
      'schemas/harness/derive-error.schema.json',
    );
    const outcomes = new Set(
      file<DerivationCase>('derivation').cases.flatMap((c) =>
        c.outcomes.map((o) => ('error' in o ? o.error : 'payment')),
      ),
    );
    expect(schema.properties.error.properties.code.enum.filter((code) => !outcomes.has(code))).toEqual([]);
  });
});

describe('documents vectors hold for the validator', () => {
  const { cases } = file<DocumentCase>('documents');
  it.each(cases.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    const r = evaluateDocument(c);
    expect(r.findings).toEqual(c.findings);
    if (c.result === 'acceptable') expect(c.outcomes).toContain(r.verdict);
    else expect(r.verdict).toBe(c.result);
  });
});

describe('uris vectors hold for the codec', () => {
  const { cases } = file<UriCase>('uris');
  it.each(cases.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    const r = evaluateUri(c.uri);
    expect(r.findings).toEqual(c.findings);
    expect(r.decoded).toEqual(c.decoded);
    if (c.result === 'acceptable') expect(c.outcomes).toContain(r.verdict);
    else expect(r.verdict).toBe(c.result);
  });
});

describe('qr vectors hold for the codec', () => {
  const { cases } = file<QrCase>('qr');
  it.each(cases.map((c) => [c.id, c] as const))('%s', async (_id, c) => {
    const r = await evaluateQr(c);
    expect(r.findings).toEqual(c.findings);
    if (c.kind === 'render') {
      expect(r.verdict).toBe(c.result);
      return;
    }
    if (c.payload === undefined) {
      // an image without a QR code: nothing read
      expect(r.verdict).toBe('invalid');
      expect(c.result).toBe('invalid');
      return;
    }
    expect(r.payload).toBe(c.payload);
    expect(r.modes).toEqual(c.modes);
    // the image shows, module for module, the symbol at the stated error correction (one byte segment)
    if (c.modes?.length === 1 && c.modes[0] === 'byte') {
      expect(
        qrModulesMatch(
          c.png_base64 as string,
          c.payload,
          c.error_correction,
          c.scale as number,
          c.margin as number,
        ),
      ).toBe(true);
      const other = c.error_correction === 'H' ? 'M' : 'H';
      expect(
        qrModulesMatch(c.png_base64 as string, c.payload, other, c.scale as number, c.margin as number),
      ).toBe(false);
    }
    const conforms = (c.modes ?? []).every((m) => m === 'byte') && c.error_correction !== 'L';
    expect(conforms ? 'valid' : 'invalid').toBe(c.result);
  });
});

describe('crypto vectors hold for the crypto module', () => {
  const { cases } = file<CryptoCase>('crypto');
  it.each(cases.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    if (c.kind === 'jcs') {
      const r = evaluateJcs(c);
      if (c.result === 'valid') {
        expect(r.canonical).toBe(c.canonical);
        expect(Buffer.from(c.canonical as string, 'utf8').toString('hex')).toBe(c.canonical_utf8_hex);
      } else expect(r.canonical).toBeUndefined();
    } else if (c.kind === 'signature') {
      const r = evaluateSignature(c);
      expect(r.verdict).toBe(c.result);
      expect(r.signing_input).toBe(c.signing_input);
    } else if (c.kind === 'chain') {
      const digests = evaluateChain(c);
      if (c.result === 'valid') expect(digests).toEqual(c.digests);
      else expect(digests[digests.length - 1]).not.toBe(c.chain_digest);
    } else {
      expect(evaluateThumbprint(c)).toBe(c.kid);
    }
  });
});

describe('payee vectors hold for the reference payee', () => {
  const { cases } = file<PayeeCase>('payee');
  it.each(cases.map((c) => [c.id, c] as const))('%s', async (_id, c) => {
    const results = await evaluatePayee(c);
    const done: Record<string, PayeeStepResult> = {};
    const problems: string[] = [];
    c.steps.forEach((step, i) => {
      const r = results[i] as PayeeStepResult;
      done[step.step] = r;
      for (const p of payeeStepMeets(step, r, done)) problems.push(`${step.step}: ${p}`);
    });
    expect(problems).toEqual([]);
  });

  it('a second retrieval expected to serve the CPR is reported (the judge can fail)', async () => {
    const c = structuredClone(cases.find((x) => x.id === 'token-single-use') as PayeeCase);
    const results = await evaluatePayee(c);
    const second = c.steps[2] as PayeeCase['steps'][number];
    second.expected = { status: 200, checks: ['cpr-valid'] };
    const done = { create: results[0] as PayeeStepResult, first: results[1] as PayeeStepResult };
    expect(payeeStepMeets(second, results[2] as PayeeStepResult, done).join()).toMatch(
      /answer 410 TOKEN_CONSUMED, expected 200/,
    );
  });
});

describe('derivation vectors hold for the reference wallet', () => {
  const { cases } = file<DerivationCase>('derivation');
  it.each(cases.map((c) => [c.id, c] as const))('%s', async (_id, c) => {
    const actual = await evaluateDerivation(c);
    const matching = c.outcomes.filter((o) => matchesOutcome(actual, o, SUB_INTERFACE_FIELD_NAMES));
    expect(matching.length, JSON.stringify(actual).slice(0, 400)).toBeGreaterThan(0);
    expect(c.result).toBe(
      c.outcomes.length > 1 ? 'acceptable' : 'error' in (c.outcomes[0] ?? {}) ? 'invalid' : 'valid',
    );
  });

  it('the outcome matcher refuses a Payment that differs (it can fail)', async () => {
    const c = cases.find((x) => x.id === 'rail-sepa-ct') as DerivationCase;
    const actual = (await evaluateDerivation(c)) as { payment: Record<string, unknown> };
    const outcome = c.outcomes[0] as {
      payment: Record<string, unknown>;
      conditions: Record<string, unknown>;
    };
    const wrongAmount = structuredClone(actual);
    (wrongAmount.payment.value as Record<string, unknown>).amount = '2501';
    expect(matchesOutcome(wrongAmount, outcome, SUB_INTERFACE_FIELD_NAMES)).toBe(false);
    const wrongCondition = structuredClone(actual);
    ((wrongCondition.payment.intent as Record<string, unknown>).conditions as Record<string, unknown>).iban =
      'X';
    expect(matchesOutcome(wrongCondition, outcome, SUB_INTERFACE_FIELD_NAMES)).toBe(false);
    const badId = structuredClone(actual);
    badId.payment.id = 'not-a-uuid';
    expect(matchesOutcome(badId, outcome, SUB_INTERFACE_FIELD_NAMES)).toBe(false);
    expect(matchesOutcome(actual, outcome, SUB_INTERFACE_FIELD_NAMES)).toBe(true);
  });
});

describe('operator vectors hold for the reference Operator', () => {
  const { cases } = file<OperatorCase>('operator');
  it.each(cases.map((c) => [c.id, c] as const))('%s', async (_id, c) => {
    const results = await evaluateOperator(c);
    const done: Record<string, StepResult> = {};
    const problems: string[] = [];
    c.steps.forEach((step, i) => {
      const r = results[i] as StepResult;
      done[step.step] = r;
      for (const p of stepMeets(c, step, r, done)) problems.push(`${step.step}: ${p}`);
    });
    expect(problems).toEqual([]);
  });

  it('a step whose balances differ is reported (the comparison can fail)', async () => {
    const c = structuredClone(cases.find((x) => x.id === 'issue-and-status') as OperatorCase);
    const results = await evaluateOperator(c);
    const step = c.steps[0] as OperatorCase['steps'][number];
    (step.expected.balances['principal-funded'] as { available: string }).available = '1';
    expect(
      stepMeets(c, step, results[0] as StepResult, { [step.step]: results[0] as StepResult }).join(),
    ).toMatch(/balances/);
  });
});

describe('the committed vectors are what the generator makes now', () => {
  let generated: Awaited<ReturnType<typeof generate>>;
  beforeAll(async () => {
    generated = await generate(ROOT);
  });
  /**
   * A file without what may differ between equal generations: the suite version, and the PNG
   * bytes of the QR images (zlib's output may change with Node's zlib; the proof above checks
   * each image module by module instead).
   */
  const comparable = (f: VectorFile): unknown => {
    const { suite_version: _v, ...rest } = structuredClone(f);
    for (const c of rest.cases as Array<{ png_base64?: string }>) delete c.png_base64;
    return rest;
  };
  it.each([...GROUPS])('vectors/%s.json', (g) => {
    const committed = read<VectorFile>(`vectors/${g}.json`);
    expect(
      isDeepStrictEqual(comparable(generated.files[g]), comparable(committed)),
      `vectors/${g}.json is stale: run "npm run vectors" and commit it`,
    ).toBe(true);
  });
  it('vectors/index.json and docs/vectors.md', () => {
    const { suite_version: _a, ...now } = generated.index;
    const { suite_version: _b, ...then } = index;
    expect(now).toEqual(then);
    expect(readFileSync(join(ROOT, 'docs/vectors.md'), 'utf8')).toBe(generated.docs);
  });
});

// A vector case never changes meaning: the generator refuses a case whose input changed, a case
// that disappeared without being retired, a retired ID in use and an ID used twice.
type UriLike = CaseBase & { uri: string; findings: unknown[] };

const uriCase = (id: string, uri: string, result: CaseBase['result'] = 'valid'): UriLike => ({
  id,
  comment: `case ${id}`,
  requirements: ['CPR-4.2-URI-FORMAT'],
  uri,
  result,
  findings: [],
});
const previous = (cases: UriLike[]): VectorFile => ({ group: 'uris', cases }) as unknown as VectorFile;

describe('case stability', () => {
  const a = uriCase('a', 'cpr://inline/e30');
  const b = uriCase('b', 'cpr://');

  it('accepts the same inputs with changed expectations (a verdict change shows as a changed vector)', () => {
    expect(() => checkStability('uris', previous([a, b]), [{ ...a, result: 'invalid' }, b])).not.toThrow();
    expect(() => checkStability('uris', previous([a]), [a, b])).not.toThrow();
  });
  it('refuses a case whose input changed', () => {
    expect(() =>
      checkStability('uris', previous([a, b]), [{ ...a, uri: 'cpr://inline/e31' } as UriLike, b]),
    ).toThrow(/the input of case a changed; a case never changes meaning: retire a/);
  });
  it('refuses a case that disappeared without being retired', () => {
    expect(() => checkStability('uris', previous([a, b]), [a])).toThrow(/case b disappeared; retire it/);
  });
  it('refuses an ID used twice', () => {
    expect(() => checkStability('uris', undefined, [a, a])).toThrow(/case ID a is used twice/);
  });
  it('refuses a retired ID in use, and accepts a retired case gone from the file', () => {
    const retired = [{ id: 'b', group: 'uris', reason: 'it named the wrong requirement', replaced_by: 'c' }];
    expect(() => checkStability('uris', undefined, [a, b], retired)).toThrow(/case ID b is retired/);
    expect(() =>
      checkStability('uris', previous([a, b]), [a, uriCase('c', 'cpr://')], retired),
    ).not.toThrow();
    // the committed list: each retired case says why
    expect(RETIRED.filter((r) => r.reason.trim().length === 0)).toEqual([]);
  });
});
