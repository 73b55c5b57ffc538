import { isValidBIC } from 'ibantools';
import { type Finding, finding } from '../../model/finding.js';
import type { Rule } from '../types.js';
import { member, pointer } from '../util.js';

/** ibantools' verdicts on recent BICs (a document carries its BIC twice; bounded). */
const verdicts = new Map<string, boolean>();

function bicOk(bic: string): boolean {
  let ok = verdicts.get(bic);
  if (ok === undefined) {
    ok = isValidBIC(bic);
    if (verdicts.size >= 4096) verdicts.clear();
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
  check({ doc }) {
    let out: Finding[] | undefined;
    for (const path of PLACES) {
      let value: unknown = doc;
      for (const k of path) value = member(value, k);
      if (typeof value !== 'string' || bicOk(value)) continue;
      out ??= [];
      out.push(
        finding(
          REQ,
          pointer(path),
          `${path.join('.')} is not an ISO 9362 BIC (8 or 11 characters: bank, country, location, branch)`,
        ),
      );
    }
    return out ?? [];
  },
};
