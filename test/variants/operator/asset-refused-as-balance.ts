import {
  type AssetDescriptor,
  OperatorError,
  ReferenceOperator,
} from '../../../src/reference/operator/index.js';
import { startBrokenOperator } from '../../broken/operator/_start.js';
import type { PermittedVariant } from '../../broken/types.js';

/**
 * Does not compare the requested asset with the policy: a well-formed asset it does not offer is
 * one the Principal holds nothing in, refused as INSUFFICIENT_BALANCE (the reference:
 * INVALID_REQUEST). A malformed asset (an unknown type, a stablecoin or tokenized asset without
 * chain_id: a schema failure) is still INVALID_REQUEST: only the policy comparison is left out.
 */
class AssetRefusedAsBalanceOperator extends ReferenceOperator {
  protected override checkAssetOffered(asset: AssetDescriptor): void {
    const types: readonly string[] = ['fiat', 'stablecoin', 'crypto', 'tokenized'];
    const needsChain = asset.type === 'stablecoin' || asset.type === 'tokenized';
    if (!types.includes(asset.type) || (needsChain && asset.chain_id === undefined))
      throw new OperatorError(
        'INVALID_REQUEST',
        '"asset" is not a well-formed AssetDescriptor (spec CPR 2.3)',
      );
  }
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
