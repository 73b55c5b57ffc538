import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CODEC_REQUIREMENTS,
  decodeCprUri,
  encodeInlineUri,
  encodeReferenceUri,
  type InlineCprUri,
  QR_REQUIREMENTS,
  type ReferenceCprUri,
  tokenFormatFindings,
} from '../../src/codec/index.js';

const TOKEN = 'mfrggzdfmztwq2lknnwg23tpobyxe43u'; // 32 base32 chars = 160 bits
const BASE = 'https://127.0.0.1:8443';

const base32Token = fc
  .array(fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz234567'), { minLength: 26, maxLength: 64 })
  .map((a) => a.join(''));
const hexToken = fc
  .array(fc.constantFrom(...'0123456789abcdef'), { minLength: 32, maxLength: 64 })
  .map((a) => a.join(''));

const pathSegment = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }).map(encodeURIComponent);
const httpsEndpoint = fc
  .record({
    host: fc.oneof(fc.domain(), fc.ipV4(), fc.constant('[::1]')),
    port: fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }),
    segments: fc.array(pathSegment, { maxLength: 3 }),
  })
  .map(({ host, port, segments }) => {
    const u = new URL(`https://${host}${port === undefined ? '' : `:${port}`}`);
    u.pathname = segments.length === 0 ? '' : `/${segments.join('/')}`;
    return u.href.replace(/\/$/, '');
  });

const amount = fc.bigInt({ min: 1n, max: 2n ** 256n - 1n }).map(String);
const memo = fc.string({ unit: 'grapheme', maxLength: 140 });
const cprLike = fc.record(
  {
    cpr_version: fc.constant('CPR-1.0'),
    request_id: fc.uuid({ version: 4 }),
    created_at: fc.constant('2026-01-01T00:00:00Z'),
    expires_at: fc.constant('2026-01-01T00:15:00Z'),
    payee: fc.record({
      display_name: fc.string({ unit: 'grapheme', maxLength: 40 }),
      rail_address: fc.record({ iban: fc.constant('DE89370400440532013000') }),
    }),
    value: fc.record({
      amount,
      asset: fc.record({ type: fc.constant('fiat'), code: fc.constantFrom('EUR', 'BRL', 'JPY') }),
    }),
    memo,
    extensions: fc.dictionary(fc.string({ minLength: 1, maxLength: 10 }), fc.jsonValue({ maxDepth: 2 })),
  },
  { requiredKeys: ['cpr_version', 'request_id', 'created_at', 'expires_at', 'payee', 'value'] },
);

function ok<T>(r: { ok: true; value: T } | { ok: false; findings: unknown[] }): T {
  if (!r.ok) throw new Error(`expected ok, got ${JSON.stringify(r.findings)}`);
  return r.value;
}
function failures(uri: unknown) {
  const r = decodeCprUri(uri);
  expect(r.ok).toBe(false);
  return r.findings;
}

describe('cpr:// inline URIs (spec 4.2, profile 2) [CPR-4.2-URI-FORMAT PRF-2-INLINE-URI]', () => {
  it('round-trips any CPR-like object, including non-ASCII memos and amounts beyond 2^53', () => {
    fc.assert(
      fc.property(cprLike, (doc) => {
        const uri = encodeInlineUri(doc);
        expect(uri).toMatch(/^cpr:\/\/inline\/[A-Za-z0-9_-]+$/);
        const r = decodeCprUri(uri);
        const v = ok(r) as InlineCprUri;
        expect(v.kind).toBe('inline');
        expect(v.document).toEqual(JSON.parse(JSON.stringify(doc)));
        expect(v.json).toBe(JSON.stringify(doc));
        expect(r.ok && r.findings).toEqual([]);
      }),
    );
  });

  it('encodes UTF-8 then base64url without padding', () => {
    const uri = encodeInlineUri({ memo: 'café ☕ 𝄞' });
    const data = uri.slice('cpr://inline/'.length);
    expect(data).not.toContain('=');
    expect(Buffer.from(data, 'base64url').toString('utf8')).toBe('{"memo":"café ☕ 𝄞"}');
  });

  it('refuses to encode something that is not a JSON object', () => {
    expect(() => encodeInlineUri([] as unknown as object)).toThrow(/must be a JSON object/);
    expect(() => encodeInlineUri(null as unknown as object)).toThrow(/must be a JSON object/);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => encodeInlineUri(cyclic)).toThrow(/cannot be written as JSON/);
  });

  it('tolerates padding with a PROFILE warning', () => {
    const data = Buffer.from('{"a":1}').toString('base64url'); // 10 chars -> 2 padding
    const r = decodeCprUri(`cpr://inline/${data}==`);
    expect(r.ok).toBe(true);
    expect(r.findings).toEqual([
      expect.objectContaining({ requirement: 'PRF-2-INLINE-URI', level: 'PROFILE', severity: 'warning' }),
    ]);
  });

  it.each([
    [
      'standard base64 characters',
      `cpr://inline/${Buffer.from('{"a":"??>"}').toString('base64')}`,
      /not base64url.*standard base64/,
    ],
    ['a space', 'cpr://inline/eyJh IjoxfQ', /not base64url: character " "/],
    ['an impossible length', 'cpr://inline/eyJhI', /cannot encode whole bytes/],
    ['non-zero unused bits', 'cpr://inline/eyJhIjoxfR', /not canonical/],
    [
      'invalid UTF-8',
      `cpr://inline/${Buffer.from([0x7b, 0xff, 0x7d]).toString('base64url')}`,
      /not decode to utf-8/,
    ],
    ['not JSON', `cpr://inline/${Buffer.from('{a:1}').toString('base64url')}`, /not json/],
    [
      'a JSON array',
      `cpr://inline/${Buffer.from('[1]').toString('base64url')}`,
      /holds json an array, not a json object/,
    ],
    [
      'a JSON string',
      `cpr://inline/${Buffer.from('"x"').toString('base64url')}`,
      /holds json a string, not a json object/,
    ],
    ['a BOM before the JSON', `cpr://inline/${Buffer.from('\ufeff{}').toString('base64url')}`, /not json/],
    ['no data', 'cpr://inline/', /no data/],
    ['no path at all', 'cpr://inline', /no data/],
    ['a query', `cpr://inline/${Buffer.from('{}').toString('base64url')}?x=1`, /has a query/],
    ['a slash inside the data', 'cpr://inline/e30/e30', /contains "\/"/],
  ])('rejects inline data with %s, naming the problem', (_name, uri, message) => {
    const errors = failures(uri).filter((x) => x.severity === 'error');
    expect(errors).toHaveLength(1);
    const f = errors[0];
    expect(f?.message).toMatch(message);
    expect(['CPR-4.2-INLINE-URI', 'PRF-2-INLINE-URI']).toContain(f?.requirement);
  });
});

describe('cpr:// reference URIs (spec 4.2, profile 2) [CPR-4.2-URI-FORMAT PRF-2-REFERENCE-URI]', () => {
  it('round-trips any lowercase base32 or hex token and https endpoint', () => {
    fc.assert(
      fc.property(fc.oneof(base32Token, hexToken), httpsEndpoint, (token, endpoint) => {
        const uri = encodeReferenceUri(token, endpoint);
        const r = decodeCprUri(uri);
        const v = ok(r) as ReferenceCprUri;
        expect(v).toEqual({ kind: 'reference', token, endpoint, retrievalUrl: `${endpoint}/cpr/${token}` });
        expect(r.findings).toEqual([]);
        // The query is exactly one percent-encoded parameter: nothing of the endpoint leaks raw.
        expect(uri.split('?')[1]).toMatch(/^endpoint=[A-Za-z0-9%._~!'()*-]+$/);
      }),
    );
  });

  it('percent-encodes the endpoint so "?", "&", "#", "+" and "%" survive', () => {
    const endpoint = 'https://h.example/a%2Fb/c+d';
    const uri = encodeReferenceUri(TOKEN, endpoint);
    expect(uri).toBe(`cpr://${TOKEN}?endpoint=https%3A%2F%2Fh.example%2Fa%252Fb%2Fc%2Bd`);
    expect(ok(decodeCprUri(uri))).toMatchObject({ endpoint, retrievalUrl: `${endpoint}/cpr/${TOKEN}` });
  });

  it('decodes "+" as a plus sign (URI query, not an HTML form)', () => {
    const v = ok(decodeCprUri(`cpr://${TOKEN}?endpoint=https%3A%2F%2Fh%2Fa%2Bb`)) as ReferenceCprUri;
    expect(v.endpoint).toBe('https://h/a+b');
  });

  it('accepts an endpoint that already ends in /cpr/{token}', () => {
    const endpoint = `${BASE}/cpr/${TOKEN}`;
    expect(ok(decodeCprUri(encodeReferenceUri(TOKEN, endpoint)))).toMatchObject({ retrievalUrl: endpoint });
    expect(ok(decodeCprUri(encodeReferenceUri(TOKEN, `${endpoint}/`)))).toMatchObject({
      retrievalUrl: endpoint,
    });
  });

  it('rejects an endpoint ending in /cpr/ with another token [PRF-2-REFERENCE-FULL-ENDPOINT]', () => {
    const [f] = failures(encodeReferenceUri(TOKEN, `${BASE}/cpr/${'a'.repeat(32)}`));
    expect(f).toMatchObject({ requirement: 'PRF-2-REFERENCE-FULL-ENDPOINT', severity: 'error' });
    expect(f?.message).toMatch(/not this uri's token/);
  });

  it('drops trailing slashes of the base before joining', () => {
    expect(ok(decodeCprUri(encodeReferenceUri(TOKEN, `${BASE}/pay//`)))).toMatchObject({
      retrievalUrl: `${BASE}/pay/cpr/${TOKEN}`,
    });
  });

  it('accepts an endpoint that is not percent-encoded, with a PROFILE warning', () => {
    const r = decodeCprUri(`cpr://${TOKEN}?endpoint=${BASE}/x`);
    expect(r.ok && r.value).toMatchObject({ retrievalUrl: `${BASE}/x/cpr/${TOKEN}` });
    expect(r.findings).toEqual([
      expect.objectContaining({ requirement: 'PRF-2-REFERENCE-URI', severity: 'warning', level: 'PROFILE' }),
    ]);
  });

  it('rejects an endpoint that is not https [CPR-5-TLS-ONLY]', () => {
    for (const endpoint of ['http://127.0.0.1:8080', 'ftp://h/x', 'file:///etc/passwd']) {
      const [f] = failures(encodeReferenceUri(TOKEN, endpoint));
      expect(f).toMatchObject({ requirement: 'CPR-5-TLS-ONLY', level: 'SPEC', severity: 'error' });
      expect(f?.message).toMatch(/must be https/);
    }
  });

  it.each([
    ['no endpoint', `cpr://${TOKEN}`, /no "endpoint"/],
    ['an empty query', `cpr://${TOKEN}?`, /no "endpoint"/],
    ['another parameter only', `cpr://${TOKEN}?url=${encodeURIComponent(BASE)}`, /no "endpoint"/],
    ['an empty endpoint', `cpr://${TOKEN}?endpoint=`, /empty "endpoint"/],
    ['two endpoints', `cpr://${TOKEN}?endpoint=a&endpoint=b`, /2 "endpoint" query parameters/],
    ['a bad percent sequence', `cpr://${TOKEN}?endpoint=https%3A%2F%2Fh%zz`, /malformed percent-encoding/],
    ['a relative endpoint', `cpr://${TOKEN}?endpoint=%2Fcpr`, /not an absolute url/],
    ['credentials in the endpoint', encodeReferenceUri(TOKEN, 'https://u:p@h'), /user credentials/],
    ['a query in the endpoint', encodeReferenceUri(TOKEN, 'https://h/?a=1'), /query or fragment/],
    ['a path after the token', `cpr://${TOKEN}/x?endpoint=${encodeURIComponent(BASE)}`, /has a path/],
    ['a fragment', `cpr://${TOKEN}?endpoint=${encodeURIComponent(BASE)}#f`, /fragment/],
    [
      'a percent-encoded token',
      `cpr://ab%41?endpoint=${encodeURIComponent(BASE)}`,
      /cannot stand where a uri host goes/,
    ],
    ['another scheme', `https://${TOKEN}?endpoint=x`, /scheme is "https"/],
    ['no authority', 'cpr:///x', /no token/],
    ['no "//"', 'cpr:abc', /not of the form/],
    ['an empty string', '', /not of the form/],
  ])('rejects a reference URI with %s', (_name, uri, message) => {
    const fs = failures(uri);
    const errors = fs.filter((f) => f.severity === 'error');
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.at(-1)?.message).toMatch(message);
    for (const f of fs) expect(f.path).toBe('');
  });

  it('accepts a "/" after the token with a PROFILE warning, and an upper-case scheme', () => {
    const r = decodeCprUri(`CPR://${TOKEN}/?endpoint=${encodeURIComponent(BASE)}`);
    expect(r.ok && r.value).toMatchObject({ token: TOKEN, retrievalUrl: `${BASE}/cpr/${TOKEN}` });
    expect(r.findings.map((f) => f.severity)).toEqual(['warning']);
  });

  it('reports a token outside the profile format as a PROFILE error without blocking retrieval [PRF-2-TOKEN-FORMAT]', () => {
    for (const [token, why, requirement] of [
      ['ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', /upper-case/, 'PRF-2-TOKEN-FORMAT'],
      ['abc', /at most 15 bits/, 'PRF-2-TOKEN-ENTROPY'],
      ['0123456789abcdef', /at most 64 bits/, 'PRF-2-TOKEN-ENTROPY'],
      ['tok_en-with.chars~', /neither lowercase base32/, 'PRF-2-TOKEN-FORMAT'],
    ] as const) {
      const r = decodeCprUri(encodeReferenceUri(token, BASE));
      expect(r.ok && r.value).toMatchObject({ token, retrievalUrl: `${BASE}/cpr/${token}` });
      expect(r.findings).toEqual([
        expect.objectContaining({ requirement, level: 'PROFILE', severity: 'error' }),
      ]);
      expect(r.findings[0]?.message).toMatch(why);
    }
    expect(tokenFormatFindings('a'.repeat(26))).toEqual([]); // 130 bits of base32
    expect(tokenFormatFindings('0'.repeat(32))).toEqual([]); // 128 bits of hex
    expect(tokenFormatFindings('a'.repeat(25))).toHaveLength(1); // 125 bits
  });

  it('refuses to encode a host-unsafe token or a non-URL endpoint', () => {
    expect(() => encodeReferenceUri('', BASE)).toThrow(/token must be/);
    expect(() => encodeReferenceUri('a/b', BASE)).toThrow(/token must be/);
    expect(() => encodeReferenceUri(TOKEN, 'not a url')).toThrow(/endpoint must be an absolute URL/);
  });
});

describe('decodeCprUri never throws [CPR-4.2-URI-FORMAT]', () => {
  it('on any value', () => {
    fc.assert(
      fc.property(fc.anything(), (v) => {
        const r = decodeCprUri(v);
        expect(r.ok).toBe(false);
      }),
    );
  });

  it('on any string after cpr://, and every finding is well-formed', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.webUrl().map(encodeURIComponent)),
        fc.constantFrom('cpr://', 'cpr://inline/', `cpr://${TOKEN}?endpoint=`),
        (s, prefix) => {
          const r = decodeCprUri(prefix + s);
          for (const f of r.findings) {
            expect(Object.keys(f).sort()).toEqual(['level', 'message', 'path', 'requirement', 'severity']);
            expect(f.message).toMatch(/^["a-z]/);
            expect(f.requirement).toMatch(/^(CPR|PRF)-[0-9.]+-[A-Z0-9-]+$/);
          }
          if (!r.ok) expect(r.findings.some((f) => f.severity === 'error')).toBe(true);
        },
      ),
    );
  });
});

describe('codec requirement IDs', () => {
  it('every ID the codec reports is in the requirement catalog', () => {
    const catalog = JSON.parse(
      readFileSync(new URL('../../suites/catalog/requirements.json', import.meta.url), 'utf8'),
    ) as {
      requirements: { id: string }[];
    };
    const known = new Set(catalog.requirements.map((r) => r.id));
    const used = [...Object.values(CODEC_REQUIREMENTS), ...Object.values(QR_REQUIREMENTS)];
    expect(used.filter((id) => !known.has(id))).toEqual([]);
  });
});
