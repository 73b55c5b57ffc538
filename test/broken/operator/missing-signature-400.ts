import { MessageParser, OperatorError, ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Profile 4 broken: a missing signature member is a schema failure (400 INVALID_REQUEST). */
class SchemaOnlyParser extends MessageParser {
  protected override signedObject(value: unknown, where: string) {
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && !('signature' in value)) {
      throw new OperatorError('INVALID_REQUEST', `missing required "signature" member in ${where}`); // the fault
    }
    return super.signedObject(value, where);
  }

  override submittedPack(body: Record<string, unknown>) {
    const value = body.cashpack;
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && !('signature' in value)) {
      throw new OperatorError('INVALID_REQUEST', 'missing required "signature" member in "cashpack"'); // the fault
    }
    return super.submittedPack(body);
  }
}

class MissingSignature400Operator extends ReferenceOperator {
  protected override createParser(): MessageParser {
    return new SchemaOnlyParser();
  }
}

/** A message without its signature member answers 400 INVALID_REQUEST (the reference before the revised profile). */
export const missingSignature400: BrokenImplementation = {
  id: 'operator-missing-signature-400',
  target: 'operator',
  fault:
    'a message without its signature member answers 400 INVALID_REQUEST instead of 401 INVALID_SIGNATURE',
  expected: ['PRF-4-SIGNATURE-MISSING-401'],
  start: ({ workDir }) => startBrokenOperator(workDir, MissingSignature400Operator),
};
