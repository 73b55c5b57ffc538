/** Shell lines that reproduce an exchange (style.md habit 3: every failure can be reproduced). */
import type { ConformanceResults, Exchange } from '../model/results.js';

/**
 * Quotes one argument for a POSIX shell: bare when it holds only safe characters, otherwise in
 * single quotes (an embedded `'` becomes `'\''`), so nothing in it is expanded.
 *
 * @example
 * ```ts
 * shellQuote("it's"); // 'it'\''s'
 * ```
 */
export function shellQuote(arg: string): string {
  if (arg !== '' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** A command line from argv, each argument quoted with {@link shellQuote}. */
export function commandLine(argv: readonly string[]): string {
  return argv.map(shellQuote).join(' ');
}

/**
 * What the reports say instead of a run's command line when its results.json records none (it
 * was written by a version that did not record it, or the run was started through the API):
 * that it was not recorded, and what is known of the run.
 *
 * @example
 * ```ts
 * commandNotRecorded(doc);
 * // 'The command line of this run was not recorded (results.json of cpr-conformance 0.0.9,
 * //  run started 2026-05-01T10:00:00.000Z, targets payee, operator).'
 * ```
 */
export function commandNotRecorded(
  doc: Pick<ConformanceResults, 'suite_version' | 'started_at' | 'targets'>,
): string {
  const targets = doc.targets.length > 0 ? doc.targets.join(', ') : '(none)';
  return (
    `The command line of this run was not recorded (results.json of cpr-conformance ${doc.suite_version}, ` +
    `run started ${doc.started_at}, targets ${targets}).`
  );
}

/** A here-document delimiter that is not a line of `body` (so the body cannot end it early). */
function heredocDelimiter(body: string): string {
  const lines = new Set(body.split(/\r?\n/));
  let delimiter = 'EOF';
  for (let n = 1; lines.has(delimiter); n += 1) delimiter = `EOF_${n}`;
  return delimiter;
}

/** Request headers curl sets itself or that would break a replay. */
const SKIP_HEADERS = new Set([
  'host',
  'content-length',
  'connection',
  'transfer-encoding',
  'accept-encoding',
]);

/** Header lines and the body as a quoted here-document (`<<'EOF'`: nothing in it is expanded). */
function withBody(head: string, body: string | undefined, stdinFlag: string): string {
  if (body === undefined || body === '') return head;
  const delimiter = heredocDelimiter(body);
  return `${head}${stdinFlag} <<'${delimiter}'\n${body}\n${delimiter}`;
}

/**
 * A curl line that replays an HTTP exchange: `curl --cacert <ca> -X POST <url> -H ... --data-binary @- <<'EOF'`
 * with the body in a quoted here-document. Redacted header values stay `[redacted]`: put your
 * own credential there. Returns undefined for a stdio exchange or one without a URL.
 *
 * @example
 * ```ts
 * curlCommand({ kind: 'http', method: 'GET', url: 'https://127.0.0.1:8443/x', duration_ms: 3 }, 'ca.pem');
 * // "curl --cacert ca.pem -X GET https://127.0.0.1:8443/x"
 * ```
 */
export function curlCommand(exchange: Exchange, caFile: string): string | undefined {
  if (exchange.kind !== 'http' || !exchange.url) return undefined;
  const argv = ['curl'];
  if (exchange.url.toLowerCase().startsWith('https:')) argv.push('--cacert', caFile);
  argv.push('-X', exchange.method ?? 'GET', exchange.url);
  for (const [name, value] of Object.entries(exchange.request_headers ?? {})) {
    if (SKIP_HEADERS.has(name.toLowerCase())) continue;
    for (const item of Array.isArray(value) ? value : [value]) argv.push('-H', `${name}: ${item}`);
  }
  return withBody(commandLine(argv), exchange.request_body, ' --data-binary @-');
}

/**
 * A shell line that replays a stdio exchange: the wallet command with the request line on stdin.
 * Returns undefined for an HTTP exchange or when the command is unknown.
 */
export function stdioCommand(exchange: Exchange, command: readonly string[] | undefined): string | undefined {
  if (exchange.kind !== 'stdio' || !command || command.length === 0) return undefined;
  return withBody(commandLine(command), exchange.request_body, '');
}
