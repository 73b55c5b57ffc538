import { describe, expect, it } from 'vitest';
import type { Requirement } from '../../src/catalog/index.js';
import type { Level, RunEvent, TestResult } from '../../src/model/results.js';
import { buildModel, type ReportInput, renderSummary } from '../../src/reporters/index.js';

// Two conformance levels, how much ran, --fail-on-skip and the expected-failures baseline.

function req(
  id: string,
  level: Requirement['level'],
  kind: Requirement['kind'],
  extra: Partial<Requirement> = {},
) {
  return {
    id,
    section: '5',
    text: `${id} text`,
    level,
    kind,
    actor: 'payee',
    source: kind === 'SPEC' ? 'CPR-1.0' : 'PROFILE',
    checks: [],
    ...extra,
  } as Requirement;
}

const CATALOG: Requirement[] = [
  req('CPR-5-A', 'MUST', 'SPEC'),
  req('CPR-5-B', 'MUST', 'SPEC'),
  req('CPR-5-UNTESTABLE', 'MUST', 'SPEC', { untestable: 'needs the payee source' }),
  req('CPR-5-WALLET', 'MUST', 'SPEC', { actor: 'wallet' }),
  req('PRF-2-C', 'MUST', 'PROFILE'),
  req('CPR-5-SHOULD', 'SHOULD', 'SPEC'),
];

function test(
  id: string,
  requirements: string[],
  state: TestResult['state'],
  extra: Partial<TestResult> = {},
) {
  return {
    id: `payee/${id}`,
    title: `[${requirements.join(' ')}] ${id}`,
    full_title: id,
    file: 'payee/x.js',
    target: 'payee',
    requirements,
    state,
    duration_ms: 1,
    exchanges: [],
    ...(state === 'failed' || state === 'warning' || state === 'error'
      ? { message: `${id} went wrong` }
      : {}),
    ...(state === 'skipped' ? { skip_reason: 'no harness' } : {}),
    ...extra,
  } as TestResult;
}

function input(level: Level, tests: TestResult[], extra: Partial<ReportInput> = {}): ReportInput {
  const events: RunEvent[] = [
    {
      type: 'start',
      suite_version: '0.1.0',
      seed: 1,
      runs: 10,
      targets: ['payee'],
      level,
      target_urls: {},
      started_at: '2026-11-22T12:00:00.000Z',
    },
    ...tests.map((t) => ({ type: 'test' as const, ...t })),
    { type: 'end', finished_at: '2026-11-22T12:01:00.000Z' },
  ];
  return {
    reportsDir: '/nonexistent',
    events,
    catalog: CATALOG,
    ambiguities: [],
    incomplete: false,
    config: {},
    ...extra,
  };
}

describe('two verdicts', () => {
  it('a PROFILE MUST failure fails the profile verdict only; the one asked is the run verdict', () => {
    const tests = [
      test('a', ['CPR-5-A'], 'passed'),
      test('b', ['CPR-5-B'], 'skipped'),
      test('c', ['PRF-2-C'], 'warning', { failure_level: 'profile' }),
      test('s', ['CPR-5-SHOULD'], 'warning', { failure_level: 'advisory' }),
    ];
    const { doc } = buildModel(input('spec', tests));
    expect(doc.level).toBe('spec');
    expect(doc.verdict).toBe('pass');
    expect(doc.verdicts.spec).toMatchObject({
      verdict: 'pass',
      failed: 0,
      must_applicable: 2, // CPR-5-A, CPR-5-B (untestable and wallet ones left out)
      must_exercised: 1,
      must_skipped: 1,
    });
    expect(doc.verdicts.spec.summary).toBe(
      'PASS (spec): 1 of 2 applicable MUST requirements exercised; 1 skipped',
    );
    expect(doc.verdicts.profile).toMatchObject({
      verdict: 'fail',
      failed: 1,
      must_applicable: 3,
      must_exercised: 2,
    });
    expect(doc.verdicts.profile.summary).toMatch(/^FAIL \(profile\): 2 of 3 .*; 1 checks failed$/);
    const md = renderSummary(buildModel(input('spec', tests)));
    expect(md).toContain('Level asked: **spec**');
    expect(md).toContain('PROFILE conformance: FAIL (profile)');
  });

  it('at level profile the same stream (states recorded at that level) fails the run', () => {
    const tests = [
      test('a', ['CPR-5-A'], 'passed'),
      test('c', ['PRF-2-C'], 'failed', { failure_level: 'profile' }),
    ];
    const { doc } = buildModel(input('profile', tests));
    expect(doc.verdict).toBe('fail');
    expect(doc.verdicts.spec.verdict).toBe('pass');
  });

  it('an error fails both verdicts; --fail-on-skip makes a skip fail both', () => {
    const errored = buildModel(input('spec', [test('a', ['CPR-5-A'], 'error')])).doc;
    expect(errored.verdicts.spec.verdict).toBe('fail');
    expect(errored.verdicts.profile.verdict).toBe('fail');
    const skipped = [test('a', ['CPR-5-A'], 'passed'), test('b', ['CPR-5-B'], 'skipped')];
    expect(buildModel(input('spec', skipped)).doc.verdict).toBe('pass');
    const strict = buildModel(input('spec', skipped, { failOnSkip: true })).doc;
    expect(strict.fail_on_skip).toBe(true);
    expect(strict.verdict).toBe('fail');
    expect(strict.verdicts.spec.summary).toMatch(/1 checks were skipped \(--fail-on-skip\)/);
  });
});

describe('expected-failures baseline', () => {
  const tests = () => [
    test('a', ['CPR-5-A'], 'failed', { failure_level: 'spec' }),
    test('b', ['CPR-5-B'], 'passed'),
    test('c', ['PRF-2-C'], 'failed', { failure_level: 'profile' }),
  ];

  it('a listed failure is an expected failure: reported, not failing the run', () => {
    const { doc } = buildModel(
      input('profile', tests(), {
        baseline: {
          file: 'b.json',
          document: {
            entries: [
              { check: 'payee/a', reason: 'TICKET-1' },
              { requirement: 'PRF-2-C', reason: 'TICKET-2' },
            ],
          },
        },
      }),
    );
    expect(doc.verdict).toBe('pass');
    expect(doc.counts).toMatchObject({ failed: 0, expected_failure: 2, passed: 1, total: 3 });
    expect(doc.tests.find((t) => t.id === 'payee/a')?.expected_failure).toBe('TICKET-1');
    expect(doc.baseline?.entries.map((e) => e.status)).toEqual(['matched', 'matched']);
    const md = renderSummary(
      buildModel(
        input('profile', tests(), {
          baseline: { file: 'b.json', document: { entries: [{ check: 'payee/a', reason: 'TICKET-1' }] } },
        }),
      ),
    );
    expect(md).toContain('Expected failures, listed in the baseline (1)');
  });

  it('a listed entry whose check now passes is stale and fails the run', () => {
    const { doc } = buildModel(
      input('profile', [test('b', ['CPR-5-B'], 'passed')], {
        baseline: { file: 'b.json', document: { entries: [{ check: 'payee/b', reason: 'fixed since' }] } },
      }),
    );
    expect(doc.baseline?.entries[0]).toMatchObject({ status: 'stale', tests: ['payee/b'] });
    expect(doc.verdict).toBe('fail');
    expect(doc.verdicts.spec.summary).toMatch(/1 baseline entries are stale/);
  });

  it('an entry naming a check that did not run is not-run and does not fail the run', () => {
    const { doc } = buildModel(
      input('profile', [test('b', ['CPR-5-B'], 'skipped')], {
        baseline: {
          file: 'b.json',
          document: {
            entries: [
              { check: 'payee/b', reason: 'x' },
              { check: 'payee/zzz', reason: 'y' },
            ],
          },
        },
      }),
    );
    expect(doc.baseline?.entries.map((e) => e.status)).toEqual(['not-run', 'not-run']);
    expect(doc.verdict).toBe('pass');
  });

  it('an unlisted failure still fails the run; a SHOULD warning is never baselined', () => {
    const { doc } = buildModel(
      input('profile', [...tests(), test('s', ['CPR-5-SHOULD'], 'warning', { failure_level: 'advisory' })], {
        baseline: {
          file: 'b.json',
          document: {
            entries: [
              { check: 'payee/a', reason: 'T' },
              { check: 'payee/s', reason: 'T' },
            ],
          },
        },
      }),
    );
    expect(doc.verdict).toBe('fail');
    expect(doc.counts).toMatchObject({ failed: 1, expected_failure: 1, warning: 1 });
    expect(doc.baseline?.entries[1]?.status).toBe('not-run');
  });
});
