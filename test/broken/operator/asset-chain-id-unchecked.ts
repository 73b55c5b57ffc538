import { MessageParser, ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { AssetDescriptor } from '../../../src/reference/operator/types.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/**
 * Spec CPR 2.3 / profile 4 broken: the asset's `chain_id` is carried as given, never checked, so
 * an empty, numeric or null `chain_id` passes (the asset key then matches the fiat asset).
 */
class ChainBlindParser extends MessageParser {
  protected override asset(obj: Record<string, unknown>, key: string): AssetDescriptor {
    const value = obj[key];
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && 'chain_id' in value) {
      const { chain_id, ...rest } = value as Record<string, unknown>;
      return { ...super.asset({ [key]: rest }, key), chain_id: chain_id as string }; // the fault: unchecked
    }
    return super.asset(obj, key);
  }
}

class AssetChainIdUncheckedOperator extends ReferenceOperator {
  protected override createParser(): MessageParser {
    return new ChainBlindParser();
  }
}

/** An asset whose chain_id is empty, a number or null is accepted. */
export const assetChainIdUnchecked: BrokenImplementation = {
  id: 'operator-asset-chain-id-unchecked',
  target: 'operator',
  fault: "the asset's chain_id is never checked: an empty, numeric or null chain_id is accepted",
  expected: ['PRF-1-INVALID-REQUEST', 'PRF-4-LOCK-REQUEST-SHAPE'],
  start: ({ workDir }) => startBrokenOperator(workDir, AssetChainIdUncheckedOperator),
};
