import type { ServerResponse } from 'node:http';
import { renderQrPng } from '../../../src/codec/index.js';
import { ReferencePayee } from '../../../src/reference/payee/index.js';
import { type Answer, rewriteAnswer } from './_rewrite.js';
import type { PayeeClass } from './_start.js';

/**
 * A reference payee whose harness answers (POST /requests or /fulfillments) go through
 * `transform`: one change on the wire, the reference handler untouched.
 */
export function harnessRewritingPayee(
  endpoint: 'requests' | 'fulfillments',
  transform: (a: Answer) => Answer | Promise<Answer>,
): PayeeClass {
  return class extends ReferencePayee {
    protected override createRequest(body: unknown, res: ServerResponse): Promise<void> {
      if (endpoint === 'requests') rewriteAnswer(res, transform);
      return super.createRequest(body, res);
    }
    protected override fulfill(body: unknown, res: ServerResponse): Promise<void> {
      if (endpoint === 'fulfillments') rewriteAnswer(res, transform);
      return super.fulfill(body, res);
    }
  };
}

/**
 * The harness answer `json` with its `uri` replaced and, when it carries a QR image, the image
 * rendered again from the new URI (byte mode, level M) so that image and URI still agree.
 */
export async function withUri(json: Record<string, unknown>, uri: string): Promise<Record<string, unknown>> {
  if (typeof json.qr_png_base64 !== 'string') return { ...json, uri };
  const qr = await renderQrPng(uri, { errorCorrection: 'M' });
  if (!qr.ok) throw new Error(`cannot render ${uri.slice(0, 40)} as a qr code`);
  return { ...json, uri, qr_png_base64: qr.png.toString('base64') };
}
