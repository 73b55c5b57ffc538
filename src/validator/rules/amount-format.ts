import { type Finding, finding } from '../../model/finding.js';
import type { Rule, RuleContext } from '../types.js';
import { describe, findingsOf } from '../util.js';
import { viewOf } from '../view.js';

/** The amount is in the asset's smallest unit: an integer, never a fraction or negative (spec 2.3). */
const REQ_UNIT = 'CPR-2.3-AMOUNT-SMALLEST-UNIT';
/** The amount's wire form: a digit string, 1 to 2^256 - 1 (profile section 1). */
const REQ_FORMAT = 'PRF-1-AMOUNT-FORMAT';
/** Wallet: a safe-integer JSON number is accepted with a warning (profile section 1). */
const REQ_NUMBER_SAFE = 'PRF-1-AMOUNT-NUMBER-SAFE';
/** Wallet: any other JSON number is rejected (profile section 1). */
const REQ_NUMBER_UNSAFE = 'PRF-1-AMOUNT-NUMBER-UNSAFE';
/** 2^256 - 1, the largest amount (profile section 1), as its 78 digits. */
const MAX_AMOUNT_TEXT = (2n ** 256n - 1n).toString();
const FRACTION = /^\s*[+-]?\d*[.,]\d*\s*$/;
const DIGIT = /\d/;
const NEGATIVE = /^\s*-\s*\d+\s*$/;
/** Base-10 digits only (ASCII). */
const ALL_DIGITS = /^[0-9]+$/;

/**
 * CPR-1.0 2.3 and profile section 1: `value.amount`, when present, is a string of base-10 digits
 * in the smallest unit, no sign, no leading zero, no fraction, no spaces, from 1 to 2^256 - 1.
 * The string is never turned into a JS number; the bound is compared digit by digit.
 * A JSON number: in wallet mode a safe integer >= 1 is accepted with a PROFILE warning and any
 * other number is a PROFILE error (precision may already be lost); in payee mode every number is
 * a PROFILE error. A fraction or a negative value breaks the SPEC (not a smallest-unit count).
 */
export const amountFormat: Rule = {
  name: 'amount-format',
  requirements: [REQ_UNIT, REQ_FORMAT, REQ_NUMBER_SAFE, REQ_NUMBER_UNSAFE],
  check: (ctx) => findingsOf(collectAmountFormat, ctx),
  collect: collectAmountFormat,
};

function collectAmountFormat({ doc, mode }: RuleContext, out: Finding[]): void {
  const amount = viewOf(doc).amount;
  if (amount === undefined) return; // open amount (2.3)
  const where = '/value/amount';
  if (typeof amount === 'string' && ALL_DIGITS.test(amount)) {
    if (amount === '0') out.push(finding(REQ_FORMAT, where, 'value.amount must be at least 1'));
    else if (amount[0] === '0') {
      out.push(finding(REQ_FORMAT, where, `value.amount ${describe(amount)} has a leading zero`));
    } else if (amount.length > 78 || (amount.length === 78 && amount > MAX_AMOUNT_TEXT)) {
      // 2^256 - 1 has 78 digits; digit strings of one length compare as numbers (never a JS number)
      out.push(finding(REQ_FORMAT, where, 'value.amount is larger than 2^256 - 1'));
    }
    return;
  }
  if (typeof amount === 'number') {
    if (!Number.isInteger(amount) || amount < 0) {
      out.push(finding(REQ_UNIT, where, `value.amount ${amount} is not a whole number of the smallest unit`));
      return;
    }
    if (mode === 'wallet' && Number.isSafeInteger(amount) && amount >= 1) {
      out.push(
        finding(
          REQ_NUMBER_SAFE,
          where,
          `value.amount is a JSON number (${amount}); accepted as a safe integer, but it must be a digit string`,
          'warning',
        ),
      );
      return;
    }
    out.push(
      mode === 'wallet'
        ? finding(
            REQ_NUMBER_UNSAFE,
            where,
            `value.amount ${amount} is a JSON number outside the safe integers 1..2^53-1; precision may be lost, reject it`,
          )
        : finding(REQ_FORMAT, where, `value.amount must be a digit string, not the JSON number ${amount}`),
    );
    return;
  }
  if (typeof amount !== 'string') {
    out.push(finding(REQ_UNIT, where, `value.amount must be a digit string, not ${describe(amount)}`));
    return;
  }
  if (FRACTION.test(amount) && DIGIT.test(amount)) {
    out.push(
      finding(
        REQ_UNIT,
        where,
        `value.amount ${describe(amount)} has a fraction; give it in the smallest unit`,
      ),
    );
    return;
  }
  if (NEGATIVE.test(amount)) {
    out.push(finding(REQ_UNIT, where, `value.amount ${describe(amount)} is negative`));
    return;
  }
  out.push(
    finding(
      REQ_FORMAT,
      where,
      `value.amount ${describe(amount)} must hold base-10 digits only (no sign or spaces)`,
    ),
  );
}
