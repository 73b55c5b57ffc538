import {
  type CprDocument,
  type CreateRequestParams,
  DocumentBuilder,
  type ValidityWindow,
} from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenPayee } from './_start.js';

/** Spec 2.1 / 9 rule 1 broken: the version marker is "CPR-1". */
class OldVersionBuilder extends DocumentBuilder {
  override build(params: CreateRequestParams, requestId: string, window: ValidityWindow): CprDocument {
    return { ...super.build(params, requestId, window), cpr_version: 'CPR-1' };
  }
}

/** cpr_version is not "CPR-1.0". */
export const wrongVersion: BrokenImplementation = {
  id: 'payee-wrong-version',
  target: 'payee',
  fault: 'every CPR carries cpr_version "CPR-1" instead of "CPR-1.0"',
  expected: ['CPR-2.1-VERSION', 'CPR-9-VERSION'],
  start: ({ workDir }) => startBrokenPayee(workDir, { documentBuilder: new OldVersionBuilder() }),
};
