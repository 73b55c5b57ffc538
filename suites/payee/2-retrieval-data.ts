/**
 * Payee suite, profile section 2 (and spec 1.2, INV-1): payer data must not be derived from the
 * retrieval either. Tokens are fetched with distinctive cookies, `Authorization`, `User-Agent`,
 * `Accept-Language`, a custom header, forwarding headers and a `Referer`, and once more with a
 * query string; none of those values may appear anywhere in the CPR served (keys and values, any
 * depth, extensions included). The client's own address (loopback: `127.0.0.1`, `::ffff:127.0.0.1`,
 * `::1` and their other spellings, with or without a port) may not appear either: it is counted in
 * the CPR served and in the inline CPR the harness makes for the same request (no retrieval
 * there), with the payee's own authority (its base_url) removed from both; more occurrences in
 * the served one were taken from the retrieval.
 */
import { randomBytes } from 'node:crypto';
import { decodeCprUri } from '../../src/codec/index.js';
import { assertThat, check, context, expectOk, payee } from '../_lib/index.js';
import { CORPUS_AMOUNT, createRequest, referenceRequest, servedRails } from './_support/index.js';

/** Spellings of a loopback client address (IPv4, IPv4-mapped IPv6, IPv6, name, integer and hex). */
const CLIENT_ADDRESS_FORMS: readonly RegExp[] = [
  /(?<![\d.])127\.0\.0\.1(?![\d])/gi,
  /::ffff:7f00:1(?![\da-f])/gi,
  /(?<![\da-f:])(?:0{1,4}:){7}0{0,3}1(?![\da-f:])/gi,
  /(?<![\da-f:])::1(?![\da-f:])/gi,
  /\blocalhost\b/gi,
  /(?<!\d)2130706433(?!\d)/g,
  /\b(?:0x)?7f000001\b/gi,
];

/** How many times a client address is written in `text`, the payee's own authority left out. */
function clientAddressCount(text: string, ownAuthorities: readonly string[]): number {
  let rest = text;
  for (const a of ownAuthorities) if (a !== '') rest = rest.split(a).join(' ');
  return CLIENT_ADDRESS_FORMS.reduce((n, re) => n + (rest.match(re)?.length ?? 0), 0);
}

/** The payee's own authorities (host:port of base_url and of each endpoint seen), in both cases. */
function authoritiesOf(...urls: string[]): string[] {
  const out = new Set<string>();
  for (const u of urls) {
    try {
      const url = new URL(u);
      // the origin and host:port only: the bare host is the client's address too on loopback
      out.add(url.origin);
      if (url.port !== '') out.add(url.host);
    } catch {
      // not a URL: nothing to remove
    }
  }
  // longest first, so an origin goes before the host:port inside it
  return [...out].sort((a, b) => b.length - a.length);
}

/** The distinctive request data of one retrieval, by where it was sent. */
function probeHeaders(): { headers: Record<string, string>; values: Record<string, string> } {
  const m = randomBytes(6).toString('hex');
  const octet = 1 + ((randomBytes(1)[0] ?? 0) % 250);
  const values = {
    'cookie value': `ck${m}`,
    'second cookie value': `pk${m}`,
    'Authorization credential': `az${m}`,
    'User-Agent': `ua${m}`,
    'Accept-Language private subtag': `al${m.slice(0, 6)}`,
    'custom X-Cprc-Trace header': `xt${m}`,
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
      'accept-language': `de-CH-x-${values['Accept-Language private subtag']}, fr;q=0.7`,
      'x-cprc-trace': values['custom X-Cprc-Trace header'],
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
    "nothing of the request that fetched a CPR (the client's address in any spelling, with or without its port; cookies, Authorization, User-Agent, Accept-Language, a custom header, X-Forwarded-For and other headers; the query string) appears in the CPR served, keys or values, at any depth",
    async () => {
      const rails = await servedRails();
      const found: string[] = [];
      const baseUrl = context().config.payee?.base_url ?? '';
      for (const rail of rails) {
        const amount = CORPUS_AMOUNT[rail];
        const params = {
          rail_hint: rail,
          memo: 'Retrieval data',
          ...(amount === undefined ? {} : { amount }),
        };
        const r = await referenceRequest(params);
        const probe = probeHeaders();
        const got = await payee().retrieve(r.uri, { headers: probe.headers });
        const cpr = expectOk(got, `the retrieval of a ${rail} CPR with payer-side headers`);
        const served = got.ok && got.text !== undefined ? got.text : JSON.stringify(cpr);
        const text = served.toLowerCase();
        for (const [where, value] of Object.entries(probe.values)) {
          if (text.includes(value.toLowerCase()))
            found.push(`${rail}: the ${where} sent with the retrieval (${value})`);
        }
        // the client's address: compared with the inline CPR of the same request (no retrieval)
        const inline = await createRequest({ ...params, delivery: 'inline' });
        const decoded = decodeCprUri(inline.uri);
        const baseline =
          decoded.ok && decoded.value.kind === 'inline' ? JSON.stringify(decoded.value.document) : '';
        const own = authoritiesOf(baseUrl, r.ref.endpoint, r.ref.retrievalUrl);
        const inServed = clientAddressCount(served, own);
        const inBaseline = clientAddressCount(baseline, own);
        if (inServed > inBaseline)
          found.push(
            `${rail}: the client's address (${addressesIn(served, own).join(', ')}) is written ${inServed} time(s) in the CPR served, ${inBaseline} in the inline CPR of the same request`,
          );
      }
      // the query string of a retrieval: GET {base_url}/cpr/{token}?... (a payee may refuse it)
      const send = payee().undefinedRequest?.bind(payee());
      if (send !== undefined) {
        const rail = rails[0] as string;
        const amount = CORPUS_AMOUNT[rail];
        const r = await referenceRequest({ rail_hint: rail, ...(amount === undefined ? {} : { amount }) });
        const marker = `qs${randomBytes(6).toString('hex')}`;
        const a = await send({
          method: 'GET',
          base: 'api',
          path: `cpr/${r.ref.token}?cprc_ref=${marker}&utm_source=${marker}`,
        });
        if (a.status === 200 && a.text.toLowerCase().includes(marker))
          found.push(`${rail}: the query string of the retrieval (${marker})`);
      }
      assertThat(
        found.length === 0,
        `no CPR carries data of the request that fetched it; ${found.length} found: ${found.slice(0, 5).join('; ')}`,
      );
    },
  );
});

/** The client-address spellings found in `text` (for the message). */
function addressesIn(text: string, own: readonly string[]): string[] {
  let rest = text;
  for (const a of own) if (a !== '') rest = rest.split(a).join(' ');
  return [...new Set(CLIENT_ADDRESS_FORMS.flatMap((re) => rest.match(re) ?? []))].slice(0, 4);
}
