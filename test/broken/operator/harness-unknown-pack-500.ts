import {
  type PackRecord,
  ReferenceOperator,
  type StoreState,
} from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/**
 * Profile 1 broken: a pack_id the Operator never issued is not refused as PACK_UNKNOWN; the
 * missing record is then read and the harness answers a server error (a mutation-testing
 * survivor: the `record === undefined` test made `false`).
 */
class HarnessUnknownPack500Operator extends ReferenceOperator {
  protected override storedPack(state: StoreState, packId: string): PackRecord {
    return state.packs.get(packId) as PackRecord; // the fault: no PACK_UNKNOWN
  }
}

/** The harness answers 500 for a pack it never issued. */
export const harnessUnknownPack500: BrokenImplementation = {
  id: 'operator-harness-unknown-pack-500',
  target: 'operator',
  fault: 'POST {harness}/expire or /cancel of a pack never issued answers 500 instead of a profile error',
  expected: ['PRF-1-ERROR-BODY', 'PRF-1-ERROR-STATUS'],
  start: ({ workDir }) => startBrokenOperator(workDir, HarnessUnknownPack500Operator),
};
