import type { IncomingMessage, ServerResponse } from 'node:http';
import { ReferencePayee } from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { rewriteAnswer } from './_rewrite.js';
import { startBrokenPayee } from './_start.js';

/**
 * Profile 2 broken ("nothing of the request that fetched a CPR ... appears in the CPR served"):
 * the CPR served records one piece of the retrieval request in an extension, picked by `pick`.
 */
function echoingPayee(key: string, pick: (req: IncomingMessage) => string | undefined) {
  return class extends ReferencePayee {
    protected override retrieve(token: string, res: ServerResponse, req?: IncomingMessage): Promise<void> {
      const seen = req === undefined ? undefined : pick(req);
      if (seen !== undefined && seen !== '') {
        rewriteAnswer(res, (a) => {
          if (a.status !== 200 || a.json === null || typeof a.json !== 'object') return a;
          const doc = a.json as Record<string, unknown>;
          const extensions = { ...((doc.extensions as object | undefined) ?? {}), [key]: seen };
          return { ...a, json: { ...doc, extensions } };
        });
      }
      return super.retrieve(token, res, req);
    }
  };
}

/** The CPR served carries the query string of the retrieval (campaign tracking). */
export const retrievalQueryEcho: BrokenImplementation = {
  id: 'payee-retrieval-query-echo',
  target: 'payee',
  fault: 'the CPR served carries the query string of the retrieval URL in an extension',
  expected: ['CPR-INV-1-NO-PAYER-DATA', 'PRF-2-NO-RETRIEVAL-DATA'],
  start: ({ workDir }) =>
    startBrokenPayee(
      workDir,
      {},
      echoingPayee(
        'com.example.campaign:source',
        (req) => new URL(String(req.url), 'https://payee.invalid').search,
      ),
    ),
};

/** The CPR served carries the Accept-Language and the custom headers of the retrieval. */
export const retrievalLanguageEcho: BrokenImplementation = {
  id: 'payee-retrieval-language-echo',
  target: 'payee',
  fault: 'the CPR served carries the Accept-Language of the retrieval (and any x- header) in an extension',
  expected: ['CPR-INV-1-NO-PAYER-DATA', 'PRF-2-NO-RETRIEVAL-DATA'],
  start: ({ workDir }) =>
    startBrokenPayee(
      workDir,
      {},
      echoingPayee('com.example.locale:preferred', (req) => {
        const h = req.headers;
        const lang =
          typeof h['accept-language'] === 'string' ? h['accept-language'].split(',')[0] : undefined;
        const custom = Object.entries(h)
          .filter(([k]) => k.startsWith('x-cprc'))
          .map(([, v]) => String(v));
        return [lang, ...custom].filter(Boolean).join(' ');
      }),
    ),
};
