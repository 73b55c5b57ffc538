import { signObject } from '../../../src/crypto/ed25519.js';
import { type CashPack, type PackRecord, ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Spec CP 9 rule 3 / profile 4 broken: cash-packs carry a kid that is not the published key's. */
class WrongKidOperator extends ReferenceOperator {
  protected override signPack(record: PackRecord): CashPack {
    // the fault: re-signed (same key, valid signature) under the kid of a retired key
    return signObject(super.signPack(record), this.deps.signingKey, { kid: 'cprc-retired-key' }) as CashPack;
  }
}

/** Cash-packs name a kid the well-known resource does not publish. */
export const wrongKid: BrokenImplementation = {
  id: 'operator-wrong-kid',
  target: 'operator',
  fault: "issued and renewed cash-packs carry a kid other than the published key's",
  expected: ['CP-9-CURRENT-KEY', 'PRF-4-OPERATOR-KID', 'PRF-4-SIGNATURE-JCS'],
  start: ({ workDir }) => startBrokenOperator(workDir, WrongKidOperator),
};
