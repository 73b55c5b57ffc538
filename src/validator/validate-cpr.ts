/**
 * `validateCpr`: the reference validator of CPR-1.0 documents (schema plus rules).
 *
 * @packageDocumentation
 */
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { boundedCache } from '../caches.js';
import { CprcError } from '../errors.js';
import { type Finding, finding } from '../model/finding.js';
import { isObject } from '../model/util.js';
import { getSchemaValidator } from '../schemas/registry.js';
import { beginDocumentMemo, endDocumentMemo } from './memo.js';
import { CPR_RULES, collectCprRules } from './rules/index.js';
import { cprSchemaFindings, SCHEMA_FINDING_REQUIREMENTS, schemaFallbackFinding } from './schema-findings.js';
import type { RuleContext, ValidateCprOptions, ValidationResult } from './types.js';

/** Default validity ceiling: 30 days (profile section 2). */
export const DEFAULT_MAX_VALIDITY_SECONDS = 30 * 24 * 60 * 60;

/** Requirement of "the document can be parsed and checked at all" (spec 4.3 rule 3, 4.4 step 1). */
const REQ_STRUCTURE = 'CPR-4.3-VALIDATE-BEFORE-PROCESSING';

/**
 * The two readings' schema validators, fetched from the registry once (a cache of src/caches.ts:
 * a process that forgets its caches between runs fetches them again).
 */
const validators = boundedCache<'payee' | 'wallet', ValidateFunction>(2);

/** True when one of `findings` is an error. */
function hasError(findings: readonly Finding[]): boolean {
  for (let i = 0; i < findings.length; i++) if ((findings[i] as Finding).severity === 'error') return true;
  return false;
}

function checkOptions(opts: ValidateCprOptions): void {
  if (opts.mode !== undefined && opts.mode !== 'payee' && opts.mode !== 'wallet') {
    throw new CprcError(
      'CPRC_USAGE',
      `validateCpr: mode must be "payee" or "wallet", not ${JSON.stringify(opts.mode)}`,
    );
  }
  if (opts.now !== undefined && (!(opts.now instanceof Date) || Number.isNaN(opts.now.getTime()))) {
    throw new CprcError('CPRC_USAGE', 'validateCpr: now must be a valid Date');
  }
  const max = opts.maxValiditySeconds;
  // Number.isFinite is false for anything but a finite number (no coercion)
  if (max !== undefined && (!Number.isFinite(max) || max <= 0)) {
    throw new CprcError('CPRC_USAGE', 'validateCpr: maxValiditySeconds must be a positive number of seconds');
  }
}

/**
 * Validates one CPR document: the JSON Schema of the chosen reading (`cpr/cpr-payee` or
 * `cpr/cpr-wallet`) and then every rule of `rules/` (checksums, ISO 4217, expiry, validity
 * window, sub-interface selection, rail_address agreement, amount bounds, no payer data).
 * Each finding names one requirement. The document is never modified and never makes this
 * function throw, whatever it holds; only invalid `opts` (a programming error) throw.
 *
 * @param doc - the parsed JSON document (anything).
 * @param opts - `mode` (default `'wallet'`), `now` (default: current time), `maxValiditySeconds` (default 30 days).
 * @returns `{ valid, findings }`; `valid` is false when any finding is an error.
 * @throws CprcError `CPRC_USAGE` for invalid options; `CPRC_INTERNAL` when the schemas cannot be loaded.
 * @example
 * ```ts
 * const { valid, findings } = validateCpr(JSON.parse(text), { mode: 'payee' });
 * for (const f of findings) console.log(f.requirement, f.path, f.message);
 * ```
 */
export function validateCpr(doc: unknown, opts: ValidateCprOptions = {}): ValidationResult {
  checkOptions(opts);
  // Stryker disable next-line StringLiteral: every reader of the mode asks whether it is 'payee': any other value is the wallet reading
  const mode = opts.mode ?? 'wallet';
  let validate = validators.get(mode);
  // Stryker disable next-line ConditionalExpression: a cache: the registry answers with the same validator again
  if (!validate) {
    // the timestamps rule reads created_at and expires_at as RFC 3339 (`instantOf`), refusing
    // every string ajv-formats' date-time refuses: the schema leaves that format to it
    // Stryker disable ConditionalExpression,StringLiteral,ObjectLiteral: where the two readings' schemas differ (created_at/expires_at with Z, amount a digit string, rail_hint one of eight) and where ajv would check date-time, a rule reports an error at the same path in payee mode, which replaces the schema's finding
    validate = getSchemaValidator(mode === 'payee' ? 'cpr/cpr-payee' : 'cpr/cpr-wallet', {
      dateTime: 'caller',
    });
    // Stryker restore ConditionalExpression,StringLiteral,ObjectLiteral
    validators.set(mode, validate);
  }
  try {
    if (!isObject(doc)) {
      const what = Array.isArray(doc) ? 'an array' : doc === null ? 'null' : `a ${typeof doc}`;
      return {
        valid: false,
        findings: [finding(REQ_STRUCTURE, '', `the document must be a JSON object, not ${what}`)],
      };
    }
    const schemaValid = validate(doc);
    const nowMs = opts.now ? opts.now.getTime() : Date.now();
    const ctx: RuleContext = {
      doc,
      mode,
      nowMs,
      maxValiditySeconds: opts.maxValiditySeconds ?? DEFAULT_MAX_VALIDITY_SECONDS,
    };
    const ruleFindings: Finding[] = [];
    // the rules (and the schema-finding mapping) read the same members and ask for the
    // sub-interface: both are read once per document
    beginDocumentMemo(doc);
    try {
      collectCprRules(ctx, ruleFindings);
      // the common case: nothing to merge
      if (schemaValid) return { valid: !hasError(ruleFindings), findings: ruleFindings };
      // ajv sets errors whenever validate answers false
      const schemaErrors = validate.errors as ErrorObject[];
      const schemaFindings = cprSchemaFindings(schemaErrors, doc);
      // A rule error at a path says more than the schema keyword there: keep the rule's.
      const ruleErrorPaths = new Set<string>();
      for (const f of ruleFindings) if (f.severity === 'error') ruleErrorPaths.add(f.path);
      const findings: Finding[] = [];
      for (const f of schemaFindings) if (!ruleErrorPaths.has(f.path)) findings.push(f);
      for (const f of ruleFindings) findings.push(f);
      // never lose a schema error, even one the mapping treats as bookkeeping: with no error
      // here, no schema finding was mapped (a mapped one is an error, dropped only beside a
      // rule's error at its path)
      // Stryker disable next-line ConditionalExpression: a safety net: no known document fails the schema with only bookkeeping errors and passes every rule
      if (!hasError(findings)) findings.push(schemaFallbackFinding(schemaErrors));
      return { valid: !hasError(findings), findings };
    } finally {
      endDocumentMemo();
    }
  } catch (err) {
    // Defence in depth: documents are data, but an exotic object (a Proxy, a throwing getter)
    // must still give a finding rather than an exception.
    return {
      valid: false,
      findings: [
        finding(
          REQ_STRUCTURE,
          '',
          `the document could not be checked (${err instanceof Error ? err.message : String(err)}); give plain JSON`,
        ),
      ],
    };
  }
}

/**
 * Every requirement ID a finding of {@link validateCpr} can carry, in either reading: the
 * structure finding, the IDs the schema findings map to (`schema-findings.ts`) and the
 * `requirements` of every rule of {@link CPR_RULES}. Sorted, without repeats.
 *
 * @example
 * ```ts
 * documentRequirementIds().includes('CPR-2.1-MEMO-LENGTH'); // true
 * ```
 */
export function documentRequirementIds(): string[] {
  return [
    ...new Set([REQ_STRUCTURE, ...SCHEMA_FINDING_REQUIREMENTS, ...CPR_RULES.flatMap((r) => r.requirements)]),
  ].sort();
}
