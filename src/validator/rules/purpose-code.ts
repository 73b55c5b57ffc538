import { type Finding, finding } from '../../model/finding.js';
import { ISO20022_PURPOSE_CODES } from '../data/iso20022-purpose-codes.js';
import { appliedSubInterface } from '../subinterface.js';
import type { Rule, RuleContext } from '../types.js';
import { describe, findingsOf } from '../util.js';
import { viewOf } from '../view.js';

/** 1 to 4 upper-case letters or digits (a regular expression literal is a new object each time). */
const CODE_FORM = /^[A-Z0-9]{1,4}$/;

/** Requirement this rule reports. */
const REQ = 'CPR-2.6-PURPOSE-CODE';

/**
 * CPR-1.0 2.6 with profile section 2: `purpose_code` is an ISO 20022 ExternalPurpose1Code, 1 to 4
 * upper-case letters or digits (SPEC error otherwise, both readings); a well-formed code absent
 * from the published list (`data/iso20022-purpose-codes.ts`) is only a warning, since the list
 * grows every quarter. Checked when the IBAN sub-interface applies, or when no sub-interface
 * applies (an unknown rail_hint) and the field is present.
 */
export const purposeCode: Rule = {
  name: 'purpose-code',
  requirements: [REQ],
  check: (ctx) => findingsOf(collectPurposeCode, ctx),
  collect: collectPurposeCode,
};

function collectPurposeCode({ doc }: RuleContext, out: Finding[]): void {
  const code = viewOf(doc).purpose_code;
  if (code === undefined) return;
  const sub = appliedSubInterface(doc);
  if (sub !== null && sub !== 'iban') return;
  if (typeof code !== 'string' || !CODE_FORM.test(code)) {
    out.push(
      finding(
        REQ,
        '/purpose_code',
        `purpose_code ${describe(code)} is not an ISO 20022 ExternalPurpose1Code: 1 to 4 upper-case letters or digits (e.g. "SUPP")`,
      ),
    );
    return;
  }
  if (ISO20022_PURPOSE_CODES.has(code)) return;
  out.push(
    finding(
      REQ,
      '/purpose_code',
      `purpose_code "${code}" is not in the published ISO 20022 ExternalPurpose1Code list; check it`,
      'warning',
    ),
  );
}
