/**
 * The package as a consumer gets it. A clean copy of the sources (no dist/) is packed with
 * `npm pack --json`, which runs the `prepare` lifecycle (the build) as `npm ci` does: its output
 * must not reach stdout, or the JSON is broken. The tarball is installed offline (npm cache, see
 * consumer-lock.ts) into
 * a scratch project in a temporary folder, outside this repository so nothing resolves from our
 * own node_modules, and imported from plain ESM and from TypeScript (`moduleResolution` node16
 * and bundler, `skipLibCheck` off so our shipped declarations are checked) with the repo's tsc.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consumerLock } from './consumer-lock.js';

const ROOT = join(import.meta.dirname, '..', '..');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
/** What the build (tsconfig.build.json) and the pack read. */
const SOURCES = [
  'package.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'README.md',
  'LICENSE',
  'bin',
  'src',
  'suites',
  'schemas',
  'scripts',
  'bench',
  'docs',
  'examples',
  // the build compiles test/broken, which imports from elsewhere under test/
  'test',
];

interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], cwd: string): Ran {
  const r = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false' },
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function ok(r: Ran, what: string): Ran {
  if (r.status !== 0) throw new Error(`${what} exited ${r.status}\n${r.stdout}\n${r.stderr}`);
  return r;
}

let work: string;
let consumer: string;
let packStdout: string;
let packStderr: string;

const PLAIN = `
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
const loaded = () => Object.keys(createRequire(import.meta.url).cache);
const heavy = (list) => list.filter((f) => /[\\\\/](mocha|undici|@peculiar|reflect-metadata)[\\\\/]/.test(f)).length;
const { validateCpr } = await import('cpr-conformance/validator');
const doc = JSON.parse(readFileSync(new URL('./example.json', import.meta.url), 'utf8'));
const result = validateCpr(doc, { mode: 'payee' });
const light = { heavy: heavy(loaded()), reflectMetadata: typeof Reflect.getMetadata };
const root = await import('cpr-conformance');
const full = { heavy: heavy(loaded()), reflectMetadata: typeof Reflect.getMetadata };
const results = await import('cpr-conformance/results');
console.log(JSON.stringify({
  valid: result.valid,
  findings: result.findings.length,
  sameFunction: root.validateCpr === validateCpr,
  resultsExports: ['verifyBundle', 'diffResults', 'buildMatrix', 'rerenderReports'].filter((k) => typeof results[k] === 'function'),
  rootExports: ['runSuites', 'writeReports', 'startReferenceStack', 'loadCatalog'].filter((k) => typeof root[k] === 'function'),
  light,
  full,
}));
`;

const CONSUMER_TS = `
import { type Finding, type ValidationResult, validateCpr } from 'cpr-conformance/validator';
import { type Catalog, loadCatalog, type ReportInput, validateMessage } from 'cpr-conformance';
import { type BundleVerification, diffResults, type ResultsDiff } from 'cpr-conformance/results';

const result: ValidationResult = validateCpr({ cpr_version: 'CPR-1.0' }, { mode: 'payee', now: new Date() });
const first: Finding | undefined = result.findings[0];
const severity: 'error' | 'warning' | undefined = first?.severity;
const catalog: Catalog = loadCatalog();
const message: boolean = validateMessage('cashpack/lock-request', {}).valid;
const dir: ReportInput['reportsDir'] = 'reports';
const diff: (a: Parameters<typeof diffResults>[0], b: Parameters<typeof diffResults>[1]) => ResultsDiff = diffResults;
const verified: BundleVerification = { valid: false, reason: 'not checked' };
// @ts-expect-error the mode is 'wallet' or 'payee': proves the declarations were read, not any
validateCpr({}, { mode: 'sideways' });
// @ts-expect-error validateCpr returns a ValidationResult, not a string
const wrong: string = validateCpr({});
export { catalog, diff, dir, message, severity, verified, wrong };
`;

function tsconfig(module: string, moduleResolution: string): string {
  return JSON.stringify({
    compilerOptions: {
      module,
      moduleResolution,
      target: 'es2022',
      lib: ['es2023'],
      strict: true,
      noEmit: true,
      skipLibCheck: false,
    },
    files: ['consumer.ts'],
  });
}

describe('packed tarball in a scratch project', () => {
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'cprc-consumer-'));
    const pkg = join(work, 'pkg');
    for (const entry of SOURCES) cpSync(join(ROOT, entry), join(pkg, entry), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(pkg, 'node_modules'), 'dir');
    const pack = run(NPM, ['pack', '--json', '--pack-destination', work], pkg);
    packStdout = pack.stdout;
    packStderr = pack.stderr;
    ok(pack, 'npm pack --json (with the prepare build)');
    const [info] = JSON.parse(packStdout) as [{ filename: string }];
    consumer = join(work, 'consumer');
    mkdirSync(consumer);
    // npm resolves version ranges from registry metadata, which an offline cache lacks: the
    // scratch project gets a lock file pinning what this repository's lock pins.
    const { packageJson, lock } = consumerLock(
      JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')),
      JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')),
      `file:../${info.filename}`,
    );
    writeFileSync(join(consumer, 'package.json'), JSON.stringify(packageJson));
    writeFileSync(join(consumer, 'package-lock.json'), JSON.stringify(lock));
    ok(
      run(NPM, ['ci', '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], consumer),
      'npm ci --offline in the scratch project',
    );
    cpSync(join(ROOT, 'examples', 'payment-request.json'), join(consumer, 'example.json'));
    writeFileSync(join(consumer, 'plain.mjs'), PLAIN);
    writeFileSync(join(consumer, 'consumer.ts'), CONSUMER_TS);
    writeFileSync(join(consumer, 'tsconfig.node16.json'), tsconfig('node16', 'node16'));
    writeFileSync(join(consumer, 'tsconfig.bundler.json'), tsconfig('esnext', 'bundler'));
  }, 180_000);

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('npm pack --json prints only JSON although prepare built the package', () => {
    const parsed = JSON.parse(packStdout) as Array<{ files: Array<{ path: string }> }>;
    const paths = parsed[0]?.files.map((f) => f.path) ?? [];
    // the tarball's dist/ can only come from the prepare build: the copy had none
    expect(paths).toContain('dist/src/index.js');
    expect(paths).toContain('dist/src/validator/index.d.ts');
    expect(paths).toContain('dist/schemas-compiled.cjs');
    expect(paths).toContain('dist/schemas-compiled-cpr.cjs');
    expect(packStderr).toContain('prepare');
  });

  it('imports from plain ESM: the validator entry alone loads no mocha, undici, X.509 or polyfill', () => {
    const out = ok(run(process.execPath, ['plain.mjs'], consumer), 'node plain.mjs');
    const r = JSON.parse(out.stdout);
    expect(r).toMatchObject({ valid: true, findings: 0, sameFunction: true });
    expect(r.rootExports).toEqual(['runSuites', 'writeReports', 'startReferenceStack', 'loadCatalog']);
    expect(r.resultsExports).toEqual(['verifyBundle', 'diffResults', 'buildMatrix', 'rerenderReports']);
    expect(r.light).toEqual({ heavy: 0, reflectMetadata: 'undefined' });
    // the same probe sees them once the full entry is imported, so it is not blind
    expect(r.full.heavy).toBeGreaterThan(0);
  });

  it('runs the installed cprc binary', () => {
    const bin = join(consumer, 'node_modules', 'cpr-conformance', 'bin', 'cprc.js');
    const r = run(process.execPath, [bin, 'validate', 'example.json', '--mode', 'payee'], consumer);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('valid (payee reading): 0 warnings');
    const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
    expect(execFileSync(process.execPath, [bin, '--version'], { encoding: 'utf8' }).trim()).toBe(version);
  });

  it.each(['node16', 'bundler'])('type-checks from TypeScript with moduleResolution %s', (resolution) => {
    const r = run(process.execPath, [TSC, '-p', `tsconfig.${resolution}.json`], consumer);
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});
