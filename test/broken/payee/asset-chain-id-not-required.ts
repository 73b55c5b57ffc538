import type { ServerResponse } from 'node:http';
import {
  type CprDocument,
  type CreateRequestParams,
  DocumentBuilder,
  ReferencePayee,
  type ValidityWindow,
} from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { isObject } from './_json.js';
import { startBrokenPayee } from './_start.js';

/** Leaves the asset's chain_id out of the next document when asked to. */
class NoChainIdBuilder extends DocumentBuilder {
  dropChainId = false;

  override build(params: CreateRequestParams, requestId: string, window: ValidityWindow): CprDocument {
    const drop = this.dropChainId;
    this.dropChainId = false;
    const doc = super.build(params, requestId, window);
    if (drop) delete (doc.value as { asset: { chain_id?: string } }).asset.chain_id; // the fault
    return doc;
  }
}

/**
 * Spec 2.3 broken: a stablecoin or tokenized asset asked without chain_id is honoured with a CPR
 * whose value.asset has none (the build follows the parse in the same tick).
 */
class ChainIdNotRequiredPayee extends ReferencePayee {
  protected override createRequest(body: unknown, res: ServerResponse): Promise<void> {
    const a = isObject(body) ? body.asset : undefined;
    if (
      isObject(body) &&
      isObject(a) &&
      (a.type === 'stablecoin' || a.type === 'tokenized') &&
      a.chain_id === undefined
    ) {
      (this.documents as NoChainIdBuilder).dropChainId = true;
      return super.createRequest({ ...body, asset: { ...a, chain_id: '1' } }, res);
    }
    return super.createRequest(body, res);
  }
}

/** A stablecoin or tokenized asset without chain_id is accepted and issued without one. */
export const assetChainIdNotRequired: BrokenImplementation = {
  id: 'payee-asset-chain-id-not-required',
  target: 'payee',
  fault:
    'the harness accepts a stablecoin or tokenized asset without chain_id and issues a CPR whose value.asset has none (spec 2.3: required for those types)',
  expected: ['PRF-2-HARNESS-UNSERVICEABLE'],
  start: ({ workDir }) =>
    startBrokenPayee(workDir, { documentBuilder: new NoChainIdBuilder() }, ChainIdNotRequiredPayee),
};
