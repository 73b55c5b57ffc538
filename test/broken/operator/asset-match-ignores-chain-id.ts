import { type AssetDescriptor, assetKey, ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/**
 * Profile 4 money broken: assets are matched on type and code only, so an asset with a chain_id
 * the policy does not offer passes for the offered one and locks its funds (a mutation-testing
 * survivor: `chain_id ?? ''` made `chain_id && ''` in the asset key).
 */
class AssetMatchIgnoresChainIdOperator extends ReferenceOperator {
  protected override assetKeyOf(asset: AssetDescriptor): string {
    return assetKey({ type: asset.type, code: asset.code }); // the fault: chain_id dropped
  }
}

/** An issue in an asset outside the policy draws on another asset's balance. */
export const assetMatchIgnoresChainId: BrokenImplementation = {
  id: 'operator-asset-match-ignores-chain-id',
  target: 'operator',
  fault: "an issue in the offered asset plus a chain_id is accepted and locks the offered asset's funds",
  expected: ['PRF-1-ERROR-BODY', 'PRF-1-ERROR-STATUS', 'PRF-4-MONEY-FLOWS'],
  start: ({ workDir }) => startBrokenOperator(workDir, AssetMatchIgnoresChainIdOperator),
};
