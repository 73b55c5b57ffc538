/**
 * Payee suite, profile sections 1 and 2: what the payee harness does with bodies it cannot read
 * and with options it can honour. Every malformed member of `POST {harness}/requests` (assets of
 * every wrong shape, counts, rails, amounts, extensions) and of `POST {harness}/fulfillments`, and
 * bodies that are no JSON object, answer 400 INVALID_REQUEST with the profile's error body; what
 * profile 2 leaves to the payee (members it does not list, `null` for an optional member, a
 * fractional count, payer-named or unprefixed extension keys) is refused the same way or
 * honoured. Options the payee can evidently honour (well-formed extensions, the asset it uses
 * itself, a window or a token lifetime of one second) are honoured as asked.
 */
import { randomUUID } from 'node:crypto';
import { decodeCprUri } from '../../src/codec/index.js';
import { parseRfc3339, validateCpr } from '../../src/validator/index.js';
import {
  answerSaid,
  assertThat,
  type CreatedRequest,
  check,
  eachOverlapping,
  type HarnessResult,
  type PayeeHarness,
  type PayeeHarnessEndpoint,
  type PayeeRequestParams,
  sharedState,
} from '../_lib/index.js';
import {
  advanceClock,
  CORPUS_AMOUNT,
  clockVerdict,
  errorBodyProblems,
  harness,
  MALFORMED_CLOCK_BODIES,
  MAY_REFUSE_CLOCK_BODIES,
  maxValiditySeconds,
  servedRails,
} from './_support/index.js';

// The payee's test clock is moved by these checks (`cprc run --jobs` runs them after every other
// payee check, in one process: suites/_lib sharedState).
sharedState('payee:clock', [
  'malformed-harness-members-answer-400-invalid-request',
  'harness-refusals-carry-error-body',
]);

/** The CPR of an inline answer, or undefined. */
function inlineCpr(r: HarnessResult<CreatedRequest>): Record<string, unknown> | undefined {
  if (!r.ok) return undefined;
  const d = decodeCprUri(r.value.uri);
  return d.ok && d.value.kind === 'inline' ? d.value.document : undefined;
}

/** A JSON object (not null, not an array). */
function isObject(v: unknown): boolean {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Deep equality of JSON values, member order free. */
function sameJson(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameJson(x, b[i]))
    );
  }
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) {
    const ka = Object.keys(a);
    const o = b as Record<string, unknown>;
    return (
      ka.length === Object.keys(o).length &&
      ka.every((k) => k in o && sameJson((a as Record<string, unknown>)[k], o[k]))
    );
  }
  return a === b;
}

/** The rails of spec 2.4. */
const RAILS: readonly string[] = ['ON_CHAIN', 'SEPA_CT', 'SEPA_INST', 'ACH', 'PIX', 'UPI', 'SWIFT', 'OPEN'];

/** Error findings of the validator (payee reading) on a CPR. */
function errorsOf(doc: unknown) {
  return validateCpr(doc, { mode: 'payee', maxValiditySeconds: maxValiditySeconds() }).findings.filter(
    (f) => f.severity === 'error',
  );
}

/** A create-request body with `delivery: inline` and `extra`. */
const inline = (extra: Record<string, unknown>) => ({ delivery: 'inline', ...extra });

/**
 * Create-request bodies no reading of profile 2 can honour: bodies that are no JSON object, and
 * one member at a time of a type or form no conformant CPR can carry as asked (an asset that is no
 * AssetDescriptor of spec 2.3, a rail outside spec 2.4, an amount outside profile 1, extensions that
 * are no object, counts and flags of another JSON type).
 */
const MUST_REFUSE: readonly (readonly [string, unknown])[] = [
  ['a body that is null', null],
  ['a body that is an array', [inline({})]],
  ['a body that is a string', 'inline'],
  ['a body that is a number', 5],
  ['delivery null', { delivery: null }],
  ['rail_hint "BITCOIN"', inline({ rail_hint: 'BITCOIN' })],
  ['rail_hint ""', inline({ rail_hint: '' })],
  ['amount "0"', inline({ amount: '0' })],
  ['amount 2^256 (one over the largest)', inline({ amount: (2n ** 256n).toString() })],
  ['amount of 79 digits', inline({ amount: `1${'0'.repeat(78)}` })],
  ['amount a JSON number', inline({ amount: 1999 })],
  ['memo a number', inline({ memo: 42 })],
  ['qr "yes"', { delivery: 'reference', qr: 'yes' }],
  ['token_ttl_seconds a string', { delivery: 'reference', token_ttl_seconds: '60' }],
  ['validity_seconds true', inline({ validity_seconds: true })],
  ['extensions a number', inline({ extensions: 5 })],
  ['extensions true', inline({ extensions: true })],
  ['extensions a string', inline({ extensions: 'com.example:x' })],
  ['extensions an array', inline({ extensions: [{ 'com.example:x': 1 }] })],
  ['asset a number', inline({ asset: 978 })],
  ['asset true', inline({ asset: true })],
  ['asset a string', inline({ asset: 'EUR' })],
  ['asset an array', inline({ asset: [{ type: 'fiat', code: 'EUR' }] })],
  ['asset {}', inline({ asset: {} })],
  ['asset without code', inline({ asset: { type: 'fiat' } })],
  ['asset without type', inline({ asset: { code: 'EUR' } })],
  ['asset.type a number', inline({ asset: { type: 1, code: 'EUR' } })],
  ['asset.type "cash"', inline({ asset: { type: 'cash', code: 'EUR' } })],
  ['asset.type ""', inline({ asset: { type: '', code: 'EUR' } })],
  ['asset.code a number', inline({ asset: { type: 'fiat', code: 978 } })],
  ['asset.code null', inline({ asset: { type: 'fiat', code: null } })],
  ['asset.code ""', inline({ asset: { type: 'fiat', code: '' } })],
  ['a fiat asset.code "EURO" (no ISO 4217 code)', inline({ asset: { type: 'fiat', code: 'EURO' } })],
  ['a fiat asset.code "ABC" (no ISO 4217 code)', inline({ asset: { type: 'fiat', code: 'ABC' } })],
  ['asset.chain_id a number', inline({ asset: { type: 'crypto', code: 'ETH', chain_id: 1 } })],
  ['asset.chain_id ""', inline({ asset: { type: 'crypto', code: 'ETH', chain_id: '' } })],
  ['asset.chain_id an object', inline({ asset: { type: 'crypto', code: 'ETH', chain_id: { id: 1 } } })],
];

/**
 * Create-request bodies profile 2 lets the payee refuse or honour: a member it does not list,
 * `null` for an optional member (read as absent or refused), counts it may not serve (0, negative,
 * fractional), the largest amount, texts and extension keys it cannot carry. A refusal is 400
 * INVALID_REQUEST with the error body; what an honouring CPR must be is graded by the checks of
 * `2-harness-limits.ts` and below.
 */
const MAY_REFUSE: readonly (readonly [string, unknown])[] = [
  ['a member profile 2 does not list', inline({ colour: 'blue' })],
  [
    'an asset with a member spec 2.3 does not list',
    inline({ asset: { type: 'fiat', code: 'EUR', note: 'x' } }),
  ],
  ['rail_hint null', inline({ rail_hint: null })],
  ['amount null', inline({ amount: null })],
  ['asset null', inline({ asset: null })],
  ['memo null', inline({ memo: null })],
  ['extensions null', inline({ extensions: null })],
  ['token_ttl_seconds null', { delivery: 'reference', token_ttl_seconds: null }],
  ['validity_seconds null', inline({ validity_seconds: null })],
  ['qr null', { delivery: 'reference', qr: null }],
  ['a memo of 141 code points', inline({ memo: 'a'.repeat(141) })],
  ['token_ttl_seconds 0', { delivery: 'reference', token_ttl_seconds: 0 }],
  ['token_ttl_seconds -5', { delivery: 'reference', token_ttl_seconds: -5 }],
  ['token_ttl_seconds 1.5', { delivery: 'reference', token_ttl_seconds: 1.5 }],
  ['validity_seconds 0', inline({ validity_seconds: 0 })],
  ['validity_seconds -5', inline({ validity_seconds: -5 })],
  ['validity_seconds 90.5', inline({ validity_seconds: 90.5 })],
  ['amount 2^256 - 1 (the largest)', inline({ amount: (2n ** 256n - 1n).toString() })],
  ['an extension key without namespace', inline({ extensions: { note: 'gift' } })],
  [
    'an extension member named after payer data',
    inline({ extensions: { 'com.example:c': { debtor_iban: 'x' } } }),
  ],
];

/**
 * Bodies that are no JSON text (RFC 8259), each sent as it is with `content-type:
 * application/json` to every harness endpoint: profile 1 makes malformed JSON 400
 * INVALID_REQUEST on every endpoint. No byte order mark among them (a reader may ignore one).
 */
const NOT_JSON_TEXTS: readonly (readonly [string, string])[] = [
  ['an empty body', ''],
  ['text that is no JSON', 'delivery=inline&request_id=1'],
  ['JSON cut short', '{"delivery": "inline", "request_id": "'],
  ['JSON with a trailing comma', '{"delivery": "inline",}'],
  ['two JSON texts one after the other', '{"delivery": "inline"} {"delivery": "inline"}'],
  ['single-quoted JSON-like text', "{'delivery': 'inline'}"],
];

/** The harness endpoints `NOT_JSON_TEXTS` go to: the clock only when the payee has one. */
async function textEndpoints(): Promise<PayeeHarnessEndpoint[]> {
  const withClock = (await clockVerdict()).kind !== 'absent';
  return withClock ? ['requests', 'fulfillments', 'clock'] : ['requests', 'fulfillments'];
}

/**
 * Posts every one of `NOT_JSON_TEXTS` to every harness endpoint that takes them (none when the
 * driver cannot post raw text), each answer handed to `judge` with what was sent; each post on its
 * own, so they overlap in a `--jobs` run.
 */
async function eachNotJsonPost(
  h: PayeeHarness,
  judge: (r: HarnessResult<unknown>, what: string) => void,
): Promise<void> {
  const postText = h.postText?.bind(h);
  if (postText === undefined) return;
  const posts = (await textEndpoints()).flatMap((endpoint) =>
    NOT_JSON_TEXTS.map(([what, text]) => ({ endpoint, what, text })),
  );
  await eachOverlapping(
    posts,
    (p) => postText(p.endpoint, p.text),
    (r, p) => judge(r, `POST {harness}/${p.endpoint} with ${p.what}`),
  );
}

/** Fulfillment bodies with no string request_id (profile 2: 400 INVALID_REQUEST). */
const MALFORMED_FULFILLMENTS: readonly (readonly [string, unknown])[] = [
  ['a body that is null', null],
  ['a body that is an array', [{ request_id: randomUUID() }]],
  ['a body that is a string', randomUUID()],
  ['request_id a number', { request_id: 12345 }],
  ['request_id an object', { request_id: { id: randomUUID() } }],
];

/**
 * Extensions any conformant CPR can carry (spec 2.1 "Map of String to any"; spec 9 rule 5
 * reverse-domain keys, `:` or `.` after two or more DNS labels, of one character or more; values
 * of every JSON type, nested; no payer vocabulary at any depth).
 */
const WELL_FORMED_EXTENSIONS: Readonly<Record<string, unknown>> = {
  'com.example:order': {
    ref: 'A-1',
    lines: [{ sku: 'X-1', qty: 2, tags: ['gift', 'fragile'] }],
    rush: false,
  },
  'org.acme.terminal': 'T-7',
  'x.io:lane': 3,
  'my-shop.co.uk:labels': ['a', 'b'],
  'shop.x:empty': {},
  'net.example-shop:note': null,
};

/** Extension keys without a spec 9 rule 5 prefix (a SHOULD): each alone in its request. */
const UNPREFIXED_KEYS: readonly string[] = ['note', 'order.total', 'x_com.example:note', '-com.example:note'];

describe('profile sections 1 and 2: malformed harness bodies, member by member', () => {
  check(
    'malformed-harness-members-answer-400-invalid-request',
    ['PRF-1-INVALID-REQUEST'],
    'every harness body no reading can honour (not JSON text, on each harness endpoint; not a JSON object; an asset that is no AssetDescriptor in any of its members; a rail, amount, count, flag or extensions of the wrong form; a fulfillment without a string request_id) answers 400 INVALID_REQUEST, and every refusal of what the payee may refuse or honour is 400 INVALID_REQUEST too',
    async () => {
      const h = harness();
      const problems: string[] = [];
      const codeOf = (r: HarnessResult<unknown>, what: string, mayHonour: boolean) => {
        if (r.ok ? !mayHonour : r.error.code !== 'INVALID_REQUEST' || (r.error.status ?? 400) !== 400)
          problems.push(`${what}: answered ${answerSaid(r)}, not 400 INVALID_REQUEST`);
      };
      // every body on its own: none depends on what another did
      await eachOverlapping(
        [...MUST_REFUSE.map((c) => [c, false] as const), ...MAY_REFUSE.map((c) => [c, true] as const)],
        ([[, body]]) => h.createRequest(body as PayeeRequestParams),
        (r, [[what], mayHonour]) => codeOf(r, `a harness request with ${what}`, mayHonour),
      );
      await eachNotJsonPost(h, (r, what) => codeOf(r, what, false));
      const fulfillRaw = h.fulfillRaw?.bind(h);
      if (fulfillRaw !== undefined) {
        // bodies that are no object; a request_id of another type is graded by
        // PRF-2-FULFILLMENT-ID-INVALID (suites/payee/4.3-fulfillment.ts)
        await eachOverlapping(
          MALFORMED_FULFILLMENTS.filter(([, b]) => !isObject(b)),
          ([, body]) => fulfillRaw(body),
          (r, [what]) => codeOf(r, `a fulfillment with ${what}`, false),
        );
        // a member profile 2 does not list: refused, or read as the request_id alone (never
        // issued: 404 REQUEST_UNKNOWN; issued and open: fulfilled)
        const r = await fulfillRaw({ request_id: randomUUID(), note: 'x' });
        if (r.ok || r.error.code !== 'REQUEST_UNKNOWN')
          codeOf(r, 'a fulfillment of an unknown request_id with another member', false);
        const issued = await h.createRequest({ delivery: 'inline' });
        if (issued.ok)
          codeOf(
            await fulfillRaw({ request_id: issued.value.request_id, note: 'x' }),
            'a fulfillment of an open request with another member',
            true,
          );
      }
      assertThat(
        problems.length === 0,
        `${problems.length} harness bodies were not answered 400 INVALID_REQUEST: ${problems.slice(0, 5).join(' | ')}`,
      );
    },
  );

  check(
    'harness-refusals-carry-error-body',
    ['PRF-1-ERROR-BODY'],
    'every refusal of a harness body (create request, clock, fulfillment; not JSON text, malformed, or one the payee may refuse) answers a 4xx status with {"error": {"code": "<CODE>", "message": "<text for a person>"}}',
    async () => {
      const h = harness();
      const problems: string[] = [];
      const bodyOf = (r: HarnessResult<unknown>, what: string) => {
        if (r.ok || ('absent' in r && r.absent === true)) return;
        const p = errorBodyProblems(r.error);
        if (p.length > 0) problems.push(`${what}: ${p.join('; ')}`);
      };
      // every body on its own: none depends on what another did
      await eachOverlapping(
        [...MUST_REFUSE, ...MAY_REFUSE],
        ([, body]) => h.createRequest(body as PayeeRequestParams),
        (r, [what]) => bodyOf(r, `a harness request with ${what}`),
      );
      await eachNotJsonPost(h, bodyOf);
      const fulfillRaw = h.fulfillRaw?.bind(h);
      if (fulfillRaw !== undefined) {
        await eachOverlapping(
          MALFORMED_FULFILLMENTS,
          ([, body]) => fulfillRaw(body),
          (r, [what]) => bodyOf(r, `a fulfillment with ${what}`),
        );
        // refused as INVALID_REQUEST or REQUEST_UNKNOWN: either way with the error body
        bodyOf(
          await fulfillRaw({ request_id: randomUUID(), note: 'x' }),
          'a fulfillment of an unknown request_id with a member profile 2 does not list',
        );
      }
      const verdict = await clockVerdict();
      if (h.advanceClockRaw !== undefined && verdict.kind !== 'absent') {
        // a negative advance is refused or leaves now where it was (graded by PRF-2-HARNESS-CLOCK)
        const never: [string, unknown] = ['a negative advance_seconds', { advance_seconds: -60 }];
        for (const [what, body] of [...MALFORMED_CLOCK_BODIES, ...MAY_REFUSE_CLOCK_BODIES, never])
          bodyOf(await h.advanceClockRaw(body), `a clock body with ${what}`);
        // the suite follows the payee's now wherever the bodies above left it
        await advanceClock(1);
      }
      assertThat(
        problems.length === 0,
        `${problems.length} refusal(s) break the profile 1 error body: ${problems.slice(0, 5).join(' | ')}`,
      );
    },
  );

  check(
    'well-formed-extensions-carried-unchanged',
    ['PRF-2-HARNESS-REQUESTS'],
    'extensions with reverse-domain keys and values of every JSON type, with no payer vocabulary, are carried unchanged in the CPR (profile 2 extensions?; spec 2.1 extensions "Map of String to any"), on every rail the payee serves',
    async () => {
      const h = harness();
      const problems: string[] = [];
      for (const rail of await servedRails()) {
        const amount = CORPUS_AMOUNT[rail];
        const what = `a ${rail} request with extensions ${JSON.stringify(WELL_FORMED_EXTENSIONS).slice(0, 60)}...`;
        const r = await h.createRequest({
          rail_hint: rail,
          ...(amount === undefined ? {} : { amount }),
          extensions: { ...WELL_FORMED_EXTENSIONS },
          delivery: 'inline',
        } as PayeeRequestParams);
        const doc = inlineCpr(r);
        if (doc === undefined) {
          problems.push(
            `${what}: ${r.ok ? 'the answer is no inline cpr:// URI' : `refused (${answerSaid(r)})`}`,
          );
          continue;
        }
        const got = doc.extensions as Record<string, unknown> | undefined;
        for (const [k, v] of Object.entries(WELL_FORMED_EXTENSIONS)) {
          if (typeof got !== 'object' || got === null || !(k in got) || !sameJson(got[k], v))
            problems.push(
              `${rail}: extensions["${k}"] is ${JSON.stringify(got?.[k])}, asked ${JSON.stringify(v)}`,
            );
        }
      }
      assertThat(
        problems.length === 0,
        `well-formed extensions are carried as asked; ${problems.length} problem(s): ${problems.slice(0, 4).join(' | ')}`,
      );
    },
  );

  check(
    'unprefixed-extension-key-refused-or-left-out',
    ['CPR-9-REVERSE-DOMAIN-PREFIX'],
    'an extension key without a foundation: or reverse-domain prefix (spec 9 rule 5) is refused with 400 INVALID_REQUEST, or the CPR issued does not carry it',
    async () => {
      const h = harness();
      const problems: string[] = [];
      for (const key of UNPREFIXED_KEYS) {
        const r = await h.createRequest(inline({ extensions: { [key]: 'x' } }) as PayeeRequestParams);
        if (!r.ok) {
          if (r.error.code !== 'INVALID_REQUEST')
            problems.push(`the key "${key}": refused with ${answerSaid(r)}, not 400 INVALID_REQUEST`);
          continue;
        }
        const ext = inlineCpr(r)?.extensions;
        if (typeof ext === 'object' && ext !== null && key in ext)
          problems.push(`the key "${key}" is carried in the CPR's extensions`);
      }
      assertThat(
        problems.length === 0,
        `extension keys carry a namespace (spec 9 rule 5); ${problems.length} problem(s): ${problems.join(' | ')}`,
      );
    },
  );

  check(
    'own-asset-asked-explicitly-honoured',
    ['PRF-2-HARNESS-REQUESTS'],
    'on every rail the payee serves, a request naming the very asset the payee puts on that rail’s CPRs is honoured with that asset (it cannot be a request the payee cannot honour)',
    async () => {
      const h = harness();
      const problems: string[] = [];
      for (const rail of await servedRails()) {
        const amount = CORPUS_AMOUNT[rail];
        const base = { rail_hint: rail, ...(amount === undefined ? {} : { amount }), delivery: 'inline' };
        const plain = inlineCpr(await h.createRequest(base as PayeeRequestParams));
        const asset = (plain?.value as { asset?: unknown } | undefined)?.asset;
        if (typeof asset !== 'object' || asset === null) continue; // graded by the document checks
        const what = `a ${rail} request for ${JSON.stringify(asset)}, the asset of its plain requests`;
        const r = await h.createRequest({ ...base, asset } as PayeeRequestParams);
        const doc = inlineCpr(r);
        if (doc === undefined) {
          problems.push(
            `${what}: ${r.ok ? 'the answer is no inline cpr:// URI' : `refused (${answerSaid(r)})`}`,
          );
          continue;
        }
        const got = (doc.value as { asset?: unknown } | undefined)?.asset;
        if (!sameJson(got, asset)) problems.push(`${what}: honoured with value.asset ${JSON.stringify(got)}`);
      }
      assertThat(
        problems.length === 0,
        `the payee honours the asset it uses itself; ${problems.length} problem(s): ${problems.slice(0, 4).join(' | ')}`,
      );
    },
  );

  check(
    'request-naming-only-delivery-answered-conformant-cpr',
    ['PRF-2-HARNESS-REQUESTS'],
    'a harness request naming only its delivery (every option absent: the payee picks the rail, the asset, the window) is answered with a conformant CPR',
    async () => {
      const r = await harness().createRequest({ delivery: 'inline' });
      const doc = inlineCpr(r);
      assertThat(
        doc !== undefined,
        `{"delivery": "inline"} is answered with an inline CPR (got ${answerSaid(r)})`,
      );
      // judged only on what leaving the options out introduced: what a plain request on the same
      // rail already breaks is graded by the document checks
      const rail = doc.rail_hint;
      const baseline = new Set<string>();
      if (typeof rail === 'string' && RAILS.includes(rail)) {
        const plain = inlineCpr(await harness().createRequest({ rail_hint: rail, delivery: 'inline' }));
        for (const f of plain === undefined ? [] : errorsOf(plain)) baseline.add(f.requirement);
      }
      const bad = errorsOf(doc)
        .filter((f) => !baseline.has(f.requirement))
        .map((f) => `[${f.requirement}] ${f.path || '(root)'}: ${f.message}`);
      assertThat(
        bad.length === 0,
        `the CPR of a request without options is conformant: ${bad.slice(0, 3).join('; ')}`,
      );
    },
  );

  check(
    'one-second-validity-granted',
    ['PRF-2-HARNESS-VALIDITY'],
    'validity_seconds 1 gives expires_at - created_at of 1 s: profile 2 caps the window at a maximum and sets no minimum',
    async () => {
      const h = harness();
      const v = await h.createRequest({ delivery: 'inline', validity_seconds: 1 });
      const doc = inlineCpr(v);
      assertThat(
        doc !== undefined,
        `validity_seconds 1 is honoured with an inline CPR (got ${answerSaid(v)})`,
      );
      const c = typeof doc.created_at === 'string' ? parseRfc3339(doc.created_at) : null;
      const e = typeof doc.expires_at === 'string' ? parseRfc3339(doc.expires_at) : null;
      assertThat(c !== null && e !== null, 'created_at and expires_at are RFC 3339 timestamps');
      assertThat(
        Math.abs(e.epochMs - c.epochMs - 1000) < 1000,
        `validity_seconds 1 sets expires_at - created_at to 1 s (got ${(e.epochMs - c.epochMs) / 1000} s)`,
      );
    },
  );

  check(
    'one-second-token-ttl-granted',
    ['PRF-2-HARNESS-TOKEN-TTL'],
    'token_ttl_seconds 1 gives a token of 1 s (9 s shorter than one asked for 10 s just after): profile 2 caps the lifetime at a maximum and sets no minimum',
    async () => {
      const h = harness();
      // measured against a 10-second token asked just after: no clock skew enters the comparison
      const started = Date.now();
      const t = await h.createRequest({ delivery: 'reference', token_ttl_seconds: 1 });
      assertThat(t.ok, `token_ttl_seconds 1 is honoured (got ${answerSaid(t)})`);
      const ten = await h.createRequest({ delivery: 'reference', token_ttl_seconds: 10 });
      const elapsed = (Date.now() - started) / 1000;
      if (t.value.token_expires_at !== undefined && ten.ok && ten.value.token_expires_at !== undefined) {
        const gap = (Date.parse(ten.value.token_expires_at) - Date.parse(t.value.token_expires_at)) / 1000;
        // a payee writing whole seconds blurs each instant by up to a second
        assertThat(
          gap >= 9 - 1.5 && gap <= 9 + 1.5 + elapsed,
          `token_ttl_seconds 1 gives a token of 1 s: its token_expires_at (${t.value.token_expires_at}) is 9 s before that of a token asked for 10 s just after (${ten.value.token_expires_at}; ${gap} s)`,
        );
      }
    },
  );
});
