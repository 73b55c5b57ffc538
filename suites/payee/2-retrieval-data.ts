/**
 * Payee suite, profile section 2 (and spec 1.2, INV-1): payer data must not be derived from the
 * retrieval either. Tokens are fetched with distinctive cookies, `Authorization`, `User-Agent`,
 * forwarding headers and a `Referer`; none of those values may appear anywhere in the CPR served.
 */
import { randomBytes } from 'node:crypto';
import { assertThat, check, expectOk, payee } from '../_lib/index.js';
import { CORPUS_AMOUNT, referenceRequest, servedRails } from './_support/index.js';

/** The distinctive request data of one retrieval, by where it was sent. */
function probeHeaders(): { headers: Record<string, string>; values: Record<string, string> } {
  const m = randomBytes(6).toString('hex');
  const octet = 1 + ((randomBytes(1)[0] ?? 0) % 250);
  const values = {
    'cookie value': `ck${m}`,
    'second cookie value': `pk${m}`,
    'Authorization credential': `az${m}`,
    'User-Agent': `ua${m}`,
    'X-Forwarded-For address': `203.0.113.${octet}`,
    'X-Real-IP address': `198.51.100.${octet}`,
    'Forwarded address': `192.0.2.${octet}`,
    Referer: `rf${m}`,
  };
  return {
    headers: {
      cookie: `cprc_session=${values['cookie value']}; cprc_payer=${values['second cookie value']}`,
      authorization: `Bearer ${values['Authorization credential']}`,
      'user-agent': `cprc-probe/${values['User-Agent']} (payer-device)`,
      'x-forwarded-for': values['X-Forwarded-For address'],
      'x-real-ip': values['X-Real-IP address'],
      forwarded: `for=${values['Forwarded address']};proto=https`,
      referer: `https://payer.invalid/checkout/${values.Referer}`,
    },
    values,
  };
}

describe('profile section 2: nothing of the retrieval appears in the CPR', () => {
  check(
    'cpr-served-carries-nothing-of-retrieval-request',
    ['PRF-2-NO-RETRIEVAL-DATA', 'CPR-INV-1-NO-PAYER-DATA'],
    'nothing of the request that fetched a CPR (cookies, Authorization, User-Agent, X-Forwarded-For and other headers) appears in the CPR served',
    async () => {
      const rails = await servedRails();
      const found: string[] = [];
      for (const rail of rails) {
        const amount = CORPUS_AMOUNT[rail];
        const r = await referenceRequest({ rail_hint: rail, ...(amount === undefined ? {} : { amount }) });
        const probe = probeHeaders();
        const got = await payee().retrieve(r.uri, { headers: probe.headers });
        const cpr = expectOk(got, `the retrieval of a ${rail} CPR with payer-side headers`);
        const text = (got.ok && got.text !== undefined ? got.text : JSON.stringify(cpr)).toLowerCase();
        for (const [where, value] of Object.entries(probe.values)) {
          if (text.includes(value.toLowerCase()))
            found.push(`${rail}: the ${where} sent with the retrieval (${value})`);
        }
      }
      assertThat(
        found.length === 0,
        `no CPR carries data of the request that fetched it; ${found.length} found: ${found.slice(0, 5).join('; ')}`,
      );
    },
  );
});
