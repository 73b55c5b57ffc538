import {
  type CprDocument,
  type CreateRequestParams,
  DocumentBuilder,
  type ValidityWindow,
} from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenPayee } from './_start.js';

/** INV-1 / INV-8 broken: the document names the expected payer. */
class PayerLeakingBuilder extends DocumentBuilder {
  override build(params: CreateRequestParams, requestId: string, window: ValidityWindow): CprDocument {
    return {
      ...super.build(params, requestId, window),
      payer: { name: 'Alice Example', account: 'DE02120300000000202051' },
    };
  }
}

/** Every CPR carries a payer member. */
export const payerData: BrokenImplementation = {
  id: 'payee-payer-data',
  target: 'payee',
  fault: 'every CPR carries a "payer" member naming the expected payer',
  // a top-level payer is also the DerivationContext's payer (spec 2.9) inside the CPR
  expected: [
    'CPR-1-NO-PAYER-AUTH-STATE',
    'CPR-2.9-CONTEXT-NOT-IN-CPR',
    'CPR-INV-1-NO-PAYER-DATA',
    'CPR-INV-8-NO-PAYER-DATA',
  ],
  start: ({ workDir }) => startBrokenPayee(workDir, { documentBuilder: new PayerLeakingBuilder() }),
};
