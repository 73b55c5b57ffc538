import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ambiguitiesFor,
  ambiguitiesPath,
  catalogPath,
  classify,
  loadAmbiguities,
  loadCatalog,
  REQUIREMENT_ID_PATTERN,
  REQUIREMENT_ID_SCAN_PATTERN,
  readAmbiguitiesFile,
  readCatalogFile,
  requirementById,
} from '../../src/catalog/index.js';
import { isCprcError } from '../../src/errors.js';
import { packageRoot } from '../../src/paths.js';
import { createSchemaAjv, loadSchemaFiles } from '../../src/schemas/registry.js';

const root = packageRoot();
const CATALOG_SCHEMA = 'https://cpr-conformance.dev/schemas/tool/requirement-catalog.schema.json';
const REGISTER_SCHEMA = 'https://cpr-conformance.dev/schemas/tool/ambiguity-register.schema.json';

/** An ajv configured as the project's registry, holding only the two catalog schemas. */
function catalogAjv() {
  const files = loadSchemaFiles().filter((f) => f.id === CATALOG_SCHEMA || f.id === REGISTER_SCHEMA);
  expect(files.map((f) => f.id).sort()).toEqual([REGISTER_SCHEMA, CATALOG_SCHEMA]);
  return createSchemaAjv(files);
}

const rawCatalog = (): Record<string, unknown> => JSON.parse(readFileSync(catalogPath(), 'utf8'));
const rawRegister = (): Record<string, unknown> => JSON.parse(readFileSync(ambiguitiesPath(), 'utf8'));

/** Every file under `dir` (relative to the package root) whose name ends in one of `exts`. */
function filesUnder(dir: string, exts: readonly string[], exclude: readonly string[] = []): string[] {
  const out: string[] = [];
  const walk = (abs: string): void => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(abs, { withFileTypes: true });
    } catch {
      return; // folder not created yet
    }
    for (const e of entries) {
      const p = join(abs, e.name);
      const rel = relative(root, p).split(sep).join('/');
      if (exclude.some((x) => rel === x || rel.startsWith(`${x}/`))) continue;
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && exts.some((x) => e.name.endsWith(x))) out.push(p);
    }
  };
  walk(join(root, dir));
  return out;
}

/** `file:line: ID` for every ID `ids` does not contain. */
function unknownReferences(
  files: readonly string[],
  find: (text: string) => Iterable<{ id: string; index: number }>,
): string[] {
  const known = new Set(loadCatalog().requirements.map((r) => r.id));
  const out: string[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (const { id, index } of find(text)) {
      if (known.has(id)) continue;
      const line = text.slice(0, index).split('\n').length;
      out.push(`${relative(root, file).split(sep).join('/')}:${line}: ${id}`);
    }
  }
  return out;
}

/** Document order of a section: numbers by value; the CPR invariants list sits at the end of section 7. */
function sectionKey(source: string, section: string): number {
  const inv = /^INV-([0-9]+)$/.exec(section);
  if (inv) return 7 * 1000 + 900 + Number(inv[1]);
  const [major = '0', minor = '0'] = section.split('.');
  expect(source === 'CPR-1.0' || minor === '0', `${source} has no subsections (${section})`).toBe(true);
  return Number(major) * 1000 + Number(minor);
}

describe('requirement catalog file', () => {
  it('validates against schemas/tool/requirement-catalog.schema.json', () => {
    const validate = catalogAjv().getSchema(CATALOG_SCHEMA);
    expect(validate).toBeDefined();
    const ok = validate?.(rawCatalog());
    expect(validate?.errors ?? [], 'schema errors').toEqual([]);
    expect(ok).toBe(true);
  });

  it('the schema rejects a defective entry (so the check above can fail)', () => {
    const validate = catalogAjv().getSchema(CATALOG_SCHEMA);
    const doc = rawCatalog();
    const first = (doc.requirements as Record<string, unknown>[])[0] as Record<string, unknown>;
    const defects: Record<string, unknown>[] = [
      { ...first, id: 'cpr-1-lower-case' },
      { ...first, level: 'MUST NOT' },
      { ...first, kind: 'PROFILE' }, // a CPR-1.0 entry must be SPEC
      { ...first, untestable: 'n/a' },
      { ...first, extra: true },
    ];
    for (const defect of defects) {
      expect(validate?.({ ...doc, requirements: [defect] }), JSON.stringify(defect).slice(0, 80)).toBe(false);
    }
  });

  it('has unique, well-formed IDs whose prefix and section match source and section', () => {
    const seen = new Map<string, number>();
    const problems: string[] = [];
    for (const r of loadCatalog().requirements) {
      seen.set(r.id, (seen.get(r.id) ?? 0) + 1);
      if (!REQUIREMENT_ID_PATTERN.test(r.id)) problems.push(`${r.id}: not well-formed`);
      const prefix = { 'CPR-1.0': 'CPR', 'CASHPACK-1.0': 'CP', PROFILE: 'PRF' }[r.source];
      if (!r.id.startsWith(`${prefix}-${r.section}-`)) {
        problems.push(`${r.id}: expected to start with ${prefix}-${r.section}-`);
      }
      if ((r.source === 'PROFILE') !== (r.kind === 'PROFILE')) problems.push(`${r.id}: kind ${r.kind}`);
    }
    for (const [id, n] of seen) if (n > 1) problems.push(`${id}: appears ${n} times`);
    expect(problems).toEqual([]);
  });

  it('lists requirements in document order: CPR-1.0, then CASHPACK-1.0, then PROFILE, sections ascending', () => {
    const sources = ['CPR-1.0', 'CASHPACK-1.0', 'PROFILE'];
    let last = { source: 0, key: -1, id: '' };
    const problems: string[] = [];
    for (const r of loadCatalog().requirements) {
      const now = { source: sources.indexOf(r.source), key: sectionKey(r.source, r.section), id: r.id };
      if (now.source < last.source || (now.source === last.source && now.key < last.key)) {
        problems.push(`${r.id} comes after ${last.id}`);
      }
      last = now;
    }
    expect(problems).toEqual([]);
  });

  it('covers every section of both specifications that has normative content', () => {
    const sections = (source: string) =>
      new Set(
        loadCatalog()
          .requirements.filter((r) => r.source === source)
          .map((r) => r.section),
      );
    const cpr = sections('CPR-1.0');
    for (const s of ['1', '2.1', '2.2', '2.3', '2.4', '2.5', '2.6', '2.7', '2.8', '2.9', '2.10', '3']) {
      expect(cpr.has(s), `CPR-1.0 section ${s}`).toBe(true);
    }
    for (const s of ['4.1', '4.2', '4.3', '4.4', '4.5', '5', '7', '8', '9']) {
      expect(cpr.has(s), `CPR-1.0 section ${s}`).toBe(true);
    }
    for (let n = 1; n <= 8; n++) expect(cpr.has(`INV-${n}`), `CPR-1.0 invariant ${n}`).toBe(true);
    const cp = sections('CASHPACK-1.0');
    for (const s of ['1', '2', '3', '4', '5', '7', '8', '9'])
      expect(cp.has(s), `CASHPACK-1.0 ${s}`).toBe(true);
    const prf = sections('PROFILE');
    for (const s of ['1', '2', '3', '4']) expect(prf.has(s), `profile section ${s}`).toBe(true);
  });

  it('keeps every ID other engineers were promised', () => {
    const promised = [
      'CPR-2.1-VERSION',
      'CPR-2.1-REQUEST-ID-UNIQUE',
      'CPR-2.1-EXPIRES-AT',
      'CPR-2.1-TIMESTAMPS-UTC',
      'CPR-2.1-MEMO-LENGTH',
      'CPR-2.2-RAIL-ADDRESS',
      'CPR-2.3-ASSET-TYPE',
      'CPR-2.3-ASSET-CODE-ISO4217',
      'CPR-2.3-CHAIN-ID-REQUIRED',
      'CPR-2.3-AMOUNT-SMALLEST-UNIT',
      'CPR-2.4-RAIL-HINT-ENUM',
      'CPR-2.5-ONCHAIN-FIELDS',
      'CPR-2.5-RECEIVER-ADDRESS',
      'CPR-2.6-IBAN-FIELDS',
      'CPR-2.6-IBAN-VALID',
      'CPR-2.6-BIC-VALID',
      'CPR-2.6-REMITTANCE-LENGTH',
      'CPR-2.7-ACCOUNT-FIELDS',
      'CPR-2.8-INSTANT-KEY-FIELDS',
      ...[
        'ID',
        'PAYER',
        'PAYEE',
        'VALUE',
        'INTENT-REFERENCE',
        'INTENT-CONDITIONS',
        'AUTHORIZATION',
        'STATE',
        'CONTEXT',
        'REQUEST-ID-BOUND',
      ].map((s) => `CPR-2.10-${s}`),
      'CPR-4.3-VALIDATE-BEFORE-PROCESSING',
      'CPR-4.3-CONSUMED-REJECT',
      'CPR-4.5-UNSUPPORTED-RAIL-MESSAGE',
      'CPR-4.5-OPEN-AMOUNT',
      'CPR-5-TOKEN-EXPIRY',
      'CPR-5-TOKEN-SINGLE-USE',
      'CPR-5-TOKEN-REUSE-ERROR',
      'CPR-5-TLS-ONLY',
      'CPR-7-EXPIRED-REJECTED',
      'CPR-9-IGNORE-UNKNOWN-EXTENSIONS',
      'CPR-INV-1-NO-PAYER-DATA',
      'CPR-INV-7-UNKNOWN-RAIL-HINT-TOLERATED',
      'CP-5-INVALID-SIGNATURE',
      'CP-5-BEARER-MISMATCH',
      'CP-5-STATUS-ACCESS',
      'CP-5-REDEEMER-IDENTIFIED',
      ...[
        'INSUFFICIENT_BALANCE',
        'AMOUNT_EXCEEDS_LIMIT',
        'INVALID_SIGNATURE',
        'BEARER_MISMATCH',
        'CHAIN_DIGEST_MISMATCH',
        'INSTRUMENT_NOT_ACTIVE',
        'CHAIN_DEPTH_EXCEEDED',
        'REDEEMER_NOT_IDENTIFIED',
        'DUPLICATE_ID',
        'EXPIRY_INVALID',
      ].map((code) => `CP-7-${code.replaceAll('_', '-')}`),
      'CP-3-TERMINAL-STATUS',
      'CP-4-WELL-KNOWN-POLICY',
      'CP-4-WELL-KNOWN-PUBKEY',
      'PRF-1-AMOUNT-FORMAT',
      'PRF-1-TIMESTAMP-Z',
      'PRF-1-ERROR-BODY',
      'PRF-1-ERROR-STATUS',
      'PRF-2-TOKEN-FORMAT',
      'PRF-2-TOKEN-CONSUMED-410',
      'PRF-2-TOKEN-EXPIRED-410',
      'PRF-2-TOKEN-UNKNOWN-404',
      'PRF-2-SUB-INTERFACE-SELECTION',
      'PRF-2-RAIL-ADDRESS-AGREES',
      'PRF-2-VALIDITY-CEILING',
      'PRF-4-SIGNATURE-JCS',
      'PRF-4-CHAIN-DIGEST',
    ];
    expect(promised.filter((id) => requirementById(id) === undefined)).toEqual([]);
    expect(requirementById('CPR-2.1-VERSION')).toMatchObject({
      level: 'MUST',
      kind: 'SPEC',
      source: 'CPR-1.0',
    });
  });

  it('gives every untestable requirement a reason of at least one full sentence', () => {
    const weak = loadCatalog()
      .requirements.filter((r) => r.untestable !== undefined)
      .filter((r) => {
        const reason = (r.untestable ?? '').trim();
        return (
          reason.length < 40 ||
          reason.split(/\s+/).length < 8 ||
          !/[.]$/.test(reason) ||
          !/^[A-Z]/.test(reason)
        );
      })
      .map((r) => r.id);
    expect(weak).toEqual([]);
    // the ones known to be beyond a black box are marked
    expect(requirementById('CPR-4.5-CONVERSION-DISCLOSED')?.untestable).toMatch(/payer/);
  });
});

describe('requirement IDs used by the project', () => {
  it('every ID referenced in a .ts file under src/ or suites/ (not src/generated) is in the catalog', () => {
    const files = [...filesUnder('src', ['.ts'], ['src/generated']), ...filesUnder('suites', ['.ts'])];
    expect(files.length).toBeGreaterThan(0);
    const unknown = unknownReferences(files, function* (text) {
      for (const m of text.matchAll(REQUIREMENT_ID_SCAN_PATTERN)) yield { id: m[0], index: m.index ?? 0 };
    });
    expect(
      unknown,
      `unknown requirement IDs (add them to suites/catalog/requirements.json or fix the reference):\n${unknown.join('\n')}`,
    ).toEqual([]);
  });

  it('every "x-requirement" named in schemas/ is in the catalog', () => {
    const unknown = unknownReferences(filesUnder('schemas', ['.schema.json']), function* (text) {
      for (const m of text.matchAll(/"x-requirement"\s*:\s*"([^"]*)"/g)) {
        yield { id: m[1] ?? '', index: m.index ?? 0 };
      }
    });
    expect(unknown, `unknown x-requirement IDs:\n${unknown.join('\n')}`).toEqual([]);
  });

  it('the scan finds IDs in code and reports an unknown one with file and line', () => {
    const text =
      "const a = 'CPR-5-TOKEN-SINGLE-USE';\n// covers CPR-99-NOT-A-REQUIREMENT and PRF-2-TOKEN-FORMAT\n";
    const found = [...text.matchAll(REQUIREMENT_ID_SCAN_PATTERN)].map((m) => m[0]);
    expect(found).toEqual(['CPR-5-TOKEN-SINGLE-USE', 'CPR-99-NOT-A-REQUIREMENT', 'PRF-2-TOKEN-FORMAT']);
    const known = new Set(loadCatalog().requirements.map((r) => r.id));
    expect(found.filter((id) => !known.has(id))).toEqual(['CPR-99-NOT-A-REQUIREMENT']);
    // no false hits on version strings
    expect([...'cpr_version CPR-1.0, cashpack_version CP-1.0'.matchAll(REQUIREMENT_ID_SCAN_PATTERN)]).toEqual(
      [],
    );
  });
});

describe('ambiguity register file', () => {
  it('validates against schemas/tool/ambiguity-register.schema.json', () => {
    const validate = catalogAjv().getSchema(REGISTER_SCHEMA);
    const ok = validate?.(rawRegister());
    expect(validate?.errors ?? [], 'schema errors').toEqual([]);
    expect(ok).toBe(true);
    const doc = rawRegister();
    const first = (doc.ambiguities as Record<string, unknown>[])[0] as Record<string, unknown>;
    expect(validate?.({ ...doc, ambiguities: [{ ...first, affects: [] }] })).toBe(false);
    expect(validate?.({ ...doc, ambiguities: [{ ...first, level: 'MUST' }] })).toBe(false);
  });

  it('numbers entries AMB-1..n in order and names only requirements of the catalog', () => {
    const { ambiguities } = loadAmbiguities();
    expect(ambiguities.length).toBeGreaterThanOrEqual(15);
    expect(ambiguities.map((a) => a.id)).toEqual(ambiguities.map((_, i) => `AMB-${i + 1}`));
    const unknown = ambiguities.flatMap((a) =>
      a.affects.filter((id) => requirementById(id) === undefined).map((id) => `${a.id}: ${id}`),
    );
    expect(unknown).toEqual([]);
  });

  it('links a requirement to the readings that affect it', () => {
    expect(ambiguitiesFor('CPR-2.2-OPTIONAL-FIELD-PRESENT').map((a) => a.section)).toContain('CPR-1.0 2.2');
    expect(ambiguitiesFor('PRF-4-CHAIN-DIGEST').length).toBeGreaterThan(0);
    expect(ambiguitiesFor('CPR-NOT-AN-ID')).toEqual([]);
  });
});

describe('loader and classify', () => {
  it('reads the catalog once and serves lookups from the cache', () => {
    expect(loadCatalog()).toBe(loadCatalog());
    expect(loadAmbiguities()).toBe(loadAmbiguities());
    expect(requirementById('CP-7-DUPLICATE-ID')?.text).toMatch(/^DUPLICATE_ID: /);
    expect(requirementById('CP-7-NOT-THERE')).toBeUndefined();
  });

  it('a failed SPEC MUST is "failed"', () => {
    expect(classify(['CPR-5-TOKEN-SINGLE-USE'])).toEqual({
      level: 'MUST',
      kind: 'SPEC',
      failure: 'spec',
      state: 'failed',
      governing: 'CPR-5-TOKEN-SINGLE-USE',
    });
  });

  it('a failed PROFILE MUST, SPEC SHOULD or MAY is a "warning"', () => {
    expect(classify(['PRF-2-TOKEN-CONSUMED-410'])).toMatchObject({
      level: 'MUST',
      kind: 'PROFILE',
      state: 'warning',
    });
    expect(classify(['CPR-4.3-CONSUMED-REJECT'])).toMatchObject({
      level: 'SHOULD',
      kind: 'SPEC',
      state: 'warning',
    });
    expect(classify(['CPR-4.4-REJECT-UNSERVABLE-RAIL'])).toMatchObject({ level: 'MAY', state: 'warning' });
    expect(classify(['PRF-2-VALIDITY-CEILING', 'CPR-4.3-CONSUMED-REJECT'])).toMatchObject({
      state: 'warning',
      governing: 'CPR-4.3-CONSUMED-REJECT',
    });
  });

  it('a check naming a SPEC MUST among others is "failed", governed by that MUST', () => {
    const c = classify(['PRF-2-TOKEN-CONSUMED-410', 'CPR-4.3-CONSUMED-REJECT', 'CPR-5-TOKEN-REUSE-ERROR']);
    expect(c).toEqual({
      level: 'MUST',
      kind: 'SPEC',
      failure: 'spec',
      state: 'failed',
      governing: 'CPR-5-TOKEN-REUSE-ERROR',
    });
  });

  it('a PROFILE MUST governs a SPEC SHOULD (both warn)', () => {
    expect(classify(['CPR-4.3-CONSUMED-REJECT', 'PRF-2-FULFILLMENT-DUPLICATE-409'])).toMatchObject({
      level: 'MUST',
      kind: 'PROFILE',
      state: 'warning',
      governing: 'PRF-2-FULFILLMENT-DUPLICATE-409',
    });
  });

  it('refuses an empty list and names unknown IDs', () => {
    expect(() => classify([])).toThrow(/at least one requirement ID/);
    let caught: unknown;
    try {
      classify(['CPR-5-TOKEN-SINGLE-USE', 'CPR-5-TOKEN-TYPO', 'PRF-9-NOPE']);
    } catch (err) {
      caught = err;
    }
    expect(isCprcError(caught, 'CPRC_INTERNAL')).toBe(true);
    expect((caught as Error).message).toContain('"CPR-5-TOKEN-TYPO", "PRF-9-NOPE"');
  });
});

describe('loader errors', () => {
  // made in a hook, not while the file is collected: a -t filter skips the hooks, not that code
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'cprc-catalog-'));
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Writes `content` to a file in the temp folder and returns the error reading it throws. */
  function errorReading(name: string, content: string, read: (path: string) => unknown): Error {
    const path = join(dir, name);
    writeFileSync(path, content);
    try {
      read(path);
    } catch (err) {
      expect(isCprcError(err)).toBe(true);
      expect((err as Error).message).toContain(path);
      return err as Error;
    }
    throw new Error(`reading ${name} did not fail`);
  }

  const entry = { ...(loadCatalog().requirements[0] as object) };
  const catalogWith = (requirements: unknown[]) =>
    JSON.stringify({ catalog_version: '1.0.0', specs: loadCatalog().specs, requirements });

  it('reads a good file', () => {
    const path = join(dir, 'good.json');
    writeFileSync(path, catalogWith([entry]));
    expect(readCatalogFile(path).requirements).toHaveLength(1);
  });

  it('names a missing file, broken JSON, a malformed or repeated ID and a wrong level', () => {
    expect(() => readCatalogFile(join(dir, 'absent.json'))).toThrow(/cannot read .*absent\.json/);
    expect(errorReading('broken.json', '{"requirements": [', readCatalogFile).message).toMatch(
      /not valid JSON/,
    );
    expect(
      errorReading('bad-id.json', catalogWith([{ ...entry, id: 'CPR-x' }]), readCatalogFile).message,
    ).toMatch(/requirements\[0\]\.id "CPR-x" is not a well-formed requirement ID/);
    expect(errorReading('dup.json', catalogWith([entry, entry]), readCatalogFile).message).toMatch(
      /requirements\[1\]\.id .* appears twice/,
    );
    expect(
      errorReading('level.json', catalogWith([{ ...entry, level: 'must' }]), readCatalogFile).message,
    ).toMatch(/level .* must be one of MUST, SHOULD, MAY/);
    expect(errorReading('array.json', '[]', readCatalogFile).message).toMatch(/must be a JSON object/);
  });

  it('names a malformed ambiguity entry', () => {
    const amb = JSON.stringify({ register_version: '1.0.0', ambiguities: [{ id: 'AMB-1', affects: 'x' }] });
    expect(errorReading('amb.json', amb, readAmbiguitiesFile).message).toMatch(/ambiguities\[0\]/);
    const a = loadAmbiguities().ambiguities[0];
    const dup = JSON.stringify({ register_version: '1.0.0', ambiguities: [a, a] });
    expect(errorReading('amb-dup.json', dup, readAmbiguitiesFile).message).toMatch(/"AMB-1" appears twice/);
  });
});
