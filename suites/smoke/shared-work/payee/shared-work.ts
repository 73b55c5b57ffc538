/**
 * Checks sharing work (run only by test/runner/ with suitesRoot `dist/suites/smoke/shared-work`):
 * they prove that `sharedWork` builds once per run for the checks declaring it, and that a check
 * using it without the declaration is a suite error.
 */
import { assertThat, check, sharedState, sharedWork } from '../../../_lib/index.js';

let builds = 0;
const work = (): Promise<number> =>
  sharedWork('smoke:work', async () => {
    builds++;
    return 42;
  });

sharedState('smoke:work', ['first-declared-user-builds-it', 'second-declared-user-reuses-it']);

describe('shared work', () => {
  check(
    'first-declared-user-builds-it',
    ['CPR-5-TOKEN-SINGLE-USE'],
    'the first check declaring the work builds it',
    async () => {
      assertThat((await work()) === 42 && builds === 1, `built once (builds: ${builds})`);
    },
  );

  check(
    'second-declared-user-reuses-it',
    ['CPR-5-TOKEN-SINGLE-USE'],
    'a later check declaring the work reuses it',
    async () => {
      assertThat((await work()) === 42 && builds === 1, `reused, not built again (builds: ${builds})`);
    },
  );

  check(
    'undeclared-user-is-a-suite-error',
    ['CPR-5-TOKEN-SINGLE-USE'],
    'a check using the work without declaring it is a suite error',
    async () => {
      await work();
    },
  );
});
