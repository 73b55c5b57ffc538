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

/** Builds the next document with an empty rail_hint (and so no usual asset) when asked to. */
class NoDefaultRailBuilder extends DocumentBuilder {
  noRail = false;

  override build(params: CreateRequestParams, requestId: string, window: ValidityWindow): CprDocument {
    const noRail = this.noRail;
    this.noRail = false;
    const doc = super.build(params, requestId, window);
    if (!noRail) return doc;
    // the fault: the rail the reference would pick is not written, and no asset comes with it
    return { ...doc, rail_hint: '', value: { ...(doc.value as object), asset: {} } };
  }
}

/**
 * Profile 2 broken: a harness request that names no rail gets no default rail: its CPR carries
 * rail_hint "" and an empty asset (the build follows the parse in the same tick).
 */
class NoDefaultRailPayee extends ReferencePayee {
  protected override createRequest(body: unknown, res: ServerResponse): Promise<void> {
    if (isObject(body) && body.rail_hint === undefined)
      (this.documents as NoDefaultRailBuilder).noRail = true; // the fault
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
    startBrokenPayee(workDir, { documentBuilder: new NoDefaultRailBuilder() }, NoDefaultRailPayee),
};
