/**
 * Payee suite, profile section 1: every JSON answer of the payee (CPR retrieval and its errors,
 * harness answers and their errors, the test clock) is served as `application/json` in UTF-8, and
 * every JSON text it emits (answers and the JSON inside inline URIs) has no byte order mark and
 * no duplicate member names (RFC 8259 sections 4 and 8.1).
 */
import { randomUUID } from 'node:crypto';
import { scanJsonText } from '../../src/validator/index.js';
import { assertThat, check, type PayeeRequestParams, payee, sharedState, skip } from '../_lib/index.js';
import { advanceClock, clockVerdict, corpus, harness, label, sharedOnce } from './_support/index.js';

// These checks judge the payee's corpus of CPRs, built once per process (`cprc run --jobs` runs them
// in one process: suites/_lib sharedState).
sharedState('payee:corpus', [
  'every-json-answer-content-type-application-json',
  'emitted-json-text-has-no-byte-order-mark',
  'emitted-json-text-has-no-duplicate-member-names',
]);

// The payee's test clock is moved by these checks (`cprc run --jobs` runs them after every other
// payee check, in one process: suites/_lib sharedState).
sharedState('payee:clock', [
  'every-json-answer-content-type-application-json',
  'emitted-json-text-has-no-byte-order-mark',
  'emitted-json-text-has-no-duplicate-member-names',
]);

/** One answer of the payee, as received. */
interface JsonAnswer {
  /** What was asked, for messages. */
  what: string;
  status?: number;
  headers?: Record<string, string>;
  /** The raw JSON text (an answer body, or the JSON inside an inline URI). */
  text?: string;
  /** False for the JSON inside an inline URI (no media type). */
  served: boolean;
}

/** The JSON text inside a `cpr://inline/...` URI, or undefined. */
function inlineText(uri: string): string | undefined {
  const m = /^cpr:\/\/inline\/([A-Za-z0-9_-]+)={0,2}$/.exec(uri);
  return m ? Buffer.from(m[1] ?? '', 'base64url').toString('utf8') : undefined;
}

/** Every kind of answer the payee's endpoints give, collected once. */
const jsonAnswers = sharedOnce('payee:corpus', 'json-answers', async (): Promise<JsonAnswer[]> => {
  const h = harness();
  const p = payee();
  const out: JsonAnswer[] = [];
  const add = (
    what: string,
    r: {
      ok: boolean;
      status?: number;
      headers?: Record<string, string>;
      text?: string;
      error?: { status?: number };
    },
  ) => {
    const status = r.status ?? r.error?.status;
    out.push({
      what,
      served: true,
      ...(status === undefined ? {} : { status }),
      ...(r.headers === undefined ? {} : { headers: r.headers }),
      ...(r.text === undefined ? {} : { text: r.text }),
    });
  };
  const ref = await h.createRequest({ delivery: 'reference', memo: 'Json answers' });
  add('the harness answer to a reference request (201)', ref);
  const inline = await h.createRequest({ delivery: 'inline', memo: 'Json answers', qr: true });
  add('the harness answer to an inline request with qr (201)', inline);
  if (inline.ok) {
    const t = inlineText(inline.value.uri);
    if (t !== undefined) out.push({ what: 'the JSON inside an inline URI', text: t, served: false });
  }
  if (ref.ok) {
    add('a CPR retrieval (200)', await p.retrieve(ref.value.uri));
    add('a second retrieval of the token (410)', await p.retrieve(ref.value.uri));
    add('the fulfillment of the request (200)', await h.fulfill(ref.value.request_id));
    add('a second fulfillment (409)', await h.fulfill(ref.value.request_id));
  }
  add('the retrieval of a never-issued token (404)', await p.retrieve(randomUUID().replace(/-/g, '')));
  add('the fulfillment of a request_id never issued (404)', await h.fulfill(randomUUID()));
  add(
    'a harness request with an unknown delivery form (400)',
    await h.createRequest({ delivery: 'carrier-pigeon' } as unknown as PayeeRequestParams),
  );
  if (h.fulfillRaw) add('a fulfillment without request_id (400)', await h.fulfillRaw({}));
  for (const e of await corpus()) {
    if (e.text !== undefined)
      out.push({
        what: `the CPR of ${label(e)}`,
        text: e.text,
        served: e.form === 'reference' || e.form === 'qr-reference',
      });
  }
  if ((await clockVerdict()).kind === 'working') {
    const tick = await advanceClock(1);
    add('the test clock answer (200)', tick);
  }
  return out;
});

describe('profile section 1: every JSON answer of the payee', () => {
  check(
    'every-json-answer-content-type-application-json',
    ['PRF-1-JSON-UTF8'],
    'every JSON answer of the payee (retrieval, errors, harness and clock answers) is served with Content-Type application/json in UTF-8',
    async () => {
      const answers = (await jsonAnswers()).filter((a) => a.served && a.headers !== undefined);
      if (answers.length === 0) skip('the driver reports no response headers (custom binding)');
      const problems: string[] = [];
      for (const a of answers) {
        const ct = a.headers?.['content-type'] ?? '';
        const [type = '', ...params] = ct.split(';').map((s) => s.trim().toLowerCase());
        const charset = params
          .find((x) => x.startsWith('charset='))
          ?.slice('charset='.length)
          .replace(/"/g, '');
        if (type !== 'application/json' || (charset !== undefined && charset !== 'utf-8'))
          problems.push(`${a.what}: Content-Type ${JSON.stringify(ct)}`);
      }
      assertThat(
        problems.length === 0,
        `every JSON answer is application/json (UTF-8); ${problems.length} of ${answers.length} are not: ${problems.slice(0, 5).join('; ')}`,
      );
    },
  );

  check(
    'emitted-json-text-has-no-byte-order-mark',
    ['PRF-1-JSON-NO-BOM'],
    'the JSON text the payee emits (answers, and the JSON inside inline URIs) has no byte order mark',
    async () => {
      const answers = (await jsonAnswers()).filter((a) => a.text !== undefined);
      if (answers.length === 0) skip('the driver reports no answer text (custom binding)');
      const bad = answers.filter((a) => scanJsonText(a.text as string).bom).map((a) => a.what);
      assertThat(
        bad.length === 0,
        `no JSON text starts with a byte order mark (U+FEFF); ${bad.length} do: ${bad.slice(0, 5).join('; ')}`,
      );
    },
  );

  check(
    'emitted-json-text-has-no-duplicate-member-names',
    ['PRF-1-JSON-UNIQUE-MEMBER-NAMES'],
    'the JSON text the payee emits (answers, and the JSON inside inline URIs) has no duplicate member names',
    async () => {
      const answers = (await jsonAnswers()).filter((a) => a.text !== undefined);
      if (answers.length === 0) skip('the driver reports no answer text (custom binding)');
      const bad: string[] = [];
      for (const a of answers) {
        const dups = scanJsonText(a.text as string).duplicates;
        if (dups.length > 0)
          bad.push(
            `${a.what}: ${dups
              .slice(0, 3)
              .map((d) => d.path)
              .join(', ')} repeated`,
          );
      }
      assertThat(
        bad.length === 0,
        `no object of an emitted JSON text repeats a member name; ${bad.length} do: ${bad.slice(0, 5).join('; ')}`,
      );
    },
  );
});
