import { createHash } from 'node:crypto';
import { relative, sep } from 'node:path';
import Mocha from 'mocha';
import type { Recorder } from '../drivers/recorder.js';
import { failureState } from './classify.js';
import { peekOutcome } from './context.js';
import type { Target, TestResult } from './types.js';

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

function isAssertion(err: unknown): boolean {
  const e = err as { name?: string; code?: string; message?: string } | undefined;
  return (
    e?.name === 'AssertionError' ||
    e?.code === 'ERR_ASSERTION' ||
    /^Property failed after \d+ tests?/.test(e?.message ?? '')
  );
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
  }
}

function firstLine(s: string | undefined): string {
  return (s ?? '').split('\n')[0] ?? '';
}

/**
 * Mocha reporter of the child: turns every finished test (and every failed hook) into a
 * {@link TestResult} — state from the suite library's outcome, else from mocha — with the
 * exchanges recorded meanwhile, and hands it to `onResult` at once.
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

    const emit = (test: Mocha.Runnable, hookFailure?: unknown): void => {
      if (done.has(test)) return;
      done.add(test);
      const { file, target } = locate(test);
      const fullTitle = test.fullTitle();
      const outcome = peekOutcome(test);
      const requirements = outcome?.requirements ?? idsFromTitle(test.title);
      const result: TestResult = {
        id: outcome?.slug ? `${target}/${outcome.slug}` : testId(target, fullTitle),
        title: test.title,
        full_title: fullTitle,
        file,
        target,
        requirements,
        state: 'passed',
        duration_ms: Math.round(test.duration ?? 0),
        exchanges: opts.recorder.take(),
      };
      if (outcome?.channel) result.channel = outcome.channel;
      if (outcome?.property) result.property = outcome.property;
      const err = hookFailure ?? errors.get(test);
      const message = (e: unknown): string =>
        opts.recorder.redact(e instanceof Error ? e.message : e === undefined ? '' : String(e));
      if (hookFailure !== undefined) {
        result.state = 'error';
        result.message = `suite error in ${test.title}: ${message(hookFailure)}`;
      } else if (test.isPending() || outcome?.state === 'skipped') {
        result.state = 'skipped';
        result.skip_reason = outcome?.skip_reason ?? 'marked as pending in the suite';
      } else if (test.state === 'failed') {
        const code = (err as { code?: string } | undefined)?.code;
        if (code === 'ERR_MOCHA_TIMEOUT') {
          result.state = 'error';
          result.message = `timeout: the check did not finish within ${test.timeout()} ms (--timeout)`;
        } else if (outcome?.state === 'error' || outcome?.state === 'failed') {
          result.state = outcome.state;
          result.message = outcome.message ?? message(err);
        } else if (isAssertion(err)) {
          result.state = failureState(requirements);
          result.message = message(err);
        } else {
          result.state = 'error';
          result.message = `suite error: ${message(err)}`;
        }
      } else if (outcome?.state === 'warning') {
        result.state = 'warning';
        if (outcome.message !== undefined) result.message = outcome.message;
      } else {
        result.state = 'passed';
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
    runner.on(EVENT_TEST_END, (test: Mocha.Test) => emit(test));
  }
}
