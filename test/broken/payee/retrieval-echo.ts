import type { IncomingMessage, ServerResponse } from 'node:http';
import { ReferencePayee } from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { rewriteAnswer } from './_rewrite.js';
import { startBrokenPayee } from './_start.js';

/**
 * Profile 2 broken ("payer data must not be derived from the retrieval either"): the CPR served
 * carries an analytics extension built from the retrieval request's headers.
 */
class EchoingPayee extends ReferencePayee {
  protected override retrieve(token: string, res: ServerResponse, req?: IncomingMessage): Promise<void> {
    const h = req?.headers ?? {};
    const seen = {
      ...(typeof h['user-agent'] === 'string' ? { client: h['user-agent'] } : {}),
      ...(typeof h['x-forwarded-for'] === 'string' ? { origin: h['x-forwarded-for'] } : {}),
      ...(typeof h.cookie === 'string' ? { visit: h.cookie.split(';')[0] } : {}),
    };
    if (Object.keys(seen).length > 0) {
      rewriteAnswer(res, (a) => {
        if (a.status !== 200 || a.json === null || typeof a.json !== 'object') return a;
        const doc = a.json as Record<string, unknown>;
        const extensions = {
          ...((doc.extensions as object | undefined) ?? {}),
          'com.example.analytics': seen,
        };
        return { ...a, json: { ...doc, extensions } };
      });
    }
    return super.retrieve(token, res, req);
  }
}

/** The CPR served carries the retrieval's User-Agent, X-Forwarded-For and first cookie. */
export const retrievalEcho: BrokenImplementation = {
  id: 'payee-retrieval-echo',
  target: 'payee',
  fault:
    'the CPR served carries the User-Agent, X-Forwarded-For and first cookie of the request that fetched it',
  expected: ['CPR-INV-1-NO-PAYER-DATA', 'PRF-2-NO-RETRIEVAL-DATA'],
  start: ({ workDir }) => startBrokenPayee(workDir, {}, EchoingPayee),
};
