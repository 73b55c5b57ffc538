/**
 * Ephemeral retrieval tokens of the reference payee (spec 5, spec 8 limits, profile 2).
 *
 * The store is a class with one method per duty so that a deliberately broken variant
 * (`test/broken/`) overrides exactly one of them and gets exactly one fault.
 *
 * @packageDocumentation
 */
import { randomBytes } from 'node:crypto';
import { base32nopad } from '@scure/base';

/** Profile 2: a token's lifetime is at most 900 s (spec 5 rule 1 recommends 15 minutes). */
export const MAX_TOKEN_TTL_SECONDS = 900;

/** Random bytes per token: 160 bits, above the profile's 128-bit floor (32 base32 characters). */
export const TOKEN_RANDOM_BYTES = 20;

/**
 * Encodes bytes in RFC 4648 base32 with the lowercase alphabet and no padding (profile 2: a token
 * sits where a URI host goes, and URI parsers may fold a host's case).
 *
 * @example
 * ```ts
 * base32Lower(new TextEncoder().encode('foobar')); // 'mzxw6ytboi'
 * ```
 */
export function base32Lower(bytes: Uint8Array): string {
  return base32nopad.encode(bytes).toLowerCase();
}

/** One issued token. */
export interface TokenRecord {
  /** The token. */
  token: string;
  /** The request whose CPR it retrieves. */
  requestId: string;
  /** The exact JSON served on the first successful retrieval. */
  body: string;
  /** When the token stops working (spec 5 rule 1). */
  expiresAt: Date;
  /** True once retrieved successfully (spec 5 rule 2). */
  consumed: boolean;
}

/** Result of {@link TokenStore.consume}. */
export type ConsumeResult =
  | { outcome: 'served'; record: TokenRecord }
  | { outcome: 'consumed' }
  | { outcome: 'expired' }
  | { outcome: 'unknown' };

/**
 * In-memory token store. `consume` is synchronous: Node runs it to completion, so the check and
 * the invalidation cannot interleave with another retrieval (spec 5 rule 2 under concurrency).
 *
 * @example
 * ```ts
 * const store = new TokenStore();
 * const rec = store.issue({ requestId, body, ttlSeconds: 300, now: new Date() });
 * store.consume(rec.token, new Date()); // { outcome: 'served', record }
 * store.consume(rec.token, new Date()); // { outcome: 'consumed' }
 * ```
 */
export class TokenStore {
  /** Issued tokens by value. */
  protected readonly records = new Map<string, TokenRecord>();

  /** A fresh token: {@link TOKEN_RANDOM_BYTES} CSPRNG bytes in lowercase base32 (profile 2). */
  generateToken(): string {
    return base32Lower(randomBytes(TOKEN_RANDOM_BYTES));
  }

  /** The instant a token issued at `now` with `ttlSeconds` expires (spec 5 rule 1). */
  expiryFor(now: Date, ttlSeconds: number): Date {
    return new Date(now.getTime() + ttlSeconds * 1000);
  }

  /** Whether `record` is past its lifetime at `now` (spec 5 rule 1, spec 8). */
  isExpired(record: TokenRecord, now: Date): boolean {
    // Stryker disable next-line EqualityOperator: profile 2 "past its lifetime" leaves the instant itself free (AMB-38; permitted variant payee-variant-expiry-instant-inclusive)
    return now.getTime() >= record.expiresAt.getTime();
  }

  /**
   * Marks a record used (spec 5 rule 2: invalidated after the first successful retrieval).
   * Called by {@link TokenStore.consume} between the check and the answer, with no await.
   */
  invalidate(record: TokenRecord): void {
    record.consumed = true;
  }

  /** Issues a token for a stored CPR body. A collision (2^-160) is retried. */
  issue(input: { requestId: string; body: string; ttlSeconds: number; now: Date }): TokenRecord {
    let token = this.generateToken();
    // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,UpdateOperator: unobservable from outside: a collision of two 160-bit random tokens (2^-160) never happens in a run
    for (let i = 0; this.records.has(token) && i < 8; i++) token = this.generateToken();
    const record: TokenRecord = {
      token,
      requestId: input.requestId,
      body: input.body,
      expiresAt: this.expiryFor(input.now, input.ttlSeconds),
      consumed: false,
    };
    this.records.set(token, record);
    return record;
  }

  /**
   * Atomically checks and uses a token. Spec 5 rules 2-3 and spec 7 rule 1: a used token is an
   * error (`consumed`); spec 5 rule 1: a token past its lifetime is an error (`expired`); a token
   * never issued is `unknown`. A used token stays `consumed` after its lifetime too.
   */
  consume(token: string, now: Date): ConsumeResult | Promise<ConsumeResult> {
    const record = this.records.get(token);
    if (record === undefined) return { outcome: 'unknown' };
    if (record.consumed) return { outcome: 'consumed' };
    if (this.isExpired(record, now)) return { outcome: 'expired' };
    this.invalidate(record);
    return { outcome: 'served', record };
  }
}
