import { createHash } from 'node:crypto';
import { relative, sep } from 'node:path';
import Mocha from 'mocha';
import type { Recorder } from '../drivers/recorder.js';
import { outcomeOfTest, type Target, type TestResult } from '../model/results.js';

/** Options the child hands the reporter (through mocha's `reporterOptions`). */
export interface CprcReporterOptions {
  /** Compiled suites root; `file` and `target` are relative to it. */
  suitesRoot: string;
  /** Takes the exchanges recorded since the last test. */
  recorder: Recorder;
  /** Receives every finished test. */
  onResult: (result: TestResult) => void;
  /** Per-test timeout, for the timeout message. */
  timeoutMs: number;
  /** Position of a test in the whole run, recorded as `position` (a sharded run only). */
  positionOf?: (test: object) => number | undefined;
  /** A test another process runs (`--jobs`): not reported here. */
  ignore?: (test: object) => boolean;
  /** Called when a test or a describe block has ended (after its result was handed on). */
  onEnd?: (runnable: object) => void;
}

/** Requirement IDs from a title `[ID1 ID2] text`. */
export function idsFromTitle(title: string): string[] {
  const m = /^\[([^\]]+)\]/.exec(title);
  return m ? (m[1] ?? '').split(/\s+/).filter(Boolean) : [];
}

/**
 * Fallback test id for a mocha test that is not a {@link check} (a hook failure, a skipped
 * placeholder): `<target>/t-` and the first 16 hex digits of sha256(`${target}\n${fullTitle}`).
 */
export function testId(target: string, fullTitle: string): string {
  return `${target}/t-${createHash('sha256').update(`${target}\n${fullTitle}`, 'utf8').digest('hex').slice(0, 16)}`;
}

/** One progress line, as printed while the run goes. */
export function progressLine(r: TestResult): string {
  const label = `${r.title}${r.channel ? ` (${r.channel})` : ''}`;
  switch (r.state) {
    case 'passed':
      return `  ✓ ${label}`;
    case 'failed':
      return `  ✗ ${label}\n      ${firstLine(r.message)}`;
    case 'warning':
      return `  ! ${label}\n      warning: ${firstLine(r.message)}`;
    case 'skipped':
      return `  - ${label} (skipped: ${r.skip_reason ?? 'no reason given'})`;
    case 'error':
      return `  E ${label}\n      error: ${firstLine(r.message)}`;
    default:
      return `  ? ${label}`;
  }
}

function firstLine(s: string | undefined): string {
  return (s ?? '').split('\n')[0] ?? '';
}

/**
 * Mocha reporter of the child: serialises the outcome each {@link check} attached to its test
 * (`CHECK_OUTCOME`: state, failure level, message, requirements, channel, property, evidence)
 * into a {@link TestResult}, with the exchanges recorded meanwhile, and hands it to `onResult`
 * at once. It decides only what mocha alone knows: a check that timed out, a failing hook, a
 * pending test, and a mocha test that is not a check (a suite error).
 */
export class CprcReporter {
  constructor(runner: Mocha.Runner, options: { reporterOptions?: CprcReporterOptions }) {
    const opts = options.reporterOptions;
    if (!opts) throw new Error('CprcReporter needs reporterOptions');
    const errors = new WeakMap<object, unknown>();
    const { EVENT_TEST_FAIL, EVENT_TEST_END } = Mocha.Runner.constants;
    const done = new WeakSet<object>();

    const locate = (runnable: Mocha.Runnable): { file: string; target: Target } => {
      const abs = runnable.file ?? runnable.parent?.file ?? '';
      const file = abs ? relative(opts.suitesRoot, abs).split(sep).join('/') : '(unknown file)';
      const target = (file.split('/')[0] ?? 'payee') as Target;
      return { file, target };
    };
    const message = (e: unknown): string =>
      opts.recorder.redact(e instanceof Error ? e.message : e === undefined ? '' : String(e));

    const emit = (test: Mocha.Runnable, hookFailure?: unknown): void => {
      if (done.has(test) || opts.ignore?.(test)) return;
      done.add(test);
      const { file, target } = locate(test);
      const fullTitle = test.fullTitle();
      const outcome = outcomeOfTest(test);
      const recorded = opts.recorder.take();
      const result: TestResult = {
        id: outcome ? `${target}/${outcome.slug}` : testId(target, fullTitle),
        title: test.title,
        full_title: fullTitle,
        file,
        target,
        requirements: outcome ? [...outcome.requirements] : idsFromTitle(test.title),
        state: 'passed',
        duration_ms: Math.round(test.duration ?? 0),
        exchanges: outcome?.exchanges ?? recorded,
      };
      if (outcome?.channel) result.channel = outcome.channel;
      const position = opts.positionOf?.(test);
      if (position !== undefined) result.position = position;
      if (outcome?.property) result.property = outcome.property;
      if (outcome?.waited_ms !== undefined) result.waited_ms = outcome.waited_ms;
      const err = errors.get(test);
      if (hookFailure !== undefined) {
        result.state = 'error';
        result.message = `suite error in ${test.title}: ${message(hookFailure)}`;
      } else if ((err as { code?: string } | undefined)?.code === 'ERR_MOCHA_TIMEOUT') {
        result.state = 'error';
        result.message = `timeout: the check did not finish within ${test.timeout()} ms (--timeout)`;
      } else if (outcome?.state !== undefined) {
        // the check decided: serialise its outcome as it is
        result.state = outcome.state;
        if (outcome.failure_level) result.failure_level = outcome.failure_level;
        if (outcome.message !== undefined) result.message = outcome.message;
        if (outcome.skip_reason !== undefined) result.skip_reason = outcome.skip_reason;
      } else if (test.isPending()) {
        result.state = 'skipped';
        result.skip_reason = 'marked as pending in the suite';
      } else if (!outcome) {
        // a plain mocha test: suites register checks with check(), which carry their verdict
        result.state = 'error';
        result.message = `suite error: "${test.title}" is not registered with check() (suites/_lib), so it has no verdict${
          test.state === 'failed' ? `; it failed: ${message(err)}` : ''
        }`;
      } else {
        result.state = 'error';
        result.message = `suite error: the check ended without a verdict${err !== undefined ? `: ${message(err)}` : ''}`;
      }
      opts.onResult(result);
    };

    runner.on(EVENT_TEST_FAIL, (test: Mocha.Runnable, err: unknown) => {
      if ((test as { type?: string }).type === 'hook') {
        emit(test, err ?? 'hook failed');
        return;
      }
      errors.set(test, err);
    });
    runner.on(EVENT_TEST_END, (test: Mocha.Test) => {
      emit(test);
      opts.onEnd?.(test);
    });
    runner.on(Mocha.Runner.constants.EVENT_SUITE_END, (suite: Mocha.Suite) => opts.onEnd?.(suite));
  }
}
