/**
 * Payee suite, CPR-1.0 sections 4.2 (URI delivery formats) and 4.3 (delivery rules: QR code)
 * with profile section 2: reference and inline URIs, and the QR image of each, decoded from the
 * harness's PNG and compared with the URI.
 */
import fc from 'fast-check';
import { decodeCprUri } from '../../src/codec/index.js';
import { textArbitrary } from '../../src/testing/arbitraries.js';
import { validateCpr } from '../../src/validator/index.js';
import { assertProperty, assertThat, check, expectOk, sharedState, skip } from '../_lib/index.js';
import {
  type CorpusEntry,
  corpus,
  deliveryProblems,
  GRADED_ELSEWHERE,
  harness,
  label,
  maxValiditySeconds,
  servedRails,
} from './_support/index.js';

// These checks judge the payee's corpus of CPRs, built once per process (`cprc run --jobs` runs them
// in one process: suites/_lib sharedState).
sharedState('payee:corpus', [
  'reference-delivery-yields-cpr-token-endpoint-url',
  'reference-uri-cpr-token-endpoint-percent-encoded',
  'inline-delivery-yields-cpr-inline-base64url-encoded',
  'inline-uri-base64url-utf-8-json-without',
  'implementations-should-support-least-qr-code-url',
  'uri-rendered-qr-code-scanning-yields-same',
  'qr-payload-whole-uri-harness-answered-symbol',
  'qr-code-encodes-uri-byte-mode',
]);

type Entry = CorpusEntry & { cpr: unknown };

/** Profile 1: the largest amount, 2^256 - 1. */
const LARGEST_AMOUNT = (2n ** 256n - 1n).toString();

async function entriesOf(forms: ReadonlyArray<CorpusEntry['form']>): Promise<CorpusEntry[]> {
  return (await corpus()).filter((e) => forms.includes(e.form));
}

/** QR entries; skips when the payee offers no QR image at all (graded by the SHOULD check). */
async function qrEntries(): Promise<CorpusEntry[]> {
  const entries = await entriesOf(['qr-reference', 'qr-inline']);
  if (entries.every((e) => e.qrText === undefined && e.problem?.includes('no qr_png_base64')))
    skip('the payee harness offers no QR image (qr: true answered no qr_png_base64)');
  return entries;
}

describe('CPR-1.0 section 4.2: URI delivery formats', () => {
  check(
    'reference-delivery-yields-cpr-token-endpoint-url',
    ['CPR-4.2-REFERENCE-URI', 'CPR-4.2-URI-FORMAT'],
    'reference delivery yields cpr://<token>?endpoint=<url>',
    async () => {
      for (const e of await entriesOf(['reference', 'qr-reference'])) {
        const d = decodeCprUri(e.uri);
        assertThat(
          d.ok && d.value.kind === 'reference',
          `${label(e)}: the uri has the reference shape (got ${e.uri.slice(0, 80)}${d.ok ? '' : `: ${d.findings.map((f) => f.message).join('; ')}`})`,
        );
        assertThat(
          d.value.token.length > 0 && d.value.endpoint.length > 0,
          `${label(e)}: token and endpoint are present`,
        );
      }
    },
  );

  check(
    'reference-uri-cpr-token-endpoint-percent-encoded',
    ['PRF-2-REFERENCE-URI'],
    'the reference URI is cpr://{token}?endpoint={percent-encoded https base_url}, retrieved at {endpoint}/cpr/{token}',
    async () => {
      for (const e of await entriesOf(['reference', 'qr-reference'])) {
        const d = decodeCprUri(e.uri);
        assertThat(d.ok && d.value.kind === 'reference', `${label(e)}: the uri has the reference shape`);
        const remarks = d.findings.filter((f) => f.requirement === 'PRF-2-REFERENCE-URI');
        assertThat(remarks.length === 0, `${label(e)}: ${remarks.map((f) => f.message).join('; ')}`);
        let endpoint: URL | undefined;
        try {
          endpoint = new URL(d.value.endpoint);
        } catch {
          endpoint = undefined;
        }
        assertThat(
          endpoint?.protocol === 'https:',
          `${label(e)}: the endpoint is an https URL (got ${d.value.endpoint})`,
        );
        if (e.form === 'reference')
          assertThat(
            e.cpr !== undefined,
            `${label(e)}: {endpoint}/cpr/{token} serves the CPR (${e.problem ?? ''})`,
          );
      }
    },
  );

  check(
    'inline-delivery-yields-cpr-inline-base64url-encoded',
    ['CPR-4.2-INLINE-URI'],
    'inline delivery yields cpr://inline/<base64url-encoded-json> carrying the full CPR (base fields plus sub-interface fields)',
    async () => {
      const entries = await entriesOf(['inline']);
      for (const e of entries) {
        const d = decodeCprUri(e.uri);
        assertThat(
          d.ok && d.value.kind === 'inline',
          `${label(e)}: the uri is cpr://inline/<base64url json> (got ${e.uri.slice(0, 60)}${d.ok ? '' : `: ${d.findings.map((f) => f.message).join('; ')}`})`,
        );
      }
      const problems = (entries as Entry[]).filter((e) => e.cpr !== undefined).flatMap(deliveryProblems);
      assertThat(
        problems.length === 0,
        `every inline URI carries the full CPR; ${problems.length} problem(s): ${problems.slice(0, 5).join(' | ')}`,
      );
    },
  );

  check(
    'rail-amount-1-2-256-1-memo',
    ['CPR-4.2-INLINE-URI', 'PRF-2-HARNESS-REQUESTS'],
    'for any rail, amount (1 to 2^256 - 1) and memo (up to 140 code points) asked, the inline CPR is valid and carries them unchanged (property)',
    async () => {
      harness();
      // the rails this payee serves: refusing another rail with 400 is allowed (profile 2)
      const rails = await servedRails();
      await assertProperty(
        fc.asyncProperty(
          fc.constantFrom(...rails),
          fc.option(
            fc.bigInt({ min: 1n, max: 2n ** 256n - 1n }).map((n) => n.toString()),
            { nil: undefined },
          ),
          fc.option(textArbitrary(140), { nil: undefined }),
          async (rail, amount, memo) => {
            const params = {
              rail_hint: rail,
              ...(amount === undefined ? {} : { amount }),
              ...(memo === undefined ? {} : { memo }),
              delivery: 'inline' as const,
            };
            const answer = await harness().createRequest(params);
            // Profile 2 lets the payee refuse the largest amount (400 INVALID_REQUEST), as the
            // code check of 2-harness-malformed.ts grants; fast-check's bias asks for it often.
            if (amount === LARGEST_AMOUNT && !answer.ok && answer.error.code === 'INVALID_REQUEST')
              return (answer.error.status ?? 400) === 400;
            const created = expectOk(answer, `the harness request ${JSON.stringify(params)}`);
            const d = decodeCprUri(created.uri);
            if (!d.ok || d.value.kind !== 'inline') return false;
            const doc = d.value.document as {
              rail_hint?: unknown;
              memo?: unknown;
              value?: { amount?: unknown };
            };
            const errors = validateCpr(doc, {
              mode: 'payee',
              maxValiditySeconds: maxValiditySeconds(),
            }).findings.filter((f) => f.severity === 'error' && !GRADED_ELSEWHERE.has(f.requirement));
            // Spec 2.3: an omitted amount is an open amount; profile 1: the digit string is kept as is.
            return (
              errors.length === 0 &&
              doc.rail_hint === rail &&
              doc.value?.amount === amount &&
              doc.memo === memo
            );
          },
        ),
        // each run asks the harness for a request of its own
        { overlap: true },
      );
    },
    { timeoutMs: 60_000 },
  );

  check(
    'inline-uri-base64url-utf-8-json-without',
    ['PRF-2-INLINE-URI'],
    'the inline URI is base64url of the UTF-8 JSON, without padding',
    async () => {
      for (const e of await entriesOf(['inline', 'qr-inline'])) {
        const d = decodeCprUri(e.uri);
        assertThat(d.ok, `${label(e)}: the inline uri decodes`);
        const remarks = d.findings.filter((f) => f.requirement === 'PRF-2-INLINE-URI');
        assertThat(remarks.length === 0, `${label(e)}: ${remarks.map((f) => f.message).join('; ')}`);
      }
    },
  );
});

describe('CPR-1.0 section 4.3: QR code delivery', () => {
  check(
    'uri-rendered-qr-code-scanning-yields-same',
    ['CPR-4.3-QR-CODE', 'CPR-4.2-SAME-SCHEME'],
    'the URI is rendered as a QR code: scanning it yields the same cpr:// URI, which resolves to the CPR',
    async () => {
      const entries = await qrEntries();
      for (const e of entries) {
        assertThat(e.qrText !== undefined, `${label(e)}: ${e.problem ?? 'the QR image is readable'}`);
        assertThat(
          e.qrText.startsWith('cpr://'),
          `${label(e)}: the QR code carries a cpr:// URI, the same scheme as deep links (got ${e.qrText.slice(0, 60)})`,
        );
        assertThat(
          e.cpr !== undefined,
          `${label(e)}: the scanned URI resolves to the CPR (${e.problem ?? 'no CPR'})`,
        );
      }
    },
  );

  check(
    'qr-payload-whole-uri-harness-answered-symbol',
    ['PRF-2-QR-CAPACITY'],
    'the QR payload is the whole URI the harness answered, in one symbol',
    async () => {
      for (const e of await qrEntries()) {
        assertThat(e.qrText !== undefined, `${label(e)}: ${e.problem ?? 'the QR image is readable'}`);
        assertThat(
          e.qrText === e.uri,
          `${label(e)}: the QR payload equals the uri (payload ${e.qrText.slice(0, 60)}..., uri ${e.uri.slice(0, 60)}...)`,
        );
      }
    },
  );

  check(
    'qr-code-encodes-uri-byte-mode',
    ['PRF-2-QR-ENCODING'],
    'the QR code encodes the URI in byte mode',
    async () => {
      for (const e of await qrEntries()) {
        assertThat(e.qrText !== undefined, `${label(e)}: ${e.problem ?? 'the QR image is readable'}`);
        // the error-correction level is graded by qr-code-error-correction-m-or-better
        const remarks = (e.qrFindings ?? []).filter((m) => !/error.correction/.test(m));
        assertThat(remarks.length === 0, `${label(e)}: ${remarks.join('; ')}`);
      }
    },
  );

  check(
    'implementations-should-support-least-qr-code-url',
    ['CPR-4.3-QR-AND-TOKEN-DELIVERY'],
    'implementations should support at least QR code and URL token delivery',
    async () => {
      const entries = await entriesOf(['reference', 'qr-reference']);
      const noQr = entries.filter((e) => e.form === 'qr-reference' && e.qrText === undefined);
      assertThat(noQr.length === 0, `QR delivery is supported: ${noQr[0]?.problem ?? ''}`);
      const noToken = entries.filter((e) => e.form === 'reference' && e.cpr === undefined);
      assertThat(noToken.length === 0, `URL token delivery is supported: ${noToken[0]?.problem ?? ''}`);
    },
  );
});
