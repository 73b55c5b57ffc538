/**
 * Permitted variant of the retrieval route (AMB-42): spellings a server may read as the token's
 * own retrieval path (a trailing `/`, `/CPR/`, a doubled `/`, the token upper-cased) are served as
 * that token's one successful retrieval, as a router with case-insensitive, slash-merging,
 * non-strict routing does. Paths that extend or change the token are still refused.
 */
import type { ServerResponse } from 'node:http';
import { startBrokenPayee } from '../../broken/payee/_start.js';
import { routingPayee } from '../../broken/payee/undefined-requests.js';
import type { PermittedVariant } from '../../broken/types.js';

type Retrieving = { retrieve(token: string, res: ServerResponse): Promise<void> };

export const retrievalSpellingsServed: PermittedVariant = {
  id: 'payee-variant-retrieval-spellings-served',
  target: 'payee',
  choice:
    'GET /cpr/{token}/, /CPR/{token}, /cpr//{token} and /cpr/{TOKEN} (upper-cased) are served as the token itself: one successful retrieval, then 410',
  clause:
    'profile 2: "Retrieval: GET {base_url}/cpr/{token}"; spec 8: "Exactly one successful retrieval" (AMB-42: a spelling a server may read as the same resource may be served as the token\'s one retrieval)',
  start: ({ workDir }) =>
    startBrokenPayee(
      workDir,
      {},
      routingPayee(async (req, res, payee) => {
        if (req.method !== 'GET') return false;
        const path = new URL(String(req.url), 'https://payee.invalid').pathname;
        // case-insensitive route, merged slashes, an optional trailing slash, a case-folded token
        const m = /^\/+cpr\/+([a-z0-9]+)\/?$/i.exec(path);
        if (m === null || path === `/cpr/${m[1]}`) return false;
        req.resume();
        await (payee as unknown as Retrieving).retrieve((m[1] as string).toLowerCase(), res);
        return true;
      }),
    ),
};
