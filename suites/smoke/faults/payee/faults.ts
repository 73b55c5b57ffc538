/**
 * Deliberately faulty checks (run only by test/runner/ with suitesRoot `dist/suites/smoke/faults`):
 * they prove how the runner classifies every kind of failure.
 */
import { strict as assert } from 'node:assert';
import { check, skip } from '../../../_lib/index.js';

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

  it('[CPR-5-TOKEN-SINGLE-USE] a plain mocha it failing an assertion is classified from its title', () => {
    assert.ok(false, 'plain it failed');
  });

  it('[PRF-2-TOKEN-FORMAT] a plain mocha it on a PROFILE rule is a warning', () => {
    assert.ok(false, 'plain profile failed');
  });
});

describe('faults: a failing before hook', () => {
  before(() => {
    throw new Error('the before hook broke');
  });
  check('runs', ['CPR-5-PAYLOAD-TLS-ONLY'], 'never runs', () => undefined);
});
