import { signObject } from '../../../src/crypto/ed25519.js';
import { type CashPack, type PackRecord, ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Profile 4 CashPack shape broken: cashpack_version is left out (the pack is still validly signed). */
class CashpackVersionMissingOperator extends ReferenceOperator {
  protected override signPack(record: PackRecord): CashPack {
    const { cashpack_version: _omitted, signature: _old, ...rest } = super.signPack(record); // the fault
    return signObject(rest, this.deps.signingKey) as unknown as CashPack;
  }
}

/** Cash-packs lack cashpack_version. */
export const cashpackVersionMissing: BrokenImplementation = {
  id: 'operator-cashpack-version-missing',
  target: 'operator',
  fault: 'issued and renewed cash-packs lack "cashpack_version"',
  expected: ['PRF-4-CASHPACK-SHAPE', 'PRF-4-MESSAGE-SCHEMA', 'PRF-4-RENEW-BINDING'],
  start: ({ workDir }) => startBrokenOperator(workDir, CashpackVersionMissingOperator),
};
