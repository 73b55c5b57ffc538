import { classify } from '../catalog/index.js';
import type { ResultState } from './types.js';

/**
 * State of a check whose assertion failed (docs/conventions.md "Result states"), from the
 * catalog's `classify`: `warning` when every requirement it names is a SHOULD/MAY or a PROFILE
 * choice, otherwise `failed` (a MUST of the SPEC not met). A check naming no ID, or an ID the
 * catalog does not know, counts as `failed` (the catalog test reports the unknown ID).
 * @example
 * ```ts
 * failureState(['CPR-5-TOKEN-REUSE-ERROR']);  // 'failed'  (SPEC MUST)
 * failureState(['PRF-2-TOKEN-CONSUMED-410']); // 'warning' (PROFILE)
 * ```
 */
export function failureState(ids: readonly string[]): Extract<ResultState, 'failed' | 'warning'> {
  try {
    return classify(ids).state;
  } catch {
    return 'failed';
  }
}
