import type { IncomingMessage, ServerResponse } from 'node:http';
import { ReferencePayee } from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenPayee } from './_start.js';

/** Spec 5 rules 4-5 broken: the plain-HTTP listener routes like the HTTPS one. */
class PlainServingPayee extends ReferencePayee {
  protected override handlePlainHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    return this.handleHttps(req, res);
  }
}

/** The plain-HTTP address serves CPRs. */
export const plainHttp: BrokenImplementation = {
  id: 'payee-plain-http',
  target: 'payee',
  fault: 'the plain-HTTP listener serves GET /cpr/{token} like the HTTPS one',
  expected: ['CPR-4.1-TLS-ONLY', 'CPR-5-PAYLOAD-TLS-ONLY', 'CPR-INV-8-TLS-ONLY'],
  start: ({ workDir }) => startBrokenPayee(workDir, {}, PlainServingPayee),
};
