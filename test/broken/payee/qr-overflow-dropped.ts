import type { ServerResponse } from 'node:http';
import { ReferencePayee } from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenPayee } from './_start.js';

/**
 * Profile 2 broken: a QR the payee cannot render (an inline URI longer than one symbol holds) is
 * silently dropped: 201 with the uri and no qr_png_base64, where the request asked for one.
 */
class QrOverflowDroppedPayee extends ReferencePayee {
  protected override async createRequest(body: unknown, res: ServerResponse): Promise<void> {
    const asked = body as { qr?: unknown; delivery?: unknown } | null;
    // the fault: whatever might not fit one symbol is answered without its QR
    if (asked?.qr === true && asked.delivery === 'inline' && JSON.stringify(body).length > 1500)
      return super.createRequest({ ...asked, qr: false }, res);
    return super.createRequest(body, res);
  }
}

/** A QR asked for an inline URI too long for one symbol is left out instead of refused. */
export const qrOverflowDropped: BrokenImplementation = {
  id: 'payee-qr-overflow-dropped',
  target: 'payee',
  fault:
    'asked for a QR of an inline URI too long for one symbol, the harness answers 201 without the QR instead of refusing',
  expected: ['PRF-2-QR-CAPACITY', 'PRF-2-HARNESS-UNSERVICEABLE'],
  start: ({ workDir }) => startBrokenPayee(workDir, {}, QrOverflowDroppedPayee),
};
