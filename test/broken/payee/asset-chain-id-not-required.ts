import type { ServerResponse } from 'node:http';
import { ReferencePayee } from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { isObject } from './_json.js';
import { NextDocumentRewriter } from './_next-document.js';
import { startBrokenPayee } from './_start.js';

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
      // the fault: the CPR issued carries no chain_id
      (this.documents as NextDocumentRewriter).rewriteNext = (doc) => {
        delete (doc.value as { asset: { chain_id?: string } }).asset.chain_id;
        return doc;
      };
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
    startBrokenPayee(workDir, { documentBuilder: new NextDocumentRewriter() }, ChainIdNotRequiredPayee),
};
