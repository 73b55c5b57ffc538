/**
 * Profile section 1: a request the profile does not define (a method an endpoint does not take, a
 * path that is no endpoint) is answered with a 4xx and the error body `{"error": {"code",
 * "message"}}`; its status and code are the implementation's choice (405 `METHOD_NOT_ALLOWED`,
 * 404 `NOT_FOUND`, 400 `INVALID_REQUEST`, ...), since the profile's table names none for it. What
 * the checks demand of such an answer, for every target alike: a 4xx (never a 2xx, a redirect or a
 * 5xx), a JSON error object with a non-empty string `code` and `message`, and no data of the
 * target's domain (CPR, cash-pack or Payment members) anywhere in it.
 *
 * Only requests that no reading of the profile defines are sent (a random path under the API base
 * or the harness, a method other than the one an endpoint takes; never `HEAD` or `OPTIONS`, which
 * HTTP itself gives meaning, never a trailing slash or a case variant of a real path, which a
 * router may read as the endpoint): the code of such an answer is never graded.
 */

import type { UndefinedRequest, UndefinedRequestAnswer } from '../../src/drivers/types.js';
import { isObject } from '../../src/model/util.js';

/**
 * Member names that are data of a target's domain, never part of an error answer: the CPR's
 * distinctive base and sub-interface fields (spec 2), the cash-pack's (CP 2, profile 4), the
 * Payment's (spec 2.10) and the harness answers' (profile 2-4). Names an error body may carry for
 * its own reasons (a tracing `request_id`, an echoed `uri` or `pack_id`, `extensions`, `value`,
 * timestamps) are left out: a leak shows in the distinctive members, or in the target's own values
 * the caller passes as `secrets`.
 */
export const DOMAIN_MEMBER_NAMES: ReadonlySet<string> = new Set([
  // CPR (spec 2.1-2.8)
  'cpr_version',
  'payee',
  'rail_hint',
  'rail_address',
  'iban',
  'bic',
  'beneficiary_name',
  'account_number',
  'key_type',
  'key_value',
  'receiver_address',
  // cash-pack (CP 2, profile 4)
  'cashpack_version',
  'current_bearer_pk',
  'initial_bearer_pk',
  'chain_digest',
  'renewal_chain',
  'available_balance',
  // Payment (spec 2.10) and harness answers (profile 2, 3)
  'payment',
  'payer',
  'intent',
  'token_expires_at',
]);

/** Where in `v` a member named after domain data sits (JSON-pointer-like paths), at any depth. */
function domainMembers(v: unknown, at = '', out: string[] = []): string[] {
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) domainMembers(v[i], `${at}/${i}`, out);
  } else if (isObject(v))
    for (const [k, x] of Object.entries(v)) {
      if (DOMAIN_MEMBER_NAMES.has(k)) out.push(`${at}/${k}`);
      domainMembers(x, `${at}/${k}`, out);
    }
  return out;
}

/** The request in words, e.g. `PUT {base_url}/cpr/abc`. */
export function describeUndefinedRequest(req: UndefinedRequest): string {
  return `${req.method} {${req.base === 'api' ? 'base_url' : 'harness_url'}}/${req.path}`;
}

/**
 * Everything wrong with `answer` as the answer to a request the profile does not define
 * (profile 1), in words; empty when it is a 4xx with the error body and no domain data. The
 * code is not graded: any non-empty string is the implementation's choice. `secrets` are strings
 * the answer must not contain either (e.g. the CPR a live token serves, a pack's chain digest).
 *
 * @example
 * ```ts
 * const problems = undefinedRequestProblems(await op.undefinedRequest(req), describeUndefinedRequest(req));
 * ```
 */
export function undefinedRequestProblems(
  answer: UndefinedRequestAnswer,
  what: string,
  secrets: readonly string[] = [],
): string[] {
  const problems: string[] = [];
  const { status } = answer;
  if (status < 400 || status >= 500) {
    const kind = status < 300 ? 'a success' : status < 400 ? 'a redirect' : 'a server error';
    problems.push(
      `${what}: answered HTTP ${status} (${kind}); a request the profile does not define gets a 4xx`,
    );
  }
  const body = answer.json;
  const error = isObject(body) ? body.error : undefined;
  if (!isObject(error)) {
    const shown = answer.text.length > 80 ? `${answer.text.slice(0, 80)}...` : answer.text;
    problems.push(
      `${what}: the body ${body === undefined ? `is not JSON (${JSON.stringify(shown)})` : 'has no "error" object'}; the error body is {"error": {"code", "message"}}`,
    );
  } else {
    if (typeof error.code !== 'string' || error.code.trim() === '')
      problems.push(
        `${what}: error.code is ${JSON.stringify(error.code) ?? 'absent'}; a non-empty string is required (its value is free)`,
      );
    if (typeof error.message !== 'string' || error.message.trim() === '')
      problems.push(
        `${what}: error.message is ${JSON.stringify(error.message) ?? 'absent'}; a non-empty text for a person is required`,
      );
  }
  const leaked = domainMembers(body);
  if (leaked.length > 0)
    problems.push(
      `${what}: the answer carries data of the target's domain: ${leaked.slice(0, 4).join(', ')}`,
    );
  const found = secrets.filter((s) => s.length >= 8 && answer.text.includes(s));
  if (found.length > 0)
    problems.push(
      `${what}: the answer carries ${found.length} value(s) of the target's own data (e.g. ${JSON.stringify(found[0]?.slice(0, 24))})`,
    );
  return problems;
}
