import { createPrivateKey, createPublicKey } from 'node:crypto';
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import type { ErrorObject } from 'ajv';
import { CprcError } from '../errors.js';
import type { Endpoints } from '../generated/tool/results.js';
import type { RunConfig } from '../generated/tool/run-config.js';
import { type StartEvent, TARGETS, type Target } from '../model/results.js';
import { getSchemaValidator } from '../schemas/registry.js';

/** A loaded run configuration. */
export interface LoadedConfig {
  /** The configuration, relative paths resolved against the config file's folder. */
  config: RunConfig;
  /** Absolute path of the config file. */
  configPath: string;
  /** Folder of the config file. */
  configDir: string;
}

/** JSON pointer `/payee/base_url` -> `payee.base_url` (array indices as `[0]`). */
function memberName(pointer: string, extra?: string): string {
  const parts = pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (extra !== undefined) parts.push(extra);
  let out = '';
  for (const p of parts) out += /^\d+$/.test(p) ? `[${p}]` : out ? `.${p}` : p;
  return out || '(the whole file)';
}

/** One ajv error in words: the member it is about and what to do. */
export function describeConfigError(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return `"${memberName(e.instancePath, String(p.missingProperty))}" is required; add it`;
    case 'additionalProperties':
      return `"${memberName(e.instancePath, String(p.additionalProperty))}" is not a known member; remove it or fix its spelling`;
    case 'type':
      return `"${memberName(e.instancePath)}" must be of type ${String(p.type)}; fix its value`;
    case 'enum':
      return `"${memberName(e.instancePath)}" must be one of ${JSON.stringify(p.allowedValues)}; fix its value`;
    default:
      return `"${memberName(e.instancePath)}" ${e.message ?? 'is invalid'}; fix its value`;
  }
}

/** Members holding a file path, resolved against the config file's folder. */
const PATH_MEMBERS: Array<[keyof NonNullable<RunConfig['tls']>, string]> = [
  ['ca_file', 'tls.ca_file'],
  ['suite_ca_cert_file', 'tls.suite_ca_cert_file'],
  ['suite_ca_key_file', 'tls.suite_ca_key_file'],
];

/**
 * Loads, validates (against `schemas/tool/run-config.schema.json`) and resolves a run
 * configuration (profile section 5). Every error is a `CPRC_CONFIG_INVALID` naming the file and
 * the member, and saying what to do (`cprc run` exits 2). A relative path in the config
 * (`tls.*_file`, a `./` program in `wallet.command`) resolves against the config file's folder.
 * @example
 * ```ts
 * const { config, configDir } = loadRunConfig('examples/run-config.json');
 * ```
 */
export function loadRunConfig(file: string): LoadedConfig {
  const configPath = resolve(file);
  const configDir = dirname(configPath);
  let text: string;
  try {
    text = readFileSync(configPath, 'utf8');
  } catch (err) {
    const code = (err as { code?: string }).code;
    throw new CprcError(
      'CPRC_CONFIG_INVALID',
      code === 'ENOENT'
        ? `${file}: no such config file; give the path of your run configuration with --config`
        : `${file}: cannot read the config file (${(err as Error).message})`,
    );
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new CprcError(
      'CPRC_CONFIG_INVALID',
      `${file}: not valid JSON (${(err as Error).message}); the run configuration is one JSON object (profile section 5)`,
    );
  }
  const validate = getSchemaValidator('tool/run-config');
  if (!validate(raw)) {
    const errors = (validate.errors ?? []).filter((e) => e.keyword !== 'if');
    const lines = [...new Set(errors.map(describeConfigError))].slice(0, 10);
    throw new CprcError(
      'CPRC_CONFIG_INVALID',
      `${file}: invalid run configuration:\n  - ${lines.join('\n  - ')}`,
    );
  }
  const config = structuredClone(raw) as RunConfig;
  checkPrincipalKeys(config, file);
  if (config.tls) {
    for (const [key, name] of PATH_MEMBERS) {
      const v = config.tls[key];
      if (typeof v !== 'string') continue;
      const abs = isAbsolute(v) ? v : resolve(configDir, v);
      try {
        accessSync(abs, constants.R_OK);
      } catch {
        throw new CprcError(
          'CPRC_CONFIG_INVALID',
          `${file}: "${name}": cannot read ${abs}; fix the path (relative paths start at the config file's folder)`,
        );
      }
      config.tls[key] = abs;
    }
  }
  if (config.wallet?.cwd !== undefined) config.wallet.cwd = resolve(configDir, config.wallet.cwd);
  const command = config.wallet?.command;
  if (command && command.length > 0) {
    const program = command[0] ?? '';
    if (program.startsWith('./') || program.startsWith('../'))
      command[0] = resolve(config.wallet?.cwd ?? configDir, program);
  }
  if (!TARGETS.some((t) => config[t] !== undefined)) {
    throw new CprcError(
      'CPRC_CONFIG_INVALID',
      `${file}: no target section; add at least one of "payee", "wallet", "operator" (profile section 5)`,
    );
  }
  return { config, configPath, configDir };
}

/**
 * The targets of a run: those named (each must have a config section, unless a custom driver
 * module may provide it) or else every target with a section.
 */
export function selectTargets(
  config: RunConfig,
  named: readonly string[] | undefined,
  hasDriverModule: boolean,
): Target[] {
  if (!named || named.length === 0) return TARGETS.filter((t) => config[t] !== undefined);
  const out: Target[] = [];
  for (const n of named) {
    if (!(TARGETS as readonly string[]).includes(n)) {
      throw new CprcError('CPRC_USAGE', `--target ${n}: unknown target; use payee, wallet or operator`);
    }
    if (config[n as Target] === undefined && !hasDriverModule) {
      throw new CprcError(
        'CPRC_USAGE',
        `--target ${n}: the config has no "${n}" section; add it or drop --target ${n}`,
      );
    }
    if (!out.includes(n as Target)) out.push(n as Target);
  }
  return out;
}

/** The URLs (and wallet command) of each target, without secrets, for the start event and reports. */
export function targetUrls(config: RunConfig, targets: readonly Target[]): StartEvent['target_urls'] {
  const out: StartEvent['target_urls'] = {};
  const pick = (section: Record<string, unknown> | undefined, keys: string[]): Endpoints => {
    const r: Endpoints = {};
    for (const k of keys) {
      const v = section?.[k];
      if (typeof v === 'string') r[k] = v;
      else if (Array.isArray(v) && v.every((x) => typeof x === 'string')) r[k] = v as string[];
    }
    return r;
  };
  for (const t of targets) {
    if (t === 'payee') out.payee = pick(config.payee, ['base_url', 'harness_url', 'plain_http_url']);
    if (t === 'wallet') out.wallet = pick(config.wallet, ['harness_url', 'command']);
    if (t === 'operator') out.operator = pick(config.operator, ['base_url', 'harness_url']);
  }
  return out;
}

/**
 * Finds the program of `wallet.command` (a path, or a name on PATH); throws `CPRC_CONFIG_INVALID`
 * naming it when it is not there, so a run never starts against a missing wallet command.
 */
export function checkWalletCommand(command: readonly string[], configDir: string): void {
  const program = command[0];
  if (!program)
    throw new CprcError(
      'CPRC_CONFIG_INVALID',
      '"wallet.command" is empty; give the program and its arguments',
    );
  const candidates =
    program.includes('/') || program.includes('\\')
      ? [isAbsolute(program) ? program : resolve(configDir, program)]
      : (process.env.PATH ?? '')
          .split(delimiter)
          .filter(Boolean)
          .map((d) => join(d, program));
  for (const c of candidates) {
    try {
      if (statSync(c).isFile()) {
        accessSync(c, constants.X_OK);
        return;
      }
    } catch {
      // try the next candidate
    }
  }
  throw new CprcError(
    'CPRC_TARGET_UNREACHABLE',
    `"wallet.command": program "${program}" not found or not executable; fix the path (relative paths start at the config file's folder) or PATH`,
  );
}

/**
 * Refuses a principal whose private key does not belong to its public key (`d` of another key
 * than `x`), or whose `d` is no Ed25519 private key: such a run would only yield errors on every
 * signed request. Names the principal, never the key (a secret).
 */
export function checkPrincipalKeys(config: RunConfig, file: string): void {
  const principals = (config.operator?.principals ?? {}) as Record<string, unknown>;
  for (const [name, principal] of Object.entries(principals)) {
    const jwk = (
      principal as { private_key_jwk?: { kty?: unknown; crv?: unknown; x?: unknown; d?: unknown } }
    )?.private_key_jwk;
    if (!jwk || typeof jwk.d !== 'string' || typeof jwk.x !== 'string') continue;
    const member = `operator.principals.${name}.private_key_jwk`;
    let x: string;
    try {
      const key = createPrivateKey({
        key: { kty: 'OKP', crv: 'Ed25519', d: jwk.d, x: jwk.x },
        format: 'jwk',
      });
      // the raw public key is the last 32 bytes of its SPKI DER form
      x = createPublicKey(key).export({ format: 'der', type: 'spki' }).subarray(-32).toString('base64url');
    } catch {
      throw new CprcError(
        'CPRC_CONFIG_INVALID',
        `${file}: "${member}": "d" is not an Ed25519 private key (32 bytes, base64url); give principal "${name}"'s own key pair`,
      );
    }
    if (x !== jwk.x) {
      throw new CprcError(
        'CPRC_CONFIG_INVALID',
        `${file}: "${member}": the private key "d" does not belong to the public key "x" of principal "${name}"; give that principal's own key pair (every signed request would fail otherwise)`,
      );
    }
  }
}
