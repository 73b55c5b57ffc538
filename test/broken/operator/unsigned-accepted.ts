import {
  type CashPack,
  type LockRequest,
  MessageParser,
  type RedemptionRequest,
  ReferenceOperator,
  type RenewalEntry,
} from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Reads a missing signature member as "not signed" instead of refusing the message. */
class OptionalSignatureParser extends MessageParser {
  protected override signedObject(value: unknown, where: string) {
    const v = value as Record<string, unknown>;
    if (v !== null && typeof v === 'object' && !Array.isArray(v) && !('signature' in v)) {
      return this.object(value, where);
    }
    return super.signedObject(value, where);
  }

  protected override signature(obj: Record<string, unknown>, where: string): string {
    return 'signature' in obj ? super.signature(obj, where) : '';
  }

  override submittedPack(body: Record<string, unknown>) {
    const value = body.cashpack;
    const v = value as Record<string, unknown>;
    if (v !== null && typeof v === 'object' && !Array.isArray(v) && !('signature' in v)) {
      return { ...v, pack_id: String(v.pack_id) };
    }
    return super.submittedPack(body);
  }
}

/** Spec CP 5 rule 1 broken: a message without a signature is accepted unverified. */
class UnsignedAcceptedOperator extends ReferenceOperator {
  protected override createParser(): MessageParser {
    return new OptionalSignatureParser();
  }
  protected override verifyPrincipalSignature(request: LockRequest): void {
    if (request.signature === '') return; // the fault: unsigned means unchecked
    super.verifyPrincipalSignature(request);
  }
  protected override verifyPackCopy(copy: Record<string, unknown>): CashPack {
    if (!('signature' in copy)) return copy as unknown as CashPack; // the fault
    return super.verifyPackCopy(copy);
  }
  protected override verifyBearerSignature(message: RenewalEntry | RedemptionRequest, member: string): void {
    if (message.signature === '') return; // the fault
    super.verifyBearerSignature(message, member);
  }
}

/** A message without its signature member is accepted (nothing to verify, nothing checked). */
export const unsignedAccepted: BrokenImplementation = {
  id: 'operator-unsigned-accepted',
  target: 'operator',
  fault:
    'a Lock Request, Renewal Entry, Redemption Request or cash-pack copy without signature is accepted unverified',
  expected: ['CP-5-MESSAGES-SIGNED', 'PRF-4-SIGNATURE-MISSING-401'],
  start: ({ workDir }) => startBrokenOperator(workDir, UnsignedAcceptedOperator),
};
