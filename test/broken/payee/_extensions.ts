import type { ServerResponse } from 'node:http';
import {
  type CprDocument,
  type CreateRequestParams,
  DocumentBuilder,
  parseCreateRequest,
  ReferencePayee,
  type ValidityWindow,
} from '../../../src/reference/payee/index.js';
import { isObject } from './_json.js';
import type { PayeeClass } from './_start.js';

/** Builds with the extensions the broken harness let through, for the next build only. */
export class CarryingBuilder extends DocumentBuilder {
  pending: Record<string, unknown> | undefined;

  override build(params: CreateRequestParams, requestId: string, window: ValidityWindow): CprDocument {
    const extensions = this.pending;
    this.pending = undefined;
    return super.build(extensions === undefined ? params : { ...params, extensions }, requestId, window);
  }
}

/**
 * A payee whose harness lets through the extensions the reference refuses with a message that
 * `letThrough` accepts: they are carried as asked (the build follows the parse in the same tick).
 */
export function extensionsLetThrough(
  letThrough: (refusal: string, extensions: Record<string, unknown>) => boolean,
): PayeeClass {
  return class extends ReferencePayee {
    protected override createRequest(body: unknown, res: ServerResponse): Promise<void> {
      const parsed = parseCreateRequest(body);
      if (!parsed.ok && isObject(body) && isObject(body.extensions)) {
        const { extensions, ...rest } = body;
        if (letThrough(parsed.message, extensions) && parseCreateRequest(rest).ok) {
          (this.documents as CarryingBuilder).pending = extensions; // the fault
          return super.createRequest(rest, res);
        }
      }
      return super.createRequest(body, res);
    }
  };
}
