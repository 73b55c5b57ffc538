import { type Asset, type CreateRequestParams, DocumentBuilder } from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenPayee } from './_start.js';

/** Profile 2 broken: the harness's `asset` is ignored; every CPR carries the rail's usual asset. */
class AssetIgnoredBuilder extends DocumentBuilder {
  override assetFor(params: CreateRequestParams): Asset {
    return super.assetFor({ ...params, asset: undefined }); // the fault
  }
}

/** A request for USD on SEPA, or for ETH on ON_CHAIN, is answered with the rail's usual asset. */
export const assetIgnored: BrokenImplementation = {
  id: 'payee-asset-ignored',
  target: 'payee',
  fault: 'the harness ignores the asset asked for: every CPR carries its rail’s usual asset (EUR, USDC, ...)',
  expected: ['PRF-2-HARNESS-REQUESTS'],
  start: ({ workDir }) => startBrokenPayee(workDir, { documentBuilder: new AssetIgnoredBuilder() }),
};
