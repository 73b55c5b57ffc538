/**
 * The logic of the GitHub Action (`action.yml` at the repository root): reads the action's
 * inputs from `INPUT_*` variables, runs `cprc run`, appends summary.md to the job summary
 * (`GITHUB_STEP_SUMMARY`) and writes the verdicts as step outputs (`GITHUB_OUTPUT`). It never
 * fails the step itself (so the reports are uploaded whatever the verdict): `exit-code` says
 * how cprc ended, and the action's last step fails the job on it when `fail-on-verdict` is true.
 *
 * Run as `node dist/src/cli/action.js`; {@link runAction} is the same with explicit inputs.
 *
 * @packageDocumentation
 */
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { packageRoot } from '../paths.js';

/** The action's inputs (action.yml `inputs`), as strings, the way GitHub passes them. */
export interface ActionInputs {
  /** Run configuration file (empty with `reference`). */
  config: string;
  /** `true`: run against the bundled reference stack. */
  reference: string;
  /** Space-separated targets (empty: every configured one). */
  targets: string;
  /** Reports folder. */
  reports: string;
  /** `spec` or `profile` (empty: cprc's default). */
  level: string;
  /** Property seed (empty: random, printed). */
  seed: string;
  /** More `cprc run` arguments, space-separated (no quoting: one argument per word). */
  args: string;
}

/** What {@link runAction} produced: the step outputs (also written to `GITHUB_OUTPUT`). */
export interface ActionOutputs {
  /** `pass`, `fail`, or `error` when no results.json was written (usage, config, unreachable target). */
  verdict: string;
  'spec-verdict': string;
  'profile-verdict': string;
  passed: string;
  failed: string;
  warnings: string;
  skipped: string;
  errors: string;
  total: string;
  /** Exit code of `cprc run` (0 pass, 1 fail, 2 usage/config/unreachable). */
  'exit-code': string;
  /** Absolute reports folder. */
  reports: string;
  /** Absolute path of results.json ('' when none was written). */
  results: string;
}

const TARGETS = new Set(['payee', 'wallet', 'operator']);

/**
 * The `cprc run` arguments for the inputs.
 * @throws Error naming the input that is wrong (shown as an `::error::` annotation).
 */
export function runArguments(inputs: ActionInputs): string[] {
  const reference = inputs.reference.trim().toLowerCase();
  if (reference !== '' && reference !== 'true' && reference !== 'false') {
    throw new Error(`input "reference" must be true or false, got ${JSON.stringify(inputs.reference)}`);
  }
  const useReference = reference === 'true';
  const config = inputs.config.trim();
  if (useReference === (config !== '')) {
    throw new Error(
      useReference
        ? 'give either input "config" or "reference: true", not both'
        : 'input "config" (your run configuration) is required unless "reference" is true',
    );
  }
  const argv = ['run', ...(useReference ? ['--reference'] : ['--config', config])];
  const targets = inputs.targets.split(/[\s,]+/).filter(Boolean);
  for (const target of targets) {
    if (!TARGETS.has(target)) {
      throw new Error(`input "targets": ${JSON.stringify(target)} is not one of payee, wallet, operator`);
    }
  }
  if (targets.length) argv.push('--target', ...targets);
  argv.push('--reports', inputs.reports.trim() || 'cprc-reports');
  const level = inputs.level.trim();
  if (level) {
    if (level !== 'spec' && level !== 'profile') {
      throw new Error(`input "level" must be spec or profile, got ${JSON.stringify(level)}`);
    }
    argv.push('--level', level);
  }
  const seed = inputs.seed.trim();
  if (seed) {
    if (!/^\d+$/.test(seed))
      throw new Error(`input "seed" must be a positive integer, got ${JSON.stringify(seed)}`);
    argv.push('--seed', seed);
  }
  argv.push(...inputs.args.split(/\s+/).filter(Boolean));
  return argv;
}

/** Inputs from the environment (`INPUT_CONFIG`, ...), as the action's run step passes them. */
export function inputsFromEnv(env: NodeJS.ProcessEnv): ActionInputs {
  const get = (name: string): string => env[`INPUT_${name.toUpperCase()}`] ?? '';
  return {
    config: get('config'),
    reference: get('reference'),
    targets: get('targets'),
    reports: get('reports'),
    level: get('level'),
    seed: get('seed'),
    args: get('args'),
  };
}

/** Runs `cprc` (this package's bin) with `argv` in `cwd`, output passed through; resolves its exit code. */
function runCprc(argv: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(packageRoot(), 'bin', 'cprc.js'), ...argv], {
      cwd,
      env,
      stdio: 'inherit',
    });
    child.on('error', () => done(2));
    child.on('close', (code) => done(code ?? 2));
  });
}

function writeOutputs(file: string | undefined, outputs: ActionOutputs): void {
  if (!file) return;
  // every value is one line (numbers, words, paths); a path with a line break is refused by cprc
  const lines = Object.entries(outputs).map(
    ([key, value]) => `${key}=${String(value).replace(/[\r\n]/g, ' ')}`,
  );
  appendFileSync(file, `${lines.join('\n')}\n`);
}

/**
 * Runs the action: `cprc run` with the inputs, then the summary and the outputs. Resolves the
 * outputs; never rejects for a failed run (see `exit-code`).
 *
 * @example
 * ```ts
 * const out = await runAction(inputsFromEnv(process.env), { cwd: process.cwd(), env: process.env });
 * ```
 */
export async function runAction(
  inputs: ActionInputs,
  options: { cwd: string; env: NodeJS.ProcessEnv; log?: (line: string) => void },
): Promise<ActionOutputs> {
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const reports = resolve(options.cwd, inputs.reports.trim() || 'cprc-reports');
  const empty: ActionOutputs = {
    verdict: 'error',
    'spec-verdict': '',
    'profile-verdict': '',
    passed: '0',
    failed: '0',
    warnings: '0',
    skipped: '0',
    errors: '0',
    total: '0',
    'exit-code': '2',
    reports,
    results: '',
  };
  let argv: string[];
  try {
    argv = runArguments(inputs);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    log(`::error title=cprc::${message}`);
    writeOutputs(options.env.GITHUB_OUTPUT, empty);
    if (options.env.GITHUB_STEP_SUMMARY) {
      appendFileSync(options.env.GITHUB_STEP_SUMMARY, `## CPR conformance: not run\n\n${message}\n`);
    }
    return empty;
  }
  log(`cprc ${argv.join(' ')}`);
  const exitCode = await runCprc(argv, options.cwd, options.env);
  const resultsPath = join(reports, 'results.json');
  let outputs: ActionOutputs = { ...empty, 'exit-code': String(exitCode) };
  if (existsSync(resultsPath)) {
    try {
      const doc = JSON.parse(readFileSync(resultsPath, 'utf8'));
      const c = doc.counts ?? {};
      outputs = {
        ...outputs,
        verdict: String(doc.verdict),
        'spec-verdict': String(doc.verdicts?.spec?.verdict ?? ''),
        'profile-verdict': String(doc.verdicts?.profile?.verdict ?? ''),
        passed: String(c.passed ?? 0),
        failed: String(c.failed ?? 0),
        warnings: String(c.warning ?? 0),
        skipped: String(c.skipped ?? 0),
        errors: String(c.error ?? 0),
        total: String(c.total ?? 0),
        results: resultsPath,
      };
    } catch {
      log(`::warning title=cprc::${resultsPath} is not readable JSON`);
    }
  }
  if (options.env.GITHUB_STEP_SUMMARY) {
    const summary = join(reports, 'summary.md');
    appendFileSync(
      options.env.GITHUB_STEP_SUMMARY,
      existsSync(summary)
        ? readFileSync(summary, 'utf8')
        : `## CPR conformance: no report\n\n\`cprc run\` ended with exit code ${exitCode} before writing reports; see the step log.\n`,
    );
  }
  if (outputs.verdict === 'error')
    log(`::error title=cprc::cprc run ended with exit code ${exitCode} and no results.json`);
  else if (exitCode !== 0)
    log(`::error title=cprc::conformance verdict ${outputs.verdict} (exit code ${exitCode})`);
  writeOutputs(options.env.GITHUB_OUTPUT, outputs);
  return outputs;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  await runAction(inputsFromEnv(process.env), { cwd: process.cwd(), env: process.env });
}
