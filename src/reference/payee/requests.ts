/**
 * The reference payee's record of the requests it issued, for the harness fulfillment endpoint
 * (spec 4.3 rule 5, spec 7 rule 2, profile 2).
 *
 * @packageDocumentation
 */

/** What the payee remembers of an issued request. No CPR content: only what fulfillment needs. */
export interface IssuedRequest {
  /** The request_id of the CPR. */
  requestId: string;
  /** The CPR's expires_at. */
  expiresAt: Date;
  /** When it was fulfilled, once it was. */
  fulfilledAt?: Date;
}

/** Result of {@link RequestRegistry.fulfill}. */
export type FulfillResult =
  | { outcome: 'fulfilled'; request: IssuedRequest }
  | { outcome: 'duplicate' }
  | { outcome: 'expired' }
  | { outcome: 'unknown' };

/**
 * In-memory registry of issued requests. Methods are overridable one duty at a time (see
 * `test/broken/`).
 *
 * @example
 * ```ts
 * const reg = new RequestRegistry();
 * reg.register({ requestId, expiresAt });
 * reg.fulfill(requestId, new Date()); // { outcome: 'fulfilled', ... }
 * reg.fulfill(requestId, new Date()); // { outcome: 'duplicate' }
 * ```
 */
export class RequestRegistry {
  /** Issued requests by request_id. */
  protected readonly requests = new Map<string, IssuedRequest>();

  /**
   * Records an issued request. Spec INV-3: request_ids are unique; should an id repeat (it
   * cannot with UUIDv4 unless the generator is broken), the first record is kept.
   */
  register(request: { requestId: string; expiresAt: Date }): void {
    // Stryker disable next-line ConditionalExpression,BlockStatement: unobservable from outside: request_ids are fresh UUIDv4 values (a repeat needs a broken generator, which INV-3 checks catch)
    if (this.requests.has(request.requestId)) return;
    this.requests.set(request.requestId, { requestId: request.requestId, expiresAt: request.expiresAt });
  }

  /** Whether the request is past its expires_at at `now` (spec 2.1: after it, it must not be fulfilled). */
  isExpired(request: IssuedRequest, now: Date): boolean {
    // Stryker disable next-line EqualityOperator: spec 2.1 "After it, the request must not be fulfilled" and profile 2 "past expires_at" leave the instant itself free (AMB-38; permitted variant payee-variant-expiry-instant-inclusive)
    return now.getTime() >= request.expiresAt.getTime();
  }

  /**
   * Marks a request fulfilled. Spec 4.3 rule 5: after a successful fulfillment, later attempts
   * with the same request_id are rejected (`duplicate`); spec 2.1 / 7 rule 2: a request past its
   * expires_at is not fulfilled (`expired`). A fulfilled request stays `duplicate` after expiry.
   */
  fulfill(requestId: string, now: Date): FulfillResult {
    const request = this.requests.get(requestId);
    if (request === undefined) return { outcome: 'unknown' };
    if (request.fulfilledAt !== undefined) return { outcome: 'duplicate' };
    if (this.isExpired(request, now)) return { outcome: 'expired' };
    request.fulfilledAt = now;
    return { outcome: 'fulfilled', request };
  }
}
