/**
 * Signed results bundles (`cprc run --sign KEY`, `cprc verify`): the exact results.json of a run
 * plus what it was produced with (suite version; digests of the requirement catalog, the
 * ambiguity register, the wire profile, the schemas and the run configuration with its secrets
 * removed; the target URLs; the run's times) in one JWS (RFC 7515, compact serialization) signed
 * with Ed25519 (`alg` EdDSA, RFC 8037) through `jose`. Anyone holding the public key checks it
 * offline; a changed byte anywhere fails.
 *
 * @packageDocumentation
 */
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
} from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { CompactSign, calculateJwkThumbprint, compactVerify, exportJWK } from 'jose';
import { canonicalize } from '../crypto/jcs.js';
import { CprcError } from '../errors.js';
import type { ConformanceResults } from '../model/results.js';
import { packageRoot } from '../paths.js';
import { redactConfig } from '../secrets/index.js';
import { parseResults } from './read.js';

/** `typ` of the JWS protected header and `type` of the statement. */
export const BUNDLE_TYPE = 'cpr-conformance/results-bundle';
/** JWS `typ` header of a bundle. */
export const BUNDLE_JWS_TYP = 'cprc-results-bundle+jws';
/** Version of the statement format. */
export const BUNDLE_VERSION = '1.0';

/** `sha256:<64 hex digits>`. */
export type Digest = `sha256:${string}`;

/** What the suite installation that signs (or verifies) is made of, by digest. */
export interface SuiteDigests {
  /** suites/catalog/requirements.json, byte for byte. */
  catalog: Digest;
  /** suites/catalog/ambiguities.json, byte for byte. */
  ambiguities: Digest;
  /** docs/profile.md (the wire profile the suite tests), byte for byte. */
  profile: Digest;
  /** Every schemas/**\/*.schema.json: sha256 over the sorted lines `<path> <sha256 of the file>`. */
  schemas: Digest;
}

/** The signed statement (the JWS payload, JSON). */
export interface BundleStatement {
  /** Always {@link BUNDLE_TYPE}. */
  type: typeof BUNDLE_TYPE;
  /** Always {@link BUNDLE_VERSION}. */
  bundle_version: typeof BUNDLE_VERSION;
  /** The suite that ran (package name and version). */
  suite: { name: string; version: string };
  /** RFC 3339 time of signing. */
  signed_at: string;
  /** The run as results.json states it. */
  run: {
    name?: string;
    started_at: string;
    finished_at?: string;
    incomplete: boolean;
    seed: number;
    runs: number;
    level?: string;
    targets: string[];
    verdict: string;
    verdicts?: unknown;
    counts: unknown;
  };
  /** Where each target was reached (results.json `target_urls`). */
  target_urls: unknown;
  /** Digests of the results, the suite's inputs and the configuration (secrets removed). */
  digests: SuiteDigests & { results_json: Digest; config: Digest };
  /** The exact text of results.json. */
  results_json: string;
}

/** Outcome of {@link verifyBundle}. */
export type BundleVerification =
  | {
      valid: true;
      statement: BundleStatement;
      results: ConformanceResults;
      /** RFC 7638 thumbprint of the public key that signed. */
      keyThumbprint: string;
      /** Which suite digests equal this installation's (false: the run used another suite build). */
      sameAsInstalled: Record<keyof SuiteDigests | 'version', boolean>;
    }
  | { valid: false; reason: string };

function sha256(data: string | Uint8Array): Digest {
  return `sha256:${createHash('sha256').update(data).digest('hex')}`;
}

function schemaFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...schemaFiles(path));
    else if (entry.name.endsWith('.schema.json')) out.push(path);
  }
  return out;
}

/**
 * Digests of this installation's catalog, ambiguity register, profile and schemas.
 * @throws CprcError `CPRC_IO` when one of them is missing from the installation.
 */
export function suiteDigests(root = packageRoot()): SuiteDigests {
  const file = (path: string): Buffer => {
    try {
      return readFileSync(join(root, path));
    } catch {
      throw new CprcError(
        'CPRC_IO',
        `${path} is missing from the cpr-conformance installation at ${root}; reinstall it`,
      );
    }
  };
  const schemasDir = join(root, 'schemas');
  const lines = schemaFiles(schemasDir)
    .map(
      (path) => `${relative(schemasDir, path).split(sep).join('/')} ${sha256(readFileSync(path)).slice(7)}`,
    )
    .sort();
  return {
    catalog: sha256(file('suites/catalog/requirements.json')),
    ambiguities: sha256(file('suites/catalog/ambiguities.json')),
    profile: sha256(file('docs/profile.md')),
    schemas: sha256(`${lines.join('\n')}\n`),
  };
}

function installedSuite(root: string): { name: string; version: string } {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    name: string;
    version: string;
  };
  return { name: pkg.name, version: pkg.version };
}

function readKeyText(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new CprcError(
      'CPRC_IO',
      `${what} ${path}: cannot read it (${code ?? String(err)}); check the path`,
    );
  }
}

function ed25519Only(key: KeyObject, path: string, what: string): KeyObject {
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new CprcError(
      'CPRC_INPUT_INVALID',
      `${what} ${path} is a ${key.asymmetricKeyType ?? 'symmetric'} key; bundles are signed with Ed25519 only ("cprc keygen" makes a pair)`,
    );
  }
  return key;
}

/**
 * Loads an Ed25519 private key: PKCS#8 PEM (what `cprc keygen` and
 * `openssl genpkey -algorithm ed25519` write) or a private JWK (`{"kty":"OKP","crv":"Ed25519","d":...}`).
 * @throws CprcError `CPRC_IO` when unreadable; `CPRC_INPUT_INVALID` when not an Ed25519 private key.
 */
export function loadPrivateKey(path: string): KeyObject {
  const text = readKeyText(path, 'signing key');
  try {
    const trimmed = text.trim();
    const key = trimmed.startsWith('{')
      ? createPrivateKey({ key: JSON.parse(trimmed), format: 'jwk' })
      : createPrivateKey(text);
    return ed25519Only(key, path, 'signing key');
  } catch (err) {
    if (err instanceof CprcError) throw err;
    throw new CprcError(
      'CPRC_INPUT_INVALID',
      `signing key ${path}: not a PEM (PKCS#8) or JWK private key (${err instanceof Error ? err.message : String(err)})`,
    );
  }
}

/**
 * Loads an Ed25519 public key: SPKI PEM (`openssl pkey -pubout`), a public JWK, or the private
 * key itself (its public half is used).
 * @throws CprcError `CPRC_IO` when unreadable; `CPRC_INPUT_INVALID` when not an Ed25519 key.
 */
export function loadPublicKey(path: string): KeyObject {
  const text = readKeyText(path, 'public key');
  try {
    const trimmed = text.trim();
    const key = trimmed.startsWith('{')
      ? createPublicKey({ key: JSON.parse(trimmed), format: 'jwk' })
      : createPublicKey(text);
    return ed25519Only(key, path, 'public key');
  } catch (err) {
    if (err instanceof CprcError) throw err;
    throw new CprcError(
      'CPRC_INPUT_INVALID',
      `public key ${path}: not a PEM (SPKI) or JWK Ed25519 public key (${err instanceof Error ? err.message : String(err)})`,
    );
  }
}

/** A fresh Ed25519 key pair as PEM texts: PKCS#8 private key and SPKI public key. */
export function generateSigningKeyPair(): { privateKeyPem: string; publicKeyPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

/** RFC 7638 thumbprint (SHA-256, base64url) of a key's public half. */
export async function keyThumbprint(key: KeyObject): Promise<string> {
  const pub = key.type === 'private' ? createPublicKey(key) : key;
  return calculateJwkThumbprint(await exportJWK(pub), 'sha256');
}

/** Options of {@link createBundle}. */
export interface CreateBundleOptions {
  /** The exact text of results.json. */
  resultsJson: string;
  /** Ed25519 private key ({@link loadPrivateKey}). */
  privateKey: KeyObject;
  /** Signing time (default now). */
  now?: Date;
  /** Package root of the suite installation (default this one). */
  root?: string;
}

/**
 * Signs a results.json into a bundle: the compact JWS text (one line, newline-terminated).
 *
 * @throws CprcError `CPRC_INPUT_INVALID` when results.json is not a results document, or was
 * written by another suite version than this installation (sign with the version that ran).
 * @example
 * ```ts
 * const bundle = await createBundle({ resultsJson, privateKey: loadPrivateKey('cprc.key') });
 * writeFileSync('reports/results.bundle', bundle);
 * ```
 */
export async function createBundle(options: CreateBundleOptions): Promise<string> {
  const root = options.root ?? packageRoot();
  const doc = parseResults(options.resultsJson, 'results.json');
  const suite = installedSuite(root);
  if (doc.suite_version !== suite.version) {
    throw new CprcError(
      'CPRC_INPUT_INVALID',
      `results.json was written by cpr-conformance ${doc.suite_version}, this is ${suite.version}; sign with the version that ran`,
    );
  }
  const d = doc as ConformanceResults & { name?: unknown; verdicts?: unknown; level?: string };
  const statement: BundleStatement = {
    type: BUNDLE_TYPE,
    bundle_version: BUNDLE_VERSION,
    suite,
    signed_at: (options.now ?? new Date()).toISOString(),
    run: {
      ...(typeof d.name === 'string' ? { name: d.name } : {}),
      started_at: doc.started_at,
      ...(doc.finished_at ? { finished_at: doc.finished_at } : {}),
      incomplete: doc.incomplete,
      seed: doc.seed,
      runs: doc.runs,
      ...(d.level ? { level: d.level } : {}),
      targets: [...doc.targets],
      verdict: doc.verdict,
      ...(d.verdicts ? { verdicts: d.verdicts } : {}),
      counts: doc.counts,
    },
    target_urls: doc.target_urls ?? {},
    digests: {
      results_json: sha256(options.resultsJson),
      ...suiteDigests(root),
      config: sha256(canonicalize(redactConfig(doc.config_summary ?? {}))),
    },
    results_json: options.resultsJson,
  };
  const kid = await keyThumbprint(options.privateKey);
  const jws = await new CompactSign(new TextEncoder().encode(JSON.stringify(statement)))
    .setProtectedHeader({ alg: 'EdDSA', typ: BUNDLE_JWS_TYP, kid })
    .sign(options.privateKey);
  return `${jws}\n`;
}

const B64URL = /^[A-Za-z0-9_-]+$/;

/** True when `part` is the one base64url text of the bytes it decodes to (no stray bits). */
function canonicalBase64url(part: string): boolean {
  return B64URL.test(part) && Buffer.from(part, 'base64url').toString('base64url') === part;
}

function fail(reason: string): BundleVerification {
  return { valid: false, reason };
}

/**
 * Verifies a bundle offline against a public key: the JWS signature (EdDSA/Ed25519 only), the
 * exact serialization (any changed byte fails, padding bits and trailing bytes included), the
 * statement's form, the digest of the embedded results.json and the agreement of the statement
 * with it. Also says which suite digests equal this installation's (informative: a bundle from
 * another suite version is still valid).
 *
 * @example
 * ```ts
 * const v = await verifyBundle(readFileSync('results.bundle', 'utf8'), loadPublicKey('cprc.pub'));
 * if (!v.valid) console.error(v.reason);
 * ```
 */
export async function verifyBundle(
  text: string,
  publicKey: KeyObject,
  root = packageRoot(),
): Promise<BundleVerification> {
  const jws = text.endsWith('\n') ? text.slice(0, -1) : text;
  const parts = jws.split('.');
  if (parts.length !== 3 || !parts.every((part) => part.length > 0 && B64URL.test(part))) {
    return fail('not a results bundle: expected one compact JWS (three base64url parts joined by ".")');
  }
  if (!parts.every(canonicalBase64url)) {
    return fail('the bundle was altered: a part is not the canonical base64url of its bytes');
  }
  let header: Record<string, unknown>;
  try {
    header = JSON.parse(Buffer.from(parts[0] as string, 'base64url').toString('utf8'));
  } catch {
    return fail('the bundle was altered: its JWS header is not JSON');
  }
  if (header.typ !== BUNDLE_JWS_TYP) {
    return fail(
      `not a results bundle: JWS "typ" is ${JSON.stringify(header.typ)}, expected "${BUNDLE_JWS_TYP}"`,
    );
  }
  let payload: Uint8Array;
  try {
    ({ payload } = await compactVerify(jws, publicKey, { algorithms: ['EdDSA', 'Ed25519'] }));
  } catch (err) {
    const code = (err as { code?: string }).code;
    return fail(
      code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED'
        ? 'signature invalid: the bundle was altered or signed with another key'
        : `signature invalid: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  let statement: BundleStatement;
  try {
    statement = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(payload));
  } catch {
    return fail('the signed payload is not JSON (signed by something other than cprc)');
  }
  if (statement?.type !== BUNDLE_TYPE || statement.bundle_version !== BUNDLE_VERSION) {
    return fail(`the signed payload is not a ${BUNDLE_TYPE} ${BUNDLE_VERSION} statement`);
  }
  if (
    typeof statement.results_json !== 'string' ||
    sha256(statement.results_json) !== statement.digests?.results_json
  ) {
    return fail('the embedded results.json does not match its signed digest');
  }
  let results: ConformanceResults;
  try {
    results = parseResults(statement.results_json, 'embedded results.json');
  } catch (err) {
    return fail(err instanceof Error ? err.message : String(err));
  }
  const run = statement.run;
  if (
    run.started_at !== results.started_at ||
    run.verdict !== results.verdict ||
    run.seed !== results.seed ||
    canonicalize(run.counts) !== canonicalize(results.counts) ||
    statement.suite.version !== results.suite_version ||
    statement.digests.config !== sha256(canonicalize(redactConfig(results.config_summary ?? {})))
  ) {
    return fail('the statement does not agree with the results.json it embeds');
  }
  const local = suiteDigests(root);
  const installed = installedSuite(root);
  return {
    valid: true,
    statement,
    results,
    keyThumbprint: await keyThumbprint(publicKey),
    sameAsInstalled: {
      version: installed.version === statement.suite.version,
      catalog: local.catalog === statement.digests.catalog,
      ambiguities: local.ambiguities === statement.digests.ambiguities,
      profile: local.profile === statement.digests.profile,
      schemas: local.schemas === statement.digests.schemas,
    },
  };
}
