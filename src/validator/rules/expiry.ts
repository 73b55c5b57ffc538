// Section 8 (CPR-8-REQUEST-VALIDITY: validity bounded by expires_at, which is required) is named
// by the wallet suite's check of a request without expires_at or past it.

import { type Finding, finding } from '../../model/finding.js';
import type { Rule, RuleContext } from '../types.js';
import { findingsOf } from '../util.js';
import { expiresInstant, viewOf } from '../view.js';

/** Wallet mode: an expired request is rejected (spec 7 rule 2, 4.4 step 1, invariant 2). */
const REQ_WALLET = 'CPR-7-EXPIRED-REJECTED';
/** Payee mode: expires_at bounds the request; a payee never emits one already expired (2.1). */
const REQ_PAYEE = 'CPR-2.1-EXPIRES-AT';

/**
 * Expiry against the validation instant `now`. A request is expired when expires_at <= now
 * (spec 2.1: "after it, the request must not be fulfilled"; 4.4 step 1: "must be in the
 * future"). Wallet mode: error CPR-7-EXPIRED-REJECTED. Payee mode: a document the payee emits
 * must not already be expired: error CPR-2.1-EXPIRES-AT.
 */
export const expiry: Rule = {
  name: 'expiry',
  requirements: [REQ_WALLET, REQ_PAYEE],
  check: (ctx) => findingsOf(collectExpiry, ctx),
  collect: collectExpiry,
};

function collectExpiry({ doc, mode, nowMs }: RuleContext, out: Finding[]): void {
  const v = viewOf(doc);
  const expires = v.expires_at;
  if (typeof expires !== 'string') return;
  const e = expiresInstant(v);
  if (!e || e.epochMs > nowMs) return;
  const now = new Date(nowMs).toISOString();
  out.push(
    mode === 'wallet'
      ? finding(
          REQ_WALLET,
          '/expires_at',
          `the request expired at ${expires} (now ${now}); it must be rejected`,
        )
      : finding(REQ_PAYEE, '/expires_at', `expires_at ${expires} is not in the future (now ${now})`),
  );
}
