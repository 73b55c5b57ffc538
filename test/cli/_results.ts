/**
 * Hand-made results.json documents for the tests of `cprc verify`, `diff`, `matrix` and
 * `report`: the shape `cprc run` writes (schemas/tool/results.schema.json), built from a list of
 * tests; counts and requirement verdicts are derived from them the way the reporters do.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConformanceResults, State, TestResult } from '../../src/model/results.js';

const ROOT = join(import.meta.dirname, '..', '..');
/** This installation's version: a bundle is signed only for results of the version that runs. */
export const SUITE_VERSION: string = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;

/** One test of a fixture. */
export interface FixtureTest {
  id: string;
  state: State;
  requirements: string[];
  seed?: number;
  message?: string;
}

/** Requirements of the fixtures: id to [level, kind]. */
export const FIXTURE_REQUIREMENTS: Record<string, ['MUST' | 'SHOULD', 'SPEC' | 'PROFILE']> = {
  'CPR-2.1-VERSION': ['MUST', 'SPEC'],
  'CPR-5-TOKEN-SINGLE-USE': ['MUST', 'SPEC'],
  'PRF-4-ERROR-ENVELOPE': ['MUST', 'PROFILE'],
  'CP-3-EXPIRED': ['MUST', 'SPEC'],
  'CP-4-RENEW-ROTATES': ['SHOULD', 'SPEC'],
};

function verdictOf(states: State[]): ConformanceResults['requirements'][number]['verdict'] {
  if (states.length === 0) return 'untested';
  for (const s of ['failed', 'error', 'warning', 'passed'] as const) if (states.includes(s)) return s;
  return 'skipped';
}

/** A results document from its tests. */
export function resultsDoc(
  tests: FixtureTest[],
  extra: {
    name?: string;
    seed?: number;
    started_at?: string;
    target_urls?: object;
    config_summary?: object;
  } = {},
): ConformanceResults {
  const full: TestResult[] = tests.map((t) => {
    const target = t.id.split('/')[0] as TestResult['target'];
    const base = {
      id: t.id,
      title: `[${t.requirements.join(' ')}] ${t.id.split('/').pop()}`,
      full_title: `suite [${t.requirements.join(' ')}] ${t.id.split('/').pop()}`,
      file: `${target}/x.js`,
      target,
      requirements: t.requirements,
      duration_ms: 1,
      exchanges: [],
      ...(t.seed !== undefined ? { property: { seed: t.seed, num_runs: 100 } } : {}),
    };
    if (t.state === 'skipped') return { ...base, state: 'skipped', skip_reason: t.message ?? 'no harness' };
    if (t.state === 'failed' || t.state === 'warning') {
      return { ...base, state: t.state, failure_level: 'spec', message: t.message ?? 'it broke' };
    }
    if (t.state === 'error') return { ...base, state: 'error', message: t.message ?? 'refused' };
    return { ...base, state: 'passed' };
  }) as TestResult[];
  const counts = { passed: 0, failed: 0, warning: 0, skipped: 0, error: 0, expected_failure: 0, total: 0 };
  for (const t of full) {
    counts[t.state] += 1;
    counts.total += 1;
  }
  const requirements = Object.entries(FIXTURE_REQUIREMENTS).map(([id, [level, kind]]) => {
    const named = full.filter((t) => t.requirements.includes(id));
    return { id, level, kind, verdict: verdictOf(named.map((t) => t.state)), tests: named.map((t) => t.id) };
  });
  const verdict = counts.failed + counts.error > 0 ? 'fail' : 'pass';
  const targets = [...new Set(full.map((t) => t.target))];
  const levelVerdict = {
    verdict,
    failed: counts.failed,
    must_applicable: 4,
    must_exercised: 4,
    must_skipped: 0,
    summary: verdict,
  };
  return {
    results_version: '1.0',
    suite_version: SUITE_VERSION,
    ...(extra.name ? { name: extra.name } : {}),
    started_at: extra.started_at ?? '2026-06-01T12:00:00.000Z',
    finished_at: '2026-06-01T12:01:00.000Z',
    incomplete: false,
    seed: extra.seed ?? 42,
    runs: 100,
    level: 'profile',
    fail_on_skip: false,
    targets,
    target_urls: extra.target_urls ?? { payee: { base_url: 'https://payee.example' } },
    config_summary: extra.config_summary ?? { payee: { base_url: 'https://payee.example' } },
    counts,
    verdict,
    verdicts: { spec: levelVerdict, profile: levelVerdict },
    tests: full,
    requirements,
    unknown_requirements: [],
  } as unknown as ConformanceResults;
}
