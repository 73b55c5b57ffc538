/**
 * Payee suite, CPR-1.0 section 2.1 (base structure) and section 9 (versioning), as emitted by
 * the payee: cpr_version, request_id uniqueness and form, and a bounded expires_at
 * (INV-3, INV-8; profile 1 and 2).
 */
import { decodeCprUri } from '../../src/codec/index.js';
import { parseRfc3339, validateMessage } from '../../src/validator/index.js';
import { assertThat, check, payee, sharedState } from '../_lib/index.js';
import {
  corpusDocuments,
  createRequest,
  harness,
  inBatches,
  label,
  maxValiditySeconds,
  referenceRequest,
} from './_support/index.js';

// These checks judge the payee's corpus of CPRs, built once per process (`cprc run --jobs` runs them
// in one process: suites/_lib sharedState).
sharedState('payee:corpus', [
  'cpr-version-must-equal-cpr-1-0',
  'payee-s-window-expires-created-stays-within',
  'request-id-uuid',
  'request-id-uuidv4-recommended',
]);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** Requests the uniqueness check asks for, sequentially and then concurrently. */
const SEQUENTIAL_REQUESTS = 96;
const PARALLEL_REQUESTS = 160;
const PARALLEL_WIDTH = 32;

/** A validity far above any sensible ceiling: 100 years, in seconds. */
const HUNDRED_YEARS_SECONDS = 100 * 365 * 24 * 3600;

/** The window expires_at - created_at of a CPR, in seconds (fails the check when unreadable). */
function windowSeconds(cpr: unknown, what: string): number {
  const doc = cpr as { created_at?: unknown; expires_at?: unknown };
  const created = typeof doc.created_at === 'string' ? parseRfc3339(doc.created_at) : null;
  const expires = typeof doc.expires_at === 'string' ? parseRfc3339(doc.expires_at) : null;
  assertThat(expires !== null, `${what}: expires_at is required and is an RFC 3339 timestamp (spec 2.1, 8)`);
  assertThat(created !== null, `${what}: created_at is required and is an RFC 3339 timestamp (spec 2.1)`);
  return (expires.epochMs - created.epochMs) / 1000;
}

/** The CPR behind a harness answer: decoded from an inline URI (no token spent). */
function inlineDocument(uri: string): Record<string, unknown> {
  const d = decodeCprUri(uri);
  assertThat(
    d.ok && d.value.kind === 'inline',
    `an inline delivery yields cpr://inline/<data>, got ${uri.slice(0, 60)}`,
  );
  return d.value.document;
}

describe('CPR-1.0 section 2.1 and 9: the base fields a payee emits', () => {
  check(
    'cpr-version-must-equal-cpr-1-0',
    ['CPR-2.1-VERSION', 'CPR-9-VERSION'],
    'cpr_version must equal "CPR-1.0" in every request',
    async () => {
      const docs = await corpusDocuments();
      const wrong = docs.filter((e) => (e.cpr as { cpr_version?: unknown }).cpr_version !== 'CPR-1.0');
      assertThat(
        wrong.length === 0,
        `every CPR carries cpr_version "CPR-1.0"; ${wrong.length} of ${docs.length} do not, e.g. ${
          wrong[0]
            ? `${label(wrong[0])}: ${JSON.stringify((wrong[0].cpr as { cpr_version?: unknown }).cpr_version)}`
            : ''
        }`,
      );
    },
  );

  check(
    `request-id-globally-unique-requests-${SEQUENTIAL_REQUESTS + PARALLEL_REQUESTS}-${PARALLEL_REQUESTS}-${PARALLEL_WIDTH}`,
    ['CPR-2.1-REQUEST-ID-UNIQUE', 'CPR-INV-3-REQUEST-ID-UNIQUE', 'CPR-INV-8-UNIQUE-REQUEST-ID'],
    `request_id is globally unique: ${SEQUENTIAL_REQUESTS + PARALLEL_REQUESTS} requests, ${PARALLEL_REQUESTS} of them ${PARALLEL_WIDTH} at a time, never share one`,
    async () => {
      harness();
      // Alternate the delivery forms so both paths of the payee assign ids; inline CPRs are read
      // locally, so the id inside the document is compared too.
      const ask = async (i: number) => {
        const delivery = i % 2 === 0 ? 'inline' : 'reference';
        const created = await createRequest({ delivery });
        const inDoc =
          delivery === 'inline' ? (inlineDocument(created.uri).request_id as unknown) : created.request_id;
        assertThat(
          inDoc === created.request_id,
          `the harness's request_id ${created.request_id} is the CPR's request_id (got ${JSON.stringify(inDoc)})`,
        );
        return created.request_id;
      };
      const ids: string[] = [];
      for (let i = 0; i < SEQUENTIAL_REQUESTS; i++) ids.push(await ask(i));
      const indexes = Array.from({ length: PARALLEL_REQUESTS }, (_, i) => SEQUENTIAL_REQUESTS + i);
      ids.push(...(await inBatches(indexes, PARALLEL_WIDTH, ask)));
      const seen = new Map<string, number>();
      const repeats: string[] = [];
      ids.forEach((id, i) => {
        const key = id.toLowerCase(); // UUIDs compare case-insensitively (RFC 4122)
        const first = seen.get(key);
        if (first !== undefined) repeats.push(`requests #${first + 1} and #${i + 1} share ${id}`);
        else seen.set(key, i);
      });
      assertThat(
        repeats.length === 0,
        `every request gets its own request_id; ${repeats.length} repeat(s): ${repeats.slice(0, 3).join('; ')}`,
      );
    },
    { timeoutMs: 60_000 },
  );

  check('request-id-uuid', ['PRF-1-IDENTIFIER-UUID'], 'request_id is a UUID', async () => {
    const docs = await corpusDocuments();
    const bad = docs.filter((e) => !UUID.test(String((e.cpr as { request_id?: unknown }).request_id)));
    assertThat(
      bad.length === 0,
      `every request_id is a UUID (8-4-4-4-12 hex); ${bad.length} of ${docs.length} are not, e.g. ${
        bad[0] ? JSON.stringify((bad[0].cpr as { request_id?: unknown }).request_id) : ''
      }`,
    );
  });

  check(
    'request-id-uuidv4-recommended',
    ['CPR-2.1-REQUEST-ID-UUIDV4', 'PRF-1-IDENTIFIER-UUIDV4'],
    'request_id is a UUIDv4 (recommended)',
    async () => {
      const docs = await corpusDocuments();
      const bad = docs.filter((e) => !UUID_V4.test(String((e.cpr as { request_id?: unknown }).request_id)));
      assertThat(
        bad.length === 0,
        `every request_id is a version 4 UUID; ${bad.length} of ${docs.length} are not, e.g. ${
          bad[0] ? JSON.stringify((bad[0].cpr as { request_id?: unknown }).request_id) : ''
        }`,
      );
    },
  );

  // INV-8 "sets a bounded expires_at". The spec gives no bound (AMB-24); what the suite can
  // observe is whether the payee imposes one of its own: asked for a 100-year validity, a payee
  // with a bound grants less. A payee granting whatever it is asked has no bound.
  check(
    'conformant-payee-sets-bounded-expires-asked-100',
    ['CPR-INV-8-BOUNDED-EXPIRY'],
    'a conformant payee sets a bounded expires_at: asked for a 100-year validity, it grants less',
    async () => {
      const created = await createRequest({ delivery: 'inline', validity_seconds: HUNDRED_YEARS_SECONDS });
      const seconds = windowSeconds(
        inlineDocument(created.uri),
        'the CPR asked with validity_seconds of 100 years',
      );
      assertThat(seconds > 0, `expires_at is after created_at (window ${seconds} s)`);
      assertThat(
        seconds < HUNDRED_YEARS_SECONDS,
        `the payee caps the validity window at a bound of its own; asked for 100 years it granted ${Math.round(seconds / 86400)} days`,
      );
    },
  );

  check(
    'payee-s-window-expires-created-stays-within',
    ['PRF-2-VALIDITY-CEILING'],
    `a payee's window (expires_at - created_at) stays within its configured ceiling (payee.max_validity_seconds, default 30 days)`,
    async () => {
      const ceiling = maxValiditySeconds();
      const docs = await corpusDocuments();
      const created = await createRequest({ delivery: 'inline', validity_seconds: HUNDRED_YEARS_SECONDS });
      const all = [
        ...docs.map((e) => ({ what: label(e), cpr: e.cpr })),
        { what: 'the CPR asked with a 100-year validity', cpr: inlineDocument(created.uri) },
      ];
      for (const { what, cpr } of all) {
        const seconds = windowSeconds(cpr, what);
        assertThat(
          seconds <= ceiling,
          `${what}: the window is ${seconds} s, above the ceiling of ${ceiling} s (payee.max_validity_seconds)`,
        );
      }
    },
  );

  check(
    'validity-seconds-sets-expires-created-capped-payee',
    ['PRF-2-HARNESS-VALIDITY'],
    'validity_seconds sets expires_at - created_at, capped at the payee’s own maximum',
    async () => {
      const ceiling = maxValiditySeconds();
      const short = await createRequest({ delivery: 'inline', validity_seconds: 600 });
      const shortWindow = windowSeconds(inlineDocument(short.uri), 'the CPR asked with validity_seconds 600');
      // created_at may be truncated to the second: allow one second either way.
      assertThat(
        Math.abs(shortWindow - 600) <= 1,
        `asked for validity_seconds 600, the window is 600 s (got ${shortWindow} s)`,
      );
      const long = await createRequest({ delivery: 'inline', validity_seconds: HUNDRED_YEARS_SECONDS });
      const longWindow = windowSeconds(inlineDocument(long.uri), 'the CPR asked with a 100-year validity');
      assertThat(
        longWindow <= ceiling,
        `asked for 100 years, the window is capped at the payee's maximum (at most ${ceiling} s, payee.max_validity_seconds); got ${longWindow} s`,
      );
    },
  );

  check(
    'post-harness-requests-answers-201-uri-request',
    ['PRF-2-HARNESS-REQUESTS'],
    'POST {harness}/requests answers 201 {uri, request_id, token_expires_at?, qr_png_base64?} and request_id names the CPR',
    async () => {
      const h = harness();
      const r = await h.createRequest({ delivery: 'reference', qr: true });
      assertThat(
        r.ok,
        `the harness accepts {"delivery": "reference", "qr": true}: ${r.ok ? '' : JSON.stringify(r.error)}`,
      );
      if (r.status !== undefined)
        assertThat(r.status === 201, `the harness answers 201 Created (got ${r.status})`);
      const v = validateMessage('harness/create-request-response', r.value);
      assertThat(
        v.valid,
        `the answer matches the profile's shape: ${v.findings.map((f) => `${f.path} ${f.message}`).join('; ')}`,
      );
      const ref = await referenceRequest();
      const got = await payee().retrieve(ref.uri);
      assertThat(got.ok, 'the CPR of a fresh reference request can be retrieved');
      const inDoc = (got.cpr as { request_id?: unknown }).request_id;
      assertThat(
        typeof inDoc === 'string' && inDoc.toLowerCase() === ref.request_id.toLowerCase(),
        `the harness's request_id ${ref.request_id} is the retrieved CPR's request_id (got ${JSON.stringify(inDoc)})`,
      );
      assertThat(
        UUID.test(ref.request_id),
        `the harness's request_id is a UUID (got ${JSON.stringify(ref.request_id)})`,
      );
    },
  );
});
