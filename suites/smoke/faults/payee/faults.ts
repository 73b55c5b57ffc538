/**
 * Deliberately faulty checks (run only by test/runner/ with suitesRoot `dist/suites/smoke/faults`):
 * they prove how the runner classifies every kind of failure.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { assertProperty, assertThat, check, skip, warn } from '../../../_lib/index.js';

describe('faults: classification', () => {
  check(
    'node-assert-failure-should-warning',
    ['CPR-5-TOKEN-WINDOW-15-MIN'],
    'a node:assert failure on a SHOULD is a warning',
    () => {
      assert.equal(1, 2, 'one is not two');
    },
  );

  check(
    'bug-suite-error-failure',
    ['CPR-5-TOKEN-REUSE-ERROR'],
    'a bug in the suite is an error, not a failure',
    () => {
      const missing = undefined as unknown as { field: string };
      void missing.field.length;
    },
  );

  check(
    'check-ends-error-after-timeout',
    ['CPR-5-TLS-ONLY'],
    'a check that never ends is an error after --timeout',
    () => new Promise<void>(() => {}),
  );

  check('skip-skipped-reason', ['CPR-5-TOKEN-EXPIRY'], 'a skip is skipped with its reason', () => {
    skip('not applicable to this payee');
  });

  check(
    'spec-must-failure-failed',
    ['CPR-5-TOKEN-SINGLE-USE'],
    'a failed assertion on a SPEC MUST is failed at every level',
    () => {
      assert.ok(false, 'spec must failed');
    },
  );

  check(
    'profile-must-failure-level',
    ['PRF-2-TOKEN-FORMAT'],
    'a failed assertion on a PROFILE MUST is failed at level profile, a warning at level spec',
    () => {
      assert.ok(false, 'profile must failed');
    },
  );

  check(
    'warn-advisory',
    ['CPR-5-TOKEN-SINGLE-USE'],
    'warn() on a doubtful MUST is an advisory warning at every level',
    () => {
      warn('doubtful reading');
    },
  );

  check(
    'property-fresh-state-passes',
    ['CPR-5-TOKEN-SINGLE-USE'],
    'freshState runs before every run of a property: state of one case never reaches another',
    async () => {
      const seen = new Set<number>();
      await assertProperty(
        fc.property(fc.integer(), (n) => {
          assertThat(seen.size === 0, `case ${n} saw ${seen.size} earlier case(s)`);
          seen.add(n);
        }),
        { freshState: () => seen.clear() },
      );
    },
  );

  check(
    'property-failure-states-assertion',
    ['CPR-5-TOKEN-SINGLE-USE'],
    'a failed property states the assertion that failed on its shrunk counterexample',
    async () => {
      await assertProperty(
        fc.property(fc.integer({ min: 0, max: 1000 }), (n) => {
          assertThat(n < 10, `the value ${n} is below 10`);
        }),
      );
    },
  );

  it('[CPR-5-TOKEN-SINGLE-USE] a plain mocha it is not a check: a suite error', () => {
    assert.ok(false, 'plain it failed');
  });
});

describe('faults: a failing before hook', () => {
  before(() => {
    throw new Error('the before hook broke');
  });
  check('runs', ['CPR-5-PAYLOAD-TLS-ONLY'], 'never runs', () => undefined);
});
