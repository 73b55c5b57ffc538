/**
 * `cprc validate`: the reference validator on the command line. Reads one CPR from a file,
 * stdin, a `cpr://` URI (inline, or a reference retrieved over HTTPS) or a QR code in a PNG, or
 * many CPRs from an NDJSON stream, and prints the findings.
 *
 * Exit codes: 0 valid, 1 invalid (any error finding), 2 usage or I/O error.
 *
 * @packageDocumentation
 */
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { type Command, Option } from 'commander';
import type { Agent } from 'undici';
import { requirementById } from '../catalog/index.js';
import { CprcError } from '../errors.js';
import { parseRfc3339 } from '../validator/rfc3339.js';
import type { Finding, ValidationMode, ValidationResult } from '../validator/types.js';
import { validateCpr } from '../validator/validate-cpr.js';

/** Largest response body accepted from a CPR retrieval endpoint, and largest single input read. */
export const MAX_DOCUMENT_BYTES = 1024 * 1024;

/** Default timeout of a CPR retrieval, in milliseconds. */
export const DEFAULT_FETCH_TIMEOUT_MS = 10_000;

/** Requirement of "the payload is JSON text in UTF-8" (profile section 1). */
const REQ_JSON = 'PRF-1-JSON-UTF8';
/** Requirement of a request_id repeated across documents (spec 2.1, invariant 3). */
const REQ_UNIQUE = 'CPR-2.1-REQUEST-ID-UNIQUE';

/** Options of `cprc validate`, as commander parses them. */
interface ValidateCliOptions {
  mode: ValidationMode;
  now?: string;
  json?: boolean;
  ndjson?: boolean;
  ca?: string;
  timeout: string;
  maxValidity?: string;
}

/** What the options resolve to. */
interface Settings {
  mode: ValidationMode;
  now?: Date;
  maxValiditySeconds?: number;
  json: boolean;
  ca?: string;
  timeoutMs: number;
}

/** A document to validate plus the findings its delivery already produced (URI, QR, JSON). */
interface Loaded {
  /** Parsed document, or undefined when it could not be parsed (then `findings` say why). */
  doc?: unknown;
  /** Findings of the delivery layer (codec, JSON parsing). */
  findings: Finding[];
  /** Human description of the source, for the header line. */
  source: string;
}

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true });

function jsonFinding(message: string): Finding {
  return { requirement: REQ_JSON, level: 'PROFILE', severity: 'error', path: '', message };
}

/** Parses UTF-8 JSON bytes into a document, or a PRF-1-JSON-UTF8 finding. */
function parseJsonBytes(bytes: Uint8Array, what: string): { doc?: unknown; findings: Finding[] } {
  let text: string;
  try {
    text = fatalUtf8.decode(bytes);
  } catch {
    return { findings: [jsonFinding(`${what} is not utf-8 text`)] };
  }
  return parseJsonText(text.replace(/^\uFEFF/, ''), what);
}

function parseJsonText(text: string, what: string): { doc?: unknown; findings: Finding[] } {
  try {
    return { doc: JSON.parse(text), findings: [] };
  } catch (err) {
    const why = err instanceof Error ? err.message.replace(/^[A-Z]/, (c) => c.toLowerCase()) : String(err);
    return { findings: [jsonFinding(`${what} is not valid json (${why})`)] };
  }
}

/** Reads a stream to its end, refusing more than `max` bytes. */
async function readCapped(
  stream: AsyncIterable<Uint8Array | string>,
  max: number,
  what: string,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk);
    size += buf.length;
    if (size > max) {
      throw new CprcError(
        'CPRC_RESPONSE_TOO_LARGE',
        `${what} is larger than ${max} bytes; a cpr is far smaller (use --ndjson for many documents)`,
      );
    }
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}

/**
 * Retrieves a CPR over HTTPS (spec 4.1, profile 2): GET the retrieval URL with a timeout and a
 * size cap, trusting `--ca` when given. A non-200 answer is an I/O error naming the status and
 * the error code of the body.
 */
async function retrieve(url: string, settings: Settings): Promise<Uint8Array> {
  // undici is loaded only when a reference uri is retrieved (cold start of the common case).
  const { Agent, request } = await import('undici');
  let dispatcher: Agent | undefined;
  try {
    if (settings.ca !== undefined) {
      let ca: Buffer;
      try {
        ca = await readFile(settings.ca);
      } catch (err) {
        throw new CprcError(
          'CPRC_IO',
          `cannot read --ca file ${settings.ca} (${(err as Error).message}); give a PEM file`,
        );
      }
      dispatcher = new Agent({ connect: { ca } });
    }
    const signal = AbortSignal.timeout(settings.timeoutMs);
    let res: Awaited<ReturnType<typeof request>>;
    try {
      res = await request(url, {
        method: 'GET',
        headers: { accept: 'application/json' },
        signal,
        headersTimeout: settings.timeoutMs,
        bodyTimeout: settings.timeoutMs,
        ...(dispatcher ? { dispatcher } : {}),
      });
    } catch (err) {
      const e = err as Error & { code?: string; cause?: { code?: string; message?: string } };
      if (signal.aborted || e.name === 'TimeoutError' || e.code === 'UND_ERR_HEADERS_TIMEOUT') {
        throw new CprcError(
          'CPRC_TIMEOUT',
          `no answer from ${url} within ${settings.timeoutMs} ms; check the endpoint or raise --timeout`,
        );
      }
      const detail = e.cause?.message ?? e.message;
      const hint = /certificate|self.signed|issuer/i.test(detail)
        ? '; pass the CA that signed its certificate with --ca FILE'
        : '';
      throw new CprcError('CPRC_TARGET_UNREACHABLE', `cannot retrieve ${url}: ${detail}${hint}`, {
        cause: err,
      });
    }
    const body = await readCapped(res.body, MAX_DOCUMENT_BYTES, `the response of ${url}`).catch((err) => {
      res.body.destroy();
      throw err;
    });
    if (res.statusCode !== 200) {
      let code = '';
      try {
        const parsed = JSON.parse(body.toString('utf8')) as { error?: { code?: unknown } };
        if (typeof parsed?.error?.code === 'string') code = ` ${parsed.error.code}`;
      } catch {
        // not a JSON error body
      }
      throw new CprcError(
        'CPRC_IO',
        `${url} answered ${res.statusCode}${code}; a reference token works once: ask the payee for a new uri`,
      );
    }
    return body;
  } finally {
    await dispatcher?.close();
  }
}

/** Turns a `cpr://` URI into a document (inline: decoded; reference: retrieved). */
async function loadUri(uri: string, settings: Settings, source: string): Promise<Loaded> {
  const { decodeCprUri } = await import('../codec/uri.js');
  const decoded = decodeCprUri(uri);
  if (!decoded.ok) return { findings: decoded.findings, source };
  const findings = [...decoded.findings];
  if (decoded.value.kind === 'inline') {
    return { doc: decoded.value.document, findings, source: `${source} (inline uri)` };
  }
  const url = decoded.value.retrievalUrl;
  const body = await retrieve(url, settings);
  const parsed = parseJsonBytes(body, `the response of ${url}`);
  return {
    doc: parsed.doc,
    findings: [...findings, ...parsed.findings],
    source: `${source} (retrieved from ${url})`,
  };
}

/** Loads the single input named on the command line. */
async function loadInput(input: string, settings: Settings): Promise<Loaded> {
  if (input.startsWith('cpr://')) return loadUri(input, settings, 'uri');
  let bytes: Buffer;
  if (input === '-') {
    bytes = await readCapped(process.stdin, MAX_DOCUMENT_BYTES, 'stdin');
  } else {
    try {
      bytes = await readFile(input);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      const why =
        code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : (err as Error).message;
      throw new CprcError(
        'CPRC_IO',
        `cannot read ${input}: ${why}; give a json file, a png with a cpr qr code, a cpr:// uri or - for stdin`,
      );
    }
  }
  if (bytes.subarray(0, 8).toString('hex') === '89504e470d0a1a0a') {
    const { readQrPng } = await import('../codec/qr.js'); // pngjs and jsQR only for images
    const qr = readQrPng(bytes);
    if (!qr.ok) {
      const why = qr.findings.map((f) => f.message).join('; ');
      throw new CprcError(
        'CPRC_INPUT_INVALID',
        `cannot read a qr code from ${input}: ${why}; give a sharp png holding one cpr qr code`,
      );
    }
    const loaded = await loadUri(qr.text.trim(), settings, `qr code in ${input}`);
    return { ...loaded, findings: [...qr.findings, ...loaded.findings] };
  }
  const what = input === '-' ? 'stdin' : input;
  const head = bytes.subarray(0, 6).toString('utf8');
  if (head === 'cpr://') return loadUri(bytes.toString('utf8').trim(), settings, what);
  return { ...parseJsonBytes(bytes, what), source: what };
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

function verdict(result: ValidationResult, mode: ValidationMode): string {
  const errors = result.findings.filter((f) => f.severity === 'error').length;
  const warnings = result.findings.length - errors;
  return result.valid
    ? `valid (${mode} reading): ${plural(warnings, 'warning')}`
    : `invalid (${mode} reading): ${plural(errors, 'error')}, ${plural(warnings, 'warning')}`;
}

/** Validates a loaded document, merging the delivery findings first. */
function check(loaded: { doc?: unknown; findings: Finding[] }, settings: Settings): ValidationResult {
  const opts = {
    mode: settings.mode,
    ...(settings.now ? { now: settings.now } : {}),
    ...(settings.maxValiditySeconds ? { maxValiditySeconds: settings.maxValiditySeconds } : {}),
  };
  const own = 'doc' in loaded && loaded.doc !== undefined ? validateCpr(loaded.doc, opts).findings : [];
  const findings = [...loaded.findings, ...own];
  return { valid: !findings.some((f) => f.severity === 'error'), findings };
}

/** Validates one document per line of a file or stdin, streaming (never the whole input in memory). */
async function validateNdjson(input: string, settings: Settings): Promise<boolean> {
  let stream: Readable;
  if (input === '-') stream = process.stdin;
  else {
    stream = createReadStream(input);
    await new Promise<void>((resolve, reject) => {
      stream.once('open', () => resolve());
      stream.once('error', (err: NodeJS.ErrnoException) =>
        reject(
          new CprcError(
            'CPRC_IO',
            `cannot read ${input}: ${err.code === 'ENOENT' ? 'no such file' : err.message}; give an ndjson file or - for stdin`,
          ),
        ),
      );
    });
  }
  const lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  const seen = new Set<string>(); // request_ids, for uniqueness across the stream (spec 2.1)
  let lineNo = 0;
  let total = 0;
  let invalid = 0;
  let out = '';
  const flush = (): void => {
    if (out) process.stdout.write(out);
    out = '';
  };
  for await (const raw of lines) {
    lineNo++;
    const line = raw.trim();
    if (line === '') continue;
    total++;
    const parsed =
      Buffer.byteLength(line) > MAX_DOCUMENT_BYTES
        ? { findings: [jsonFinding(`line ${lineNo} is larger than ${MAX_DOCUMENT_BYTES} bytes`)] }
        : parseJsonText(line, `line ${lineNo}`);
    const result = check(parsed, settings);
    const id = (parsed.doc as { request_id?: unknown } | undefined)?.request_id;
    if (typeof id === 'string') {
      if (seen.has(id)) {
        result.findings.push({
          requirement: REQ_UNIQUE,
          level: 'SPEC',
          severity: 'error',
          path: '/request_id',
          message: `request_id ${id} was already used by an earlier line; every request needs its own`,
        });
        result.valid = false;
      } else seen.add(id);
    }
    if (!result.valid) {
      invalid++;
      out += settings.json
        ? `${JSON.stringify({ line: lineNo, valid: false, findings: result.findings })}\n`
        : `line ${lineNo}: ${verdict(result, settings.mode)}\n${formatFindings(result.findings)}\n`;
      if (out.length > 64 * 1024) flush();
    }
  }
  flush();
  const summary = { documents: total, valid: total - invalid, invalid };
  process.stdout.write(
    settings.json
      ? `${JSON.stringify({ summary })}\n`
      : `${invalid === 0 ? 'valid' : 'invalid'}: ${plural(total, 'document')}, ${summary.valid} valid, ${invalid} invalid (${settings.mode} reading)\n`,
  );
  return invalid === 0;
}

function settingsOf(opts: ValidateCliOptions): Settings {
  const settings: Settings = {
    mode: opts.mode,
    json: opts.json === true,
    timeoutMs: DEFAULT_FETCH_TIMEOUT_MS,
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
  const timeout = Number(opts.timeout);
  if (!Number.isInteger(timeout) || timeout <= 0) {
    throw new CprcError(
      'CPRC_USAGE',
      `--timeout ${JSON.stringify(opts.timeout)} must be a positive whole number of milliseconds`,
    );
  }
  settings.timeoutMs = timeout;
  if (opts.maxValidity !== undefined) {
    const max = Number(opts.maxValidity);
    if (!Number.isInteger(max) || max <= 0) {
      throw new CprcError(
        'CPRC_USAGE',
        `--max-validity ${JSON.stringify(opts.maxValidity)} must be a positive whole number of seconds`,
      );
    }
    settings.maxValiditySeconds = max;
  }
  if (opts.ca !== undefined) settings.ca = opts.ca;
  return settings;
}

/**
 * Registers `cprc validate <input>` on the program.
 *
 * @example
 * ```sh
 * cprc validate request.json --mode payee
 * cprc validate 'cpr://inline/eyJjcHJfdmVyc2lvbiI6...' --json
 * cprc validate qr.png --now 2026-06-01T12:00:00Z
 * cprc validate --ndjson requests.ndjson
 * ```
 */
export function registerValidate(program: Command): void {
  program
    .command('validate')
    .description(
      'validate a CPR: a JSON file, - for stdin, a cpr:// uri (a reference uri is retrieved over https, which uses up its token) or a png with a QR code',
    )
    .argument('<input>', 'file, -, cpr:// uri or png image')
    .addOption(
      new Option('--mode <mode>', 'payee: what a payee may emit; wallet: what a wallet must accept')
        .choices(['payee', 'wallet'])
        .default('wallet'),
    )
    .option('--now <iso>', 'judge expiry at this RFC 3339 instant instead of the current time')
    .option('--max-validity <seconds>', 'validity window ceiling before a warning (default 2592000, 30 days)')
    .option('--json', 'print {"valid", "findings"} as JSON')
    .option('--ndjson', 'validate one document per line (streamed); print invalid lines and a summary')
    .option('--ca <file>', 'PEM CA certificate to trust when retrieving a reference uri')
    .option('--timeout <ms>', 'timeout of a reference retrieval', String(DEFAULT_FETCH_TIMEOUT_MS))
    .action(async (input: string, opts: ValidateCliOptions) => {
      const settings = settingsOf(opts);
      if (opts.ndjson) {
        process.exitCode = (await validateNdjson(input, settings)) ? 0 : 1;
        return;
      }
      const loaded = await loadInput(input, settings);
      const result = check(loaded, settings);
      if (settings.json) {
        process.stdout.write(
          `${JSON.stringify({ valid: result.valid, findings: result.findings }, null, 2)}\n`,
        );
      } else {
        const body = result.findings.length > 0 ? `${formatFindings(result.findings)}\n` : '';
        process.stdout.write(`${loaded.source}\n${body}${verdict(result, settings.mode)}\n`);
      }
      process.exitCode = result.valid ? 0 : 1;
    });
}
