import {
  type AssetDescriptor,
  type Destination,
  type LockRequest,
  MessageParser,
  type RedemptionRequest,
  ReferenceOperator,
  type RenewalEntry,
} from '../../../src/reference/operator/index.js';
import { startBrokenOperator } from '../../broken/operator/_start.js';
import type { PermittedVariant } from '../../broken/types.js';

type Obj = Record<string, unknown>;

/** Profile 4 members of each message (the closed shapes a strict reader holds them to). */
const MEMBERS = {
  lock: [
    'request_id',
    'principal_id',
    'amount',
    'asset',
    'initial_bearer_pk',
    'expires_at',
    'created_at',
    'signature',
  ],
  renewal: [
    'renewal_id',
    'pack_id',
    'prev_chain_digest',
    'bearer_pk',
    'new_bearer_pk',
    'created_at',
    'signature',
  ],
  redemption: [
    'redemption_id',
    'pack_id',
    'prev_chain_digest',
    'bearer_pk',
    'destination',
    'redeemer',
    'created_at',
    'signature',
  ],
  asset: ['type', 'code', 'chain_id'],
  destination: ['type', 'reference'],
  redeemer: ['identity_token'],
  renew: ['cashpack', 'renewal_entry'],
  redeem: ['cashpack', 'redemption_request'],
  packId: ['pack_id'],
  clock: ['advance_seconds'],
} as const;

/**
 * Every message and body held to its profile 4 members: any other member is 400
 * INVALID_REQUEST. The check runs before the reference's own, on objects only (what is not an
 * object, or misses its signature, is then refused by the reference's checks as before).
 */
class ClosedShapeParser extends MessageParser {
  private closed(value: unknown, where: string, members: readonly string[]): void {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
    for (const key of Object.keys(value)) {
      if (!members.includes(key)) throw this.bad(`unknown member "${key}" in ${where}`);
    }
  }

  override lockRequest(body: unknown): LockRequest {
    this.closed(body, 'the lock request', MEMBERS.lock);
    return super.lockRequest(body);
  }

  override renewalEntry(body: Obj, key: string): RenewalEntry {
    this.closed(body, 'the renew body', MEMBERS.renew);
    this.closed(body[key], key, MEMBERS.renewal);
    return super.renewalEntry(body, key);
  }

  override redemptionRequest(body: Obj, key: string): RedemptionRequest {
    this.closed(body, 'the redeem body', MEMBERS.redeem);
    const request = body[key];
    this.closed(request, key, MEMBERS.redemption);
    if (request !== null && typeof request === 'object') {
      this.closed((request as Obj).redeemer, 'redeemer', MEMBERS.redeemer);
    }
    return super.redemptionRequest(body, key);
  }

  protected override asset(obj: Obj, key: string): AssetDescriptor {
    this.closed(obj[key], key, MEMBERS.asset);
    return super.asset(obj, key);
  }

  protected override destination(obj: Obj, key: string): Destination {
    this.closed(obj[key], key, MEMBERS.destination);
    return super.destination(obj, key);
  }

  override packIdBody(body: unknown): string {
    this.closed(body, 'the harness request', MEMBERS.packId);
    return super.packIdBody(body);
  }

  override clockAdvance(body: unknown): number {
    this.closed(body, 'the clock request', MEMBERS.clock);
    return super.clockAdvance(body);
  }
}

class UnknownMembersRefusedOperator extends ReferenceOperator {
  protected override createParser(): MessageParser {
    return new ClosedShapeParser();
  }
}

/** A member the profile does not define is refused (400 INVALID_REQUEST), not ignored. */
export const unknownMembersRefused: PermittedVariant = {
  id: 'operator-variant-unknown-members-refused',
  target: 'operator',
  choice:
    'a member the profile does not define, in a message, its asset, destination or redeemer, a renew or redeem body or a harness body, is refused 400 INVALID_REQUEST instead of ignored',
  clause:
    'profile 4 lists the members of each message and says nothing of others; the message schemas set no additionalProperties, so neither ignoring nor refusing them is required',
  start: ({ workDir }) => startBrokenOperator(workDir, UnknownMembersRefusedOperator),
};
