import { MessageParser, ReferenceOperator } from '../../../src/reference/operator/index.js';
import { startBrokenOperator } from '../../broken/operator/_start.js';
import type { PermittedVariant } from '../../broken/types.js';

/**
 * A `signature` member of the wrong type (a number, an empty string, null, an object) is not
 * refused by the message parser: the signature check, which cannot verify it, answers 401
 * INVALID_SIGNATURE (the reference answers 400 INVALID_REQUEST).
 */
class SignatureAsGivenParser extends MessageParser {
  protected override signature(obj: Record<string, unknown>): string {
    return obj.signature as string;
  }
}

class MalformedSignature401Operator extends ReferenceOperator {
  protected override createParser(): MessageParser {
    return new SignatureAsGivenParser();
  }
}

/** A malformed signature member is INVALID_SIGNATURE (401), not INVALID_REQUEST (400). */
export const malformedSignature401: PermittedVariant = {
  id: 'operator-variant-malformed-signature-401',
  target: 'operator',
  choice:
    'a signature member of the wrong type is answered 401 INVALID_SIGNATURE by the signature check, not 400 INVALID_REQUEST by the parser',
  clause:
    'profile 4: "Where one request meets two conditions by nature ... either code is correct" (a malformed signature is a schema failure and a signature that fails verification)',
  start: ({ workDir }) => startBrokenOperator(workDir, MalformedSignature401Operator),
};
