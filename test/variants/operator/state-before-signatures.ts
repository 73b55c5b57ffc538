import {
  type CashPack,
  OperatorError,
  type OperatorResponse,
  ReferenceOperator,
} from '../../../src/reference/operator/index.js';
import { startBrokenOperator } from '../../broken/operator/_start.js';
import type { PermittedVariant } from '../../broken/types.js';

/**
 * Tests the stored-state conditions (replay, balance, status, chain digest, bearer, depth) and
 * the limits before any signature: a request breaking one condition gets the same answer, a
 * request breaking several may get another code than the reference's.
 */
class StateBeforeSignaturesOperator extends ReferenceOperator {
  override async issue(body: unknown): Promise<OperatorResponse> {
    const request = this.parser.lockRequest(body);
    const now = this.now();
    this.checkAssetOffered(request.asset);
    this.checkAmountLimit(request.amount);
    const expiresAtMs = this.checkExpiryRange(request.expires_at, now);
    await this.settleExpiredOf(request.principal_id, now);
    const state = this.store.state;
    this.checkDuplicateId(state, 'request_id', request.request_id);
    this.checkBalance(state, request.principal_id, request.asset, request.amount);
    this.verifyPrincipalSignature(request); // the signature last
    const record = await this.commitIssue(request, expiresAtMs, now);
    return { status: 201, body: this.signPack(record) };
  }

  override async renew(body: unknown): Promise<OperatorResponse> {
    const envelope = this.parser.envelope(body);
    const entry = this.parser.renewalEntry(envelope, 'renewal_entry');
    const copy = this.parser.submittedPack(envelope);
    if (entry.pack_id !== copy.pack_id) {
      throw new OperatorError('INVALID_REQUEST', '"renewal_entry.pack_id" must equal "cashpack.pack_id"');
    }
    const now = this.now();
    await this.settleExpiry(entry.pack_id, now);
    const state = this.store.state;
    this.renewalChecks(state, this.storedPack(state, entry.pack_id), entry, now);
    const submitted: CashPack = this.verifyPackCopy(copy); // the signatures last
    this.verifyBearerSignature(entry, 'renewal_entry');
    const record = await this.commitRenewal(entry, submitted, now);
    return { status: 200, body: this.signPack(record) };
  }

  override async redeem(body: unknown): Promise<OperatorResponse> {
    const envelope = this.parser.envelope(body);
    const request = this.parser.redemptionRequest(envelope, 'redemption_request');
    const copy = this.parser.submittedPack(envelope);
    if (request.pack_id !== copy.pack_id) {
      throw new OperatorError(
        'INVALID_REQUEST',
        '"redemption_request.pack_id" must equal "cashpack.pack_id"',
      );
    }
    const now = this.now();
    await this.settleExpiry(request.pack_id, now);
    const state = this.store.state;
    this.redemptionChecks(state, this.storedPack(state, request.pack_id), request, now);
    this.checkRedeemer(request.redeemer);
    const submitted: CashPack = this.verifyPackCopy(copy); // the signatures last
    this.verifyBearerSignature(request, 'redemption_request');
    const confirmation = await this.commitRedemption(request, submitted, now);
    return { status: 200, body: confirmation };
  }
}

/** Another order of tests: stored state and limits before signatures. */
export const stateBeforeSignatures: PermittedVariant = {
  id: 'operator-variant-state-before-signatures',
  target: 'operator',
  choice:
    'tests stored state (replay, balance, status, digest, bearer, depth) and limits before any signature',
  clause:
    'profile 4: "the order in which an implementation tests several broken conditions is not part of this profile"',
  start: ({ workDir }) => startBrokenOperator(workDir, StateBeforeSignaturesOperator),
};
