/** Synthetic runner event streams for the reporter tests. */
import { createHash } from 'node:crypto';
import type { Ambiguity, Catalog as CatalogDocument } from '../../src/catalog/index.js';
import type { RunEvent, TestResult } from '../../src/model/results.js';

/** Secret strings that must never appear in a report. */
export const SECRETS = {
  jwkD: 'nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A',
  credential: 'status-cred-7f3a9c1e55d2',
  identityToken: 'idtok-sufficient-0b8e4d2c',
  bearer: 'opcred-99aa11bb22cc',
};

/** Hostile content a target might answer with. */
export const HOSTILE = `</script><img src=x onerror="alert(1)"><a href="https://evil.example/">x</a> ]]> $(rm -rf /) \`id\` 'q'`;

function testId(target: string, fullTitle: string): string {
  return `${target}/t-${createHash('sha256').update(`${target}\n${fullTitle}`).digest('hex').slice(0, 16)}`;
}

function result(
  partial: Omit<TestResult, 'id' | 'full_title' | 'duration_ms' | 'exchanges'> & Partial<TestResult>,
): TestResult {
  const full = partial.full_title ?? `${partial.target} suite ${partial.title}`;
  return {
    id: testId(partial.target, full + (partial.channel ?? '')),
    full_title: full,
    duration_ms: 12,
    exchanges: [],
    ...partial,
  };
}

/** A small catalog: MUST, SHOULD, MAY, SPEC and PROFILE, one untestable, one with no check. */
export const CATALOG: CatalogDocument = {
  catalog_version: '1.0.0',
  specs: {
    'CPR-1.0': {
      title: 'Canonical Payment Request',
      version: '1.0',
      status: 'Draft',
      file: 'spec/cpr-1.0.md',
    },
    'CASHPACK-1.0': {
      title: 'Cash-Pack Bearer Instrument API',
      version: '1.0',
      status: 'Draft',
      file: 'spec/cashpack-api-1.0.md',
    },
    PROFILE: { title: 'Test profile', version: '1.0', status: 'Draft', file: 'design/profile.md' },
  },
  requirements: [
    {
      id: 'CPR-2.1-VERSION',
      source: 'CPR-1.0',
      section: '2.1',
      text: 'version is "CPR-1.0".',
      level: 'MUST',
      kind: 'SPEC',
      actor: 'payee',
    },
    {
      id: 'CPR-5-TOKEN-SINGLE-USE',
      source: 'CPR-1.0',
      section: '5',
      text: 'A token is single-use.',
      level: 'MUST',
      kind: 'SPEC',
      actor: 'payee',
    },
    {
      id: 'CPR-2.10-MEMO-LENGTH',
      source: 'CPR-1.0',
      section: '2.10',
      text: 'memo should be short.',
      level: 'SHOULD',
      kind: 'SPEC',
      actor: 'payee',
    },
    {
      id: 'PRF-2-TOKEN-CONSUMED-410',
      source: 'PROFILE',
      section: '2',
      text: 'A consumed token answers 410.',
      level: 'MUST',
      kind: 'PROFILE',
      actor: 'payee',
    },
    {
      id: 'CPR-4.4-DERIVE',
      source: 'CPR-1.0',
      section: '4.4',
      text: 'Derivation <binds> payer data.',
      level: 'MUST',
      kind: 'SPEC',
      actor: 'wallet',
    },
    {
      id: 'CPR-4.4-SKIPPED-ONLY',
      source: 'CPR-1.0',
      section: '4.4',
      text: 'Needs a harness.',
      level: 'MAY',
      kind: 'SPEC',
      actor: 'wallet',
    },
    {
      id: 'CPR-4.3-DEEP-LINK',
      source: 'CPR-1.0',
      section: '4.3',
      text: 'Deep link routing.',
      level: 'MUST',
      kind: 'SPEC',
      actor: 'payee',
      untestable: 'OS-level routing happens on a device',
    },
    {
      id: 'CPR-9-NO-CHECK',
      source: 'CPR-1.0',
      section: '9',
      text: 'Something not checked yet.',
      level: 'SHOULD',
      kind: 'SPEC',
      actor: 'payee',
    },
    {
      id: 'CPR-9-CHECKED-ELSEWHERE',
      source: 'CPR-1.0',
      section: '9',
      text: 'Something a validator module applies.',
      level: 'MUST',
      kind: 'SPEC',
      actor: 'document',
    },
  ],
};

/** A small ambiguity register. */
export const AMBIGUITIES: Ambiguity[] = [
  {
    id: 'AMB-1',
    section: '5',
    spec_text: 'the token is consumed',
    problem: 'whether a failed fetch consumes it <b>',
    reading: 'only a successful fetch consumes the token',
    level: 'PROFILE',
    affects: ['CPR-5-TOKEN-SINGLE-USE'],
  },
];

/** The tests of a full run: every state, a property, exchanges with secrets and hostile bodies. */
export function fullTests(): TestResult[] {
  return [
    result({
      title: '[CPR-2.1-VERSION] version is CPR-1.0',
      file: 'payee/2-structure.js',
      target: 'payee',
      requirements: ['CPR-2.1-VERSION'],
      state: 'passed',
    }),
    result({
      title: '[CPR-5-TOKEN-SINGLE-USE PRF-2-TOKEN-CONSUMED-410] a second fetch is refused',
      file: 'payee/5-token.js',
      target: 'payee',
      requirements: ['CPR-5-TOKEN-SINGLE-USE', 'PRF-2-TOKEN-CONSUMED-410'],
      state: 'failed',
      message: 'second fetch of the token answered 200, expected 410 TOKEN_CONSUMED',
      exchanges: [
        {
          kind: 'http',
          method: 'POST',
          url: "https://127.0.0.1:8443/cpr/fetch?x='1'",
          request_headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${SECRETS.bearer}`,
            'content-length': '20',
          },
          request_body: `{"token":"abc"}\nEOF\n'quoted' $(whoami) ${HOSTILE}`,
          status: 200,
          response_headers: { 'content-type': 'text/html' },
          response_body: `<html>${HOSTILE}</html>`,
          duration_ms: 3,
        },
      ],
    }),
    result({
      title: '[CPR-2.10-MEMO-LENGTH] memo is at most 140 code points',
      file: 'payee/2-structure.js',
      target: 'payee',
      requirements: ['CPR-2.10-MEMO-LENGTH'],
      state: 'warning',
      message: 'memo has 141 code points (SHOULD be at most 140)',
    }),
    result({
      title: '[CPR-4.4-DERIVE] derivation property',
      file: 'wallet/4.4-derivation.js',
      target: 'wallet',
      channel: 'http',
      requirements: ['CPR-4.4-DERIVE'],
      state: 'failed',
      message: `property failed: ${HOSTILE}`,
      property: { seed: 42, path: '3:1:0', num_runs: 100, counterexample: `[{"amount":"0"}, "${HOSTILE}"]` },
      exchanges: [
        {
          kind: 'http',
          method: 'POST',
          url: 'https://127.0.0.1:9443/harness/derive',
          request_headers: { 'content-type': 'application/json' },
          request_body: `{"context":{"authorization":"[redacted]","token":"${SECRETS.identityToken}"}}`,
          status: 422,
          response_body: '{"error":{"code":"EXPIRED","message":"x"}}',
          duration_ms: 5,
        },
      ],
    }),
    result({
      title: '[CPR-4.4-DERIVE] derivation over stdio',
      file: 'wallet/4.4-derivation.js',
      target: 'wallet',
      channel: 'stdio',
      requirements: ['CPR-4.4-DERIVE'],
      state: 'error',
      message: 'the wallet command exited before answering (code 1)\u0000\u0001\u001b[31m\uFFFF',
      exchanges: [
        {
          kind: 'stdio',
          url: 'my-wallet',
          request_body: '{"uri":"cpr://x"}',
          duration_ms: 2,
          error: 'exited with code 1',
        },
      ],
    }),
    result({
      title: '[CPR-4.4-SKIPPED-ONLY] needs the harness',
      file: 'wallet/4.4-derivation.js',
      target: 'wallet',
      channel: 'http',
      requirements: ['CPR-4.4-SKIPPED-ONLY'],
      state: 'skipped',
      skip_reason: 'the wallet harness has no "derive" endpoint configured\u0007',
    }),
    result({
      title: '[CPR-2.1-VERSION] version over plain http is refused',
      file: 'payee/2-structure.js',
      target: 'payee',
      requirements: ['CPR-2.1-VERSION'],
      state: 'skipped',
      skip_reason: 'payee.plain_http_url is not configured',
    }),
  ];
}

/** The run configuration, with secrets in it (as if the runner forgot to redact). */
export function config(): Record<string, unknown> {
  return {
    tls: { ca_file: 'certs/ca.pem', suite_ca_key_file: 'certs/wallet-ca.key' },
    payee: { base_url: 'https://127.0.0.1:8443' },
    wallet: { harness_url: 'https://127.0.0.1:9443/harness', command: ['my-wallet', '--stdio'] },
    operator: {
      base_url: 'https://127.0.0.1:7443',
      principals: {
        funded: {
          principal_id: 'p1',
          private_key_jwk: { kty: 'OKP', crv: 'Ed25519', x: 'abc', d: SECRETS.jwkD },
          status_credential: SECRETS.credential,
        },
      },
      redeemer_identity_tokens: { sufficient: SECRETS.identityToken, insufficient: 'idtok-low-11112222' },
      operator_status_credential: SECRETS.bearer,
    },
  };
}

/** A full event stream: start, the tests, end (omitted when `interrupted`). */
export function stream(tests: TestResult[], interrupted = false): RunEvent[] {
  const events: RunEvent[] = [
    {
      type: 'start',
      suite_version: '0.1.0',
      seed: 1234,
      runs: 100,
      targets: ['payee', 'wallet'],
      target_urls: {
        payee: { base_url: 'https://127.0.0.1:8443' },
        wallet: { command: ['my-wallet', '--stdio'] },
      },
      started_at: '2026-11-22T12:00:00.000Z',
    },
    ...tests.map((test) => ({ type: 'test' as const, ...test })),
  ];
  if (!interrupted) events.push({ type: 'end', finished_at: '2026-11-22T12:01:00.000Z' });
  return events;
}

/** Coverage outside the run (suites/catalog/coverage.json shape): one requirement checked by a validator module. */
export const COVERAGE = {
  generated_by: 'test',
  requirements: { 'CPR-9-CHECKED-ELSEWHERE': { checks: [], modules: ['validator: rules/<rule>'] } },
  unknown_requirements: [],
};
