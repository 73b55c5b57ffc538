import type { ServerResponse } from 'node:http';
import { ReferencePayee } from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { isObject } from './_json.js';
import { NextDocumentRewriter } from './_next-document.js';
import { startBrokenPayee } from './_start.js';

/**
 * Profile 2 broken: a harness request that names no rail gets no default rail: its CPR carries
 * rail_hint "" and an empty asset (the build follows the parse in the same tick).
 */
class NoDefaultRailPayee extends ReferencePayee {
  protected override createRequest(body: unknown, res: ServerResponse): Promise<void> {
    if (isObject(body) && body.rail_hint === undefined) {
      // the fault: the rail the reference picks is not written, and no asset comes with it
      (this.documents as NextDocumentRewriter).rewriteNext = (doc) => ({
        ...doc,
        rail_hint: '',
        value: { ...(doc.value as object), asset: {} },
      });
    }
    return super.createRequest(body, res);
  }
}

/** A request without rail_hint is answered with a non-conformant CPR. */
export const bareRequestNoRail: BrokenImplementation = {
  id: 'payee-bare-request-no-rail',
  target: 'payee',
  fault:
    'a harness request naming no rail_hint is answered with a CPR whose rail_hint is "" and whose asset is empty',
  expected: ['PRF-2-HARNESS-REQUESTS'],
  start: ({ workDir }) =>
    startBrokenPayee(workDir, { documentBuilder: new NextDocumentRewriter() }, NoDefaultRailPayee),
};
