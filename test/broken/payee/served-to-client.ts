import type { IncomingMessage, ServerResponse } from 'node:http';
import { ReferencePayee } from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { rewriteAnswer } from './_rewrite.js';
import { startBrokenPayee } from './_start.js';

/**
 * Profile 2 broken ("nothing of the request that fetched a CPR (headers, cookies, client
 * address) appears in the CPR served"): the CPR served records the client address and port of
 * the retrieval in an extension, as the socket reports it (`::ffff:127.0.0.1` on a dual-stack
 * server, `127.0.0.1` or `::1` otherwise).
 */
class ServedToClientPayee extends ReferencePayee {
  protected override retrieve(token: string, res: ServerResponse, req?: IncomingMessage): Promise<void> {
    const address = req?.socket.remoteAddress;
    if (address !== undefined) {
      const port = req?.socket.remotePort;
      rewriteAnswer(res, (a) => {
        if (a.status !== 200 || a.json === null || typeof a.json !== 'object') return a;
        const doc = a.json as Record<string, unknown>;
        const extensions = {
          ...((doc.extensions as object | undefined) ?? {}),
          'com.example.delivery:served_to': address.includes(':')
            ? `[${address}]:${port}`
            : `${address}:${port}`,
        };
        return { ...a, json: { ...doc, extensions } };
      });
    }
    return super.retrieve(token, res, req);
  }
}

/** The CPR served carries the client address and port of the retrieval. */
export const servedToClient: BrokenImplementation = {
  id: 'payee-served-to-client',
  target: 'payee',
  fault: 'the CPR served carries an extension with the client address and port of the retrieval',
  expected: ['CPR-INV-1-NO-PAYER-DATA', 'PRF-2-NO-RETRIEVAL-DATA'],
  start: ({ workDir }) => startBrokenPayee(workDir, {}, ServedToClientPayee),
};
