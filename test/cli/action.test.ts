/**
 * The GitHub Action: action.yml's run step passes exactly the inputs the script reads and
 * exposes exactly the outputs it writes; the script (the built dist/src/cli/action.js the step
 * runs) is run here with the same INPUT_* variables, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ActionInputs, runArguments } from '../../src/cli/action.js';

const ROOT = join(import.meta.dirname, '..', '..');
// js-yaml ships with mocha (a dependency); it has no types of its own
const yaml = createRequire(import.meta.url)('js-yaml') as { load(text: string): unknown };

interface ActionYml {
  inputs: Record<string, { default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: {
    using: string;
    steps: Array<{ id?: string; uses?: string; run?: string; env?: Record<string, string>; if?: string }>;
  };
}
const action = yaml.load(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as ActionYml;
const runStep = action.runs.steps.find((step) => step.id === 'run');

const OUTPUT_NAMES = [
  'verdict',
  'spec-verdict',
  'profile-verdict',
  'passed',
  'failed',
  'warnings',
  'skipped',
  'errors',
  'total',
  'exit-code',
  'reports',
  'results',
];
const INPUT_NAMES: Array<keyof ActionInputs> = [
  'config',
  'reference',
  'targets',
  'reports',
  'level',
  'seed',
  'args',
];

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cprc-action-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the step's script as GitHub would: INPUT_* from the inputs (defaults applied), the two files. */
function runStepScript(inputs: Partial<Record<string, string>>, name: string) {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const [key, value] of Object.entries(runStep?.env ?? {})) {
    const input = /^\$\{\{ inputs\.([a-z-]+) \}\}$/.exec(value)?.[1] as string;
    env[key] = inputs[input] ?? action.inputs[input]?.default ?? '';
  }
  env.GITHUB_OUTPUT = join(dir, `${name}.output`);
  env.GITHUB_STEP_SUMMARY = join(dir, `${name}.summary.md`);
  const script = (runStep?.run ?? '').match(/^node "\$GITHUB_ACTION_PATH\/(.+)"$/)?.[1] as string;
  const r = spawnSync(process.execPath, [join(ROOT, script)], { cwd: dir, env, encoding: 'utf8' });
  const outputs = Object.fromEntries(
    readFileSync(env.GITHUB_OUTPUT, 'utf8')
      .trim()
      .split('\n')
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
  return { ...r, outputs, summary: readFileSync(env.GITHUB_STEP_SUMMARY, 'utf8') };
}

describe('action.yml', () => {
  it('is a composite action: Node set up, cpr-conformance installed, the script run, reports uploaded, the verdict enforced last', () => {
    expect(action.runs.using).toBe('composite');
    const uses = action.runs.steps.map((step) => step.uses ?? step.id ?? step.run?.split(' ')[0]);
    expect(uses).toEqual(['actions/setup-node@v4', 'npm', 'run', 'actions/upload-artifact@v4', 'echo']);
    expect(action.runs.steps[3]?.if).toContain('always()');
    expect(runStep?.run).toBe('node "$GITHUB_ACTION_PATH/dist/src/cli/action.js"');
    expect(existsSync(join(ROOT, 'dist', 'src', 'cli', 'action.js'))).toBe(true);
  });

  it('passes every input the script reads, and exposes every output it writes', () => {
    expect(runStep?.env).toEqual(
      Object.fromEntries(
        INPUT_NAMES.map((name) => [`INPUT_${name.toUpperCase()}`, `\${{ inputs.${name} }}`]),
      ),
    );
    for (const name of INPUT_NAMES) expect(action.inputs[name], name).toBeDefined();
    expect(Object.keys(action.outputs)).toEqual(OUTPUT_NAMES);
    for (const name of OUTPUT_NAMES)
      expect(action.outputs[name]?.value).toBe(`\${{ steps.run.outputs.${name} }}`);
  });
});

describe('the action script', () => {
  const base: ActionInputs = {
    config: '',
    reference: 'false',
    targets: '',
    reports: 'cprc-reports',
    level: '',
    seed: '',
    args: '',
  };

  it('maps the inputs to cprc run arguments and names a wrong input', () => {
    expect(
      runArguments({
        ...base,
        config: 'ci.json',
        targets: 'payee operator',
        level: 'spec',
        seed: '7',
        args: '--runs 50',
      }),
    ).toEqual([
      'run',
      '--config',
      'ci.json',
      '--target',
      'payee',
      'operator',
      '--reports',
      'cprc-reports',
      '--level',
      'spec',
      '--seed',
      '7',
      '--runs',
      '50',
    ]);
    expect(() => runArguments(base)).toThrow('input "config" (your run configuration) is required');
    expect(() => runArguments({ ...base, config: 'x', reference: 'true' })).toThrow('not both');
    expect(() => runArguments({ ...base, reference: 'yes' })).toThrow(
      'input "reference" must be true or false',
    );
    expect(() => runArguments({ ...base, reference: 'true', targets: 'bank' })).toThrow(
      '"bank" is not one of',
    );
    expect(() => runArguments({ ...base, reference: 'true', level: 'strict' })).toThrow('input "level"');
  });

  it('with the same inputs as a workflow: runs cprc, writes the outputs from results.json and the summary', () => {
    const r = runStepScript(
      {
        reference: 'true',
        targets: 'operator',
        reports: 'out',
        seed: '3',
        args: '--runs 5 --grep CP-3-ACTIVE',
      },
      'ok',
    );
    expect(r.status, r.stderr).toBe(0);
    const results = JSON.parse(readFileSync(join(dir, 'out', 'results.json'), 'utf8'));
    expect(results.seed).toBe(3);
    expect(Object.keys(r.outputs)).toEqual(OUTPUT_NAMES);
    expect(r.outputs).toMatchObject({
      verdict: results.verdict,
      'spec-verdict': results.verdicts.spec.verdict,
      'profile-verdict': results.verdicts.profile.verdict,
      passed: String(results.counts.passed),
      failed: String(results.counts.failed),
      total: String(results.counts.total),
      'exit-code': results.verdict === 'pass' ? '0' : '1',
      reports: join(dir, 'out'),
      results: join(dir, 'out', 'results.json'),
    });
    expect(Number(r.outputs.total)).toBeGreaterThan(0);
    expect(r.summary).toBe(readFileSync(join(dir, 'out', 'summary.md'), 'utf8'));
  });

  it('a wrong input: no run, verdict error, exit-code 2, an error annotation and a summary saying why', () => {
    const r = runStepScript({ reports: 'none' }, 'bad');
    expect(r.status).toBe(0);
    expect(r.outputs).toMatchObject({ verdict: 'error', 'exit-code': '2', results: '' });
    expect(r.stdout).toContain('::error title=cprc::input "config" (your run configuration) is required');
    expect(r.summary).toContain('CPR conformance: not run');
  });

  it('an unreachable target: cprc exits 2; the outputs carry that exit code and the errored preflight', () => {
    const config = join(dir, 'unreachable.json');
    writeFileSync(config, JSON.stringify({ payee: { base_url: 'https://127.0.0.1:9' } }));
    const r = runStepScript({ config, reports: 'unreachable' }, 'unreachable');
    expect(r.status).toBe(0);
    expect(r.outputs['exit-code']).toBe('2');
    expect(r.outputs.verdict).not.toBe('pass');
    expect(r.stdout).toContain('::error title=cprc::');
    // cprc writes its reports with one errored case per unreachable address: they are summarised
    expect(Number(r.outputs.errors)).toBeGreaterThan(0);
    expect(r.summary).toBe(readFileSync(join(dir, 'unreachable', 'summary.md'), 'utf8'));
  });
});
