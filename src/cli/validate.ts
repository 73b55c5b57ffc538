/**
 * `cprc validate`: the reference validator on the command line. Parses the flags and prints;
 * loading the inputs (files, folders, globs, stdin, `cpr://` URIs, PNG QR codes, NDJSON
 * streams), the limits and the cross-document rule live in `src/validator/inputs/`.
 *
 * Exit codes: 0 every document valid, 1 any document invalid, 2 usage error or any input that
 * could not be read.
 *
 * @packageDocumentation
 */
import { type Command, Option } from 'commander';
import { requirementById } from '../catalog/index.js';
import { CprcError } from '../errors.js';
import type { Finding } from '../model/finding.js';
import {
  DEFAULT_MAX_BYTES,
  DEFAULT_TIMEOUT_MS,
  type InputResult,
  type ValidateInputsOptions,
  validateInputs,
} from '../validator/inputs/index.js';
import { parseRfc3339 } from '../validator/rfc3339.js';
import type { ValidationMode } from '../validator/types.js';

/** Options of `cprc validate`, as commander parses them. */
interface ValidateCliOptions {
  mode: ValidationMode;
  now?: string;
  json?: boolean;
  ndjson?: boolean;
  ca?: string;
  timeout: string;
  maxValidity?: string;
  maxBytes: string;
}

/** `CPR-1.0 2.6` for a requirement ID, from the catalog; '' when the catalog lacks it or cannot be read. */
function sectionOf(id: string): string {
  try {
    const r = requirementById(id);
    if (!r) return '';
    const source = r.source === 'PROFILE' ? 'profile' : r.source;
    return `${source} ${r.section}`;
  } catch {
    return '';
  }
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Human lines for a list of findings. */
function formatFindings(findings: readonly Finding[], indent = '  '): string {
  return findings
    .map((f) => {
      const section = sectionOf(f.requirement);
      const where = f.path === '' ? '(document)' : f.path;
      return `${indent}${f.severity.padEnd(7)} ${f.requirement} [${f.level}${section ? `, ${section}` : ''}] at ${where}\n${indent}        ${f.message}`;
    })
    .join('\n');
}

function verdict(result: InputResult, mode: ValidationMode): string {
  const errors = result.findings.filter((f) => f.severity === 'error').length;
  const warnings = result.findings.length - errors;
  return result.valid
    ? `valid (${mode} reading): ${plural(warnings, 'warning')}`
    : `invalid (${mode} reading): ${plural(errors, 'error')}, ${plural(warnings, 'warning')}`;
}

/** The human block of one document: where it came from, its findings, its verdict. */
function block(r: InputResult, mode: ValidationMode): string {
  const body = r.findings.length > 0 ? `${formatFindings(r.findings)}\n` : '';
  return `${r.source}\n${body}${verdict(r, mode)}\n`;
}

function positiveInt(value: string, flag: string, unit: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) {
    throw new CprcError(
      'CPRC_USAGE',
      `${flag} ${JSON.stringify(value)} must be a positive whole number of ${unit}`,
    );
  }
  return n;
}

function settingsOf(opts: ValidateCliOptions): ValidateInputsOptions {
  const settings: ValidateInputsOptions = {
    mode: opts.mode,
    timeoutMs: positiveInt(opts.timeout, '--timeout', 'milliseconds'),
    maxBytes: positiveInt(opts.maxBytes, '--max-bytes', 'bytes'),
  };
  if (opts.now !== undefined) {
    const t = parseRfc3339(opts.now);
    if (!t)
      throw new CprcError(
        'CPRC_USAGE',
        `--now ${JSON.stringify(opts.now)} is not an RFC 3339 date-time; e.g. 2026-06-01T12:00:00Z`,
      );
    settings.now = new Date(t.epochMs);
  }
  if (opts.maxValidity !== undefined) {
    settings.maxValiditySeconds = positiveInt(opts.maxValidity, '--max-validity', 'seconds');
  }
  if (opts.ca !== undefined) settings.ca = opts.ca;
  // worker threads for large folders and globs: automatic unless CPRC_VALIDATE_THREADS says how
  // many (0: none; the output is the same either way)
  const threads = process.env.CPRC_VALIDATE_THREADS;
  if (threads !== undefined && threads !== '') {
    const n = Number(threads);
    if (!Number.isInteger(n) || n < 0) {
      throw new CprcError(
        'CPRC_USAGE',
        `CPRC_VALIDATE_THREADS ${JSON.stringify(threads)} must be a whole number of worker threads (0: none)`,
      );
    }
    settings.threads = n;
  }
  if (opts.json && opts.ndjson)
    throw new CprcError('CPRC_USAGE', '--json and --ndjson exclude each other; give one');
  return settings;
}

/** Buffered stdout: one write per 64 KiB, not per document. */
class Out {
  private buf = '';
  write(s: string): void {
    this.buf += s;
    if (this.buf.length > 64 * 1024) this.flush();
  }
  flush(): void {
    if (this.buf) process.stdout.write(this.buf);
    this.buf = '';
  }
}

/** The shape printed by --json and --ndjson for one result. */
function record(r: InputResult): Record<string, unknown> {
  return r.error !== undefined
    ? { input: r.input, valid: false, findings: r.findings, error: r.error }
    : { input: r.input, valid: r.valid, findings: r.findings };
}

/**
 * Registers `cprc validate <input...>` on the program.
 *
 * @example
 * ```sh
 * cprc validate request.json --mode payee
 * cprc validate generated/ 'more/**\/*.json' --json
 * cprc validate 'cpr://inline/eyJjcHJfdmVyc2lvbiI6...'
 * cprc validate qr.png --now 2026-06-01T12:00:00Z
 * cat requests.ndjson | cprc validate - --ndjson
 * ```
 */
export function registerValidate(program: Command): void {
  program
    .command('validate')
    .description(
      'validate CPRs: JSON files, folders (every *.json below), globs, - for stdin, NDJSON (*.ndjson, *.jsonl, or one document per line on stdin), cpr:// uris (a reference uri is retrieved over https, which uses up its token) and PNGs with a QR code',
    )
    .argument('<input...>', 'files, folders, globs, -, cpr:// uris or png images')
    .addOption(
      new Option('--mode <mode>', 'payee: what a payee may emit; wallet: what a wallet must accept')
        .choices(['payee', 'wallet'])
        .default('wallet'),
    )
    .option('--now <iso>', 'judge expiry at this RFC 3339 instant instead of the current time')
    .option('--max-validity <seconds>', 'validity window ceiling before a warning (default 2592000, 30 days)')
    .option('--json', 'print a JSON array of {input, valid, findings}, one element per document')
    .option('--ndjson', 'print one JSON line {input, valid, findings} per document')
    .option('--ca <file>', 'PEM CA certificate to trust when retrieving a reference uri')
    .option(
      '--timeout <ms>',
      'total time of a reference retrieval, and longest wait for data from a fifo or device',
      String(DEFAULT_TIMEOUT_MS),
    )
    .option(
      '--max-bytes <n>',
      'max-bytes limit: largest file, stdin document, ndjson line or retrieved body',
      String(DEFAULT_MAX_BYTES),
    )
    .action(async (inputs: string[], opts: ValidateCliOptions) => {
      const settings = settingsOf(opts);
      const mode = settings.mode ?? 'wallet';
      const out = new Out();
      let total = 0;
      let invalid = 0;
      let unreadable = 0;
      let warnings = 0;
      let first: InputResult | undefined;
      const human = (r: InputResult): void => {
        if (r.error !== undefined) return; // printed on stderr when it arrives
        if (!r.valid) out.write(block(r, mode));
      };
      if (opts.json) out.write('[');
      for await (const r of validateInputs(inputs, settings)) {
        total++;
        if (r.error !== undefined) {
          unreadable++;
          out.flush();
          process.stderr.write(`cprc: ${r.error}\n`);
        } else if (!r.valid) invalid++;
        warnings += r.findings.length - r.findings.filter((f) => f.severity === 'error').length;
        if (opts.json) out.write(`${total > 1 ? ',' : ''}\n${JSON.stringify(record(r))}`);
        else if (opts.ndjson) out.write(`${JSON.stringify(record(r))}\n`);
        else if (total === 1) first = r;
        else {
          if (first) {
            human(first);
            first = undefined;
          }
          human(r);
        }
      }
      if (opts.json) out.write(total > 0 ? '\n]\n' : ']\n');
      else if (!opts.ndjson) {
        if (total === 1 && first && first.error === undefined) {
          // one document: always its block, whatever the verdict
          out.write(block(first, mode));
        } else if (total > 1 || (first && first.error === undefined)) {
          if (first) human(first);
          const valid = total - invalid - unreadable;
          const parts = [`${plural(total, 'document')}`, `${valid} valid`, `${invalid} invalid`];
          if (unreadable > 0) parts.push(`${unreadable} unreadable`);
          out.write(
            `${invalid + unreadable === 0 ? 'valid' : 'invalid'}: ${parts.join(', ')}, ${plural(warnings, 'warning')} (${mode} reading)\n`,
          );
        }
      }
      out.flush();
      if (total === 0) {
        throw new CprcError(
          'CPRC_IO',
          `no document found in ${inputs.join(' ')}; a folder is searched for *.json files, a glob must match files`,
        );
      }
      process.exitCode = unreadable > 0 ? 2 : invalid > 0 ? 1 : 0;
    });
}
