import { describe, expect, it } from 'vitest';
import { describeUndefinedRequest, undefinedRequestProblems } from '../../suites/_lib/undefined-requests.js';

/** A JSON answer as the drivers hand it over. */
const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  text: JSON.stringify(body),
  json: body,
});
const error = (code: unknown, message: unknown = 'no such endpoint') => ({ error: { code, message } });

describe('undefinedRequestProblems (profile 1: a request the profile does not define)', () => {
  it('accepts every 4xx with the error body, whatever its status and code', () => {
    for (const [status, code] of [
      [405, 'METHOD_NOT_ALLOWED'],
      [404, 'NOT_FOUND'],
      [400, 'INVALID_REQUEST'],
      [404, 'TOKEN_UNKNOWN'],
      [403, 'FORBIDDEN'],
      [418, 'x'],
      [499, 'SOMETHING_ELSE'],
    ] as const) {
      expect(undefinedRequestProblems(answer(status, error(code), { allow: 'POST' }), 'PUT x')).toEqual([]);
    }
    // extra members beside the error object are the implementation's own, unless they are domain data
    expect(
      undefinedRequestProblems(
        answer(404, { ...error('NOT_FOUND'), request_id: 'trace-1', uri: '/x' }),
        'GET x',
      ),
    ).toEqual([]);
  });

  it('fails a success, a redirect and a server error, naming the status', () => {
    for (const status of [200, 201, 204, 301, 302, 307, 500, 501, 503]) {
      const p = undefinedRequestProblems(answer(status, error('X')), 'PUT x');
      expect(p, String(status)).toHaveLength(1);
      expect(p[0]).toContain(`HTTP ${status}`);
    }
  });

  it('fails a body without the error shape: not JSON, no error object, an empty or missing code or message', () => {
    const text = { status: 405, headers: {}, text: 'Method Not Allowed' };
    expect(undefinedRequestProblems(text, 'PUT x')[0]).toContain('not JSON');
    expect(undefinedRequestProblems(answer(405, {}), 'PUT x')[0]).toContain('no "error" object');
    expect(undefinedRequestProblems(answer(405, { error: 'nope' }), 'PUT x')[0]).toContain(
      'no "error" object',
    );
    expect(undefinedRequestProblems(answer(405, [error('X')]), 'PUT x')[0]).toContain('no "error" object');
    for (const bad of ['', '  ', 5, null, undefined]) {
      expect(undefinedRequestProblems(answer(405, error(bad)), 'PUT x').join(' '), String(bad)).toContain(
        'error.code',
      );
      expect(
        undefinedRequestProblems(answer(405, { error: { code: 'X', message: bad } }), 'PUT x').join(' '),
        String(bad),
      ).toContain('error.message');
    }
  });

  it('fails domain data anywhere in the answer, and any of the target values it is given', () => {
    expect(
      undefinedRequestProblems(
        answer(405, { ...error('X'), request: { initial_bearer_pk: 'k' } }),
        'PUT x',
      )[0],
    ).toContain('/request/initial_bearer_pk');
    expect(
      undefinedRequestProblems(answer(404, { ...error('X'), cpr: { cpr_version: 'CPR-1.0' } }), 'GET x')[0],
    ).toContain('/cpr/cpr_version');
    expect(
      undefinedRequestProblems(answer(404, { error: { code: 'X', message: 'm', payment: {} } }), 'GET x')[0],
    ).toContain('/error/payment');
    const digest = 'a'.repeat(64);
    expect(
      undefinedRequestProblems(answer(405, error('X', `pack ${digest}`)), 'PUT x', [digest])[0],
    ).toContain("target's own data");
    // short values are never looked for (they would match by chance)
    expect(undefinedRequestProblems(answer(405, error('X', 'abc')), 'PUT x', ['abc'])).toEqual([]);
  });

  it('describes a request by its method, base and path', () => {
    expect(describeUndefinedRequest({ method: 'PATCH', base: 'harness', path: 'derive' })).toBe(
      'PATCH {harness_url}/derive',
    );
    expect(describeUndefinedRequest({ method: 'GET', base: 'api', path: 'cpr' })).toBe('GET {base_url}/cpr');
  });
});
