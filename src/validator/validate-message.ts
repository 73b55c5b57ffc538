/**
 * `validateMessage`: schema validation of any message the registry knows (cash-pack, harness,
 * CPR parts), with findings named after the requirement annotated in the schema.
 *
 * @packageDocumentation
 */
import type { ErrorObject } from 'ajv/dist/2020.js';
import { CprcError } from '../errors.js';
import { type Finding, finding } from '../model/finding.js';
import { isObject } from '../model/util.js';
import { getSchemaValidator, loadSchemaFiles, SCHEMA_ID_BASE } from '../schemas/registry.js';
import type { ValidationResult } from './types.js';
import { pointer, pointerSegments } from './util.js';

type SchemaNode = Record<string, unknown>;

let byId: Map<string, SchemaNode> | null = null;

function schemaById(id: string): SchemaNode | undefined {
  byId ??= new Map(loadSchemaFiles().map((f) => [f.id, f.schema as SchemaNode]));
  return byId.get(id);
}

/** Resolves `$ref` of `node` (relative to `base`) to [schema, its base id]. */
function deref(node: SchemaNode, base: string): [SchemaNode, string] | null {
  const ref = node.$ref;
  // Stryker disable next-line ConditionalExpression: a node without $ref would resolve to <base>/undefined, which names no schema: null either way
  if (typeof ref !== 'string') return null;
  // base is a schema's $id (an absolute URL): every reference resolves against it
  const url = new URL(ref, base);
  const fragment = decodeURIComponent(url.hash.slice(1));
  url.hash = '';
  const docId = url.href;
  let target: unknown = schemaById(docId);
  for (const seg of pointerSegments(fragment)) target = isObject(target) ? target[seg] : undefined;
  return isObject(target) ? [target, docId] : null;
}

/**
 * The node and every node it reaches through `$ref` and `allOf`. (No message schema refers to
 * itself: a cycle would overflow the stack, which `validateMessage` turns into its fallback
 * finding. A boolean schema in an allOf has no member to read: it adds nothing.)
 */
function expand(node: SchemaNode, base: string): [SchemaNode, string][] {
  const out: [SchemaNode, string][] = [[node, base]];
  const r = deref(node, base);
  if (r) out.push(...expand(r[0], r[1]));
  if (Array.isArray(node.allOf)) for (const sub of node.allOf) out.push(...expand(sub as SchemaNode, base));
  return out;
}

/**
 * The requirement annotated (`x-requirement`) on the schema node nearest to `path` in the
 * schema `rootId`: the deepest annotated node along the path wins.
 */
function annotatedRequirement(rootId: string, path: string[]): string | undefined {
  // rootId names a schema: getSchemaValidator found it
  let found: string | undefined;
  let level: [SchemaNode, string][] = [[schemaById(rootId) as SchemaNode, rootId]];
  for (let i = 0; ; i++) {
    const nodes = level.flatMap(([n, b]) => expand(n, b));
    for (const [n] of nodes) if (typeof n['x-requirement'] === 'string') found = n['x-requirement'];
    const seg = path[i];
    if (seg === undefined) return found;
    // Stryker disable next-line ArrayDeclaration: a string in the level reads as a node with no member: it adds nothing
    const next: [SchemaNode, string][] = [];
    for (const [n, b] of nodes) {
      const props = n.properties;
      // below an array the segment is an index (ajv's path); no message schema gives
      // additionalProperties a schema: a member it does not name takes the annotation found so far
      if (isObject(props) && isObject(props[seg])) next.push([props[seg] as SchemaNode, b]);
      else if (isObject(n.items)) next.push([n.items as SchemaNode, b]);
    }
    // Stryker disable next-line ConditionalExpression: an early exit: an empty level adds nothing to the segments left
    if (next.length === 0) return found;
    level = next;
  }
}

/**
 * Requirement of a message schema failure when the schema annotates none at the failing
 * member: the profile statement that fixes the message's shape.
 */
const FALLBACK_BY_KIND: Readonly<Record<string, string>> = {
  'cashpack/lock-request': 'PRF-4-LOCK-REQUEST-SHAPE',
  'cashpack/cashpack': 'PRF-4-CASHPACK-SHAPE',
  'cashpack/renewal-entry': 'PRF-4-RENEWAL-ENTRY-SHAPE',
  'cashpack/renew-body': 'PRF-4-RENEW-BINDING',
  'cashpack/redemption-request': 'PRF-4-REDEMPTION-REQUEST-SHAPE',
  'cashpack/redeem-body': 'PRF-4-REDEEM-BINDING',
  'cashpack/redemption-confirmation': 'PRF-4-REDEEM-BINDING',
  'cashpack/status-response': 'PRF-4-STATUS-BINDING',
  'cashpack/policy': 'PRF-4-POLICY-SHAPE',
  'cashpack/operator-jwk': 'PRF-4-OPERATOR-JWK',
  'cashpack/error-body': 'PRF-1-ERROR-BODY',
  'harness/create-request': 'PRF-2-HARNESS-REQUESTS',
  'harness/create-request-response': 'PRF-2-HARNESS-REQUESTS',
  'harness/derive-request': 'PRF-3-DERIVE-HARNESS',
  'harness/derive-response': 'PRF-3-PAYMENT-SHAPE',
  'harness/derive-error': 'PRF-3-DERIVE-ERROR-CODES',
  'harness/stdio-response': 'PRF-3-STDIO-FORM',
  'harness/expire-or-cancel-request': 'PRF-4-HARNESS-EXPIRE-CANCEL',
  'harness/expire-or-cancel-response': 'PRF-4-HARNESS-EXPIRE-CANCEL',
  'harness/balance-request': 'PRF-4-HARNESS-BALANCE',
  'harness/balance-response': 'PRF-4-HARNESS-BALANCE',
  'cpr/payment': 'PRF-3-PAYMENT-SHAPE',
  'cpr/derivation-context': 'CPR-2.9-CONTEXT-FROM-APPLICATION',
};

/** Fallback per schema folder when the kind has no entry in {@link FALLBACK_BY_KIND}. */
const FALLBACK_BY_DIR: Readonly<Record<string, string>> = {
  cashpack: 'PRF-4-MESSAGE-SCHEMA',
  harness: 'PRF-3-HARNESS-MESSAGE-SCHEMA',
  cpr: 'CPR-2.1-FIELD-TYPES',
};

/** Every requirement a message schema failure can fall back to (declared data for coverage). */
export const MESSAGE_FALLBACK_REQUIREMENTS: readonly string[] = [
  ...new Set([...Object.values(FALLBACK_BY_KIND), ...Object.values(FALLBACK_BY_DIR)]),
].sort();

function describeError(e: ErrorObject, path: string[]): string {
  const name = path.length === 0 ? 'the message' : path.join('.');
  if (e.keyword === 'required') return `${[...path, String(e.params.missingProperty)].join('.')} is missing`;
  if (e.keyword === 'additionalProperties') {
    return `${name} has the member ${JSON.stringify(e.params.additionalProperty)}, which is not allowed`;
  }
  if (e.keyword === 'const') return `${name} must equal ${JSON.stringify(e.params.allowedValue)}`;
  if (e.keyword === 'enum') {
    return `${name} must be one of ${JSON.stringify(e.params.allowedValues)}`;
  }
  // ajv writes a message for every error of these schemas
  return `${name} ${String(e.message)}`;
}

/**
 * Validates an implementer's message against one registry schema, by its short id (`'cashpack/lock-request'`,
 * `'harness/derive-request'`, `'cpr/payment'`, ...). Each ajv error becomes a finding whose
 * requirement is the `x-requirement` annotated nearest to the failing member in the schema
 * (following `$ref` and `allOf`), else the profile statement fixing that message's shape.
 * Never throws on any `doc`; an unknown `kind` is a programming error and throws.
 *
 * @throws CprcError `CPRC_USAGE` for a kind outside cpr/, cashpack/, harness/; `CPRC_INTERNAL` when `kind` names no schema.
 * @example
 * ```ts
 * const r = validateMessage('cashpack/lock-request', body);
 * if (!r.valid) console.log(r.findings.map((f) => `${f.path}: ${f.message}`));
 * ```
 */
export function validateMessage(kind: string, doc: unknown): ValidationResult {
  const rootId = kind.startsWith(SCHEMA_ID_BASE)
    ? kind
    : `${SCHEMA_ID_BASE}${kind.endsWith('.schema.json') ? kind : `${kind}.schema.json`}`;
  // Stryker disable next-line Regex: rootId holds ".schema.json" at most once, at its end, for every kind a schema answers to
  const short = rootId.slice(SCHEMA_ID_BASE.length).replace(/\.schema\.json$/, '');
  const dir = short.slice(0, short.indexOf('/'));
  const fallback = FALLBACK_BY_KIND[short] ?? FALLBACK_BY_DIR[dir];
  if (!fallback) {
    throw new CprcError(
      'CPRC_USAGE',
      `validateMessage: "${kind}" is not an implementer message (cpr/, cashpack/ or harness/); validate tool files with getSchemaValidator`,
    );
  }
  const validate = getSchemaValidator(kind);
  try {
    if (validate(doc)) return { valid: true, findings: [] };
    const findings: Finding[] = [];
    const seen = new Set<string>();
    // ajv sets errors whenever validate answers false
    for (const e of validate.errors as ErrorObject[]) {
      if (e.keyword === 'if') continue; // restates the failing `then`
      const path = pointerSegments(e.instancePath);
      const at = e.keyword === 'required' ? [...path, String(e.params.missingProperty)] : path;
      const req = annotatedRequirement(rootId, at) ?? fallback;
      const key = `${req} ${pointer(at)} ${e.keyword}`;
      if (seen.has(key)) continue;
      seen.add(key);
      findings.push(finding(req, pointer(at), describeError(e, path)));
    }
    // Stryker disable ConditionalExpression,StringLiteral: ajv reports a failing `if` beside the error of its `then`: no failure gives `if` errors alone (a safety net)
    if (findings.length === 0)
      findings.push(finding(fallback, '', `the message does not match schema ${kind}`));
    // Stryker restore ConditionalExpression,StringLiteral
    return { valid: false, findings };
  } catch (err) {
    return {
      valid: false,
      findings: [
        finding(
          fallback,
          '',
          `the message could not be checked (${err instanceof Error ? err.message : String(err)})`,
        ),
      ],
    };
  }
}
