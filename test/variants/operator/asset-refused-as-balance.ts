import { ReferenceOperator } from '../../../src/reference/operator/index.js';
import { startBrokenOperator } from '../../broken/operator/_start.js';
import type { PermittedVariant } from '../../broken/types.js';

/**
 * Does not compare the requested asset with the policy: an asset it does not offer is one the
 * Principal holds nothing in, refused as INSUFFICIENT_BALANCE (the reference: INVALID_REQUEST).
 */
class AssetRefusedAsBalanceOperator extends ReferenceOperator {
  protected override checkAssetOffered(): void {}
}

/** An asset outside the policy is INSUFFICIENT_BALANCE. */
export const assetRefusedAsBalance: PermittedVariant = {
  id: 'operator-variant-asset-refused-as-balance',
  target: 'operator',
  choice:
    'an issue in an asset outside the policy is refused as INSUFFICIENT_BALANCE (no balance in it), not INVALID_REQUEST',
  clause:
    'spec CP 7: INSUFFICIENT_BALANCE "the Principal\'s available balance is below the requested amount"; profile 4 names no code for an asset outside the policy',
  start: ({ workDir }) => startBrokenOperator(workDir, AssetRefusedAsBalanceOperator),
};
