import { isValidBIC } from 'ibantools';
import { boundedCache } from '../../caches.js';
import { type Finding, finding } from '../../model/finding.js';
import type { Rule, RuleContext } from '../types.js';
import { findingsOf, member, pointer } from '../util.js';
import { viewOf } from '../view.js';

/** ibantools' verdicts on recent BICs (a document carries its BIC twice; bounded). */
const verdicts = boundedCache<string, boolean>(4096);

function bicOk(bic: string): boolean {
  let ok = verdicts.get(bic);
  // Stryker disable next-line ConditionalExpression: a cache hit ignored recomputes the same verdict
  if (ok === undefined) {
    ok = isValidBIC(bic);
    verdicts.set(bic, ok);
  }
  return ok;
}

/** Requirement this rule reports. */
const REQ = 'CPR-2.6-BIC-VALID';

/** The two places a BIC sits. */
const PLACES = [['bic'], ['payee', 'rail_address', 'bic']] as const;

/**
 * CPR-1.0 2.6: `bic` is the BIC/SWIFT code of the receiving institution (ISO 9362: 4-letter
 * institution, 2-letter country, 2-character location, optional 3-character branch), checked
 * with ibantools on the top-level `bic` and on `payee.rail_address.bic`.
 */
export const bicValid: Rule = {
  name: 'bic-valid',
  requirements: [REQ],
  check: (ctx) => findingsOf(collectBicValid, ctx),
  collect: collectBicValid,
};

function collectBicValid({ doc }: RuleContext, out: Finding[]): void {
  const v = viewOf(doc);
  const top = v.bic;
  if (typeof top === 'string' && !bicOk(top)) report(PLACES[0], out);
  const inner = member(v.railAddress, 'bic');
  // rail_address repeats the top-level BIC: the verdict cache answers the second sight
  if (typeof inner === 'string' && !bicOk(inner)) report(PLACES[1], out);
}

function report(path: readonly string[], out: Finding[]): void {
  out.push(
    finding(
      REQ,
      pointer(path),
      `${path.join('.')} is not an ISO 9362 BIC (8 or 11 characters: bank, country, location, branch)`,
    ),
  );
}
