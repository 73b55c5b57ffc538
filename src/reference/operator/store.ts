/**
 * The Operator's ledger and instrument store. Every state change goes through
 * {@link OperatorStore.commit}: a transaction's `check` and `apply` run back to back with no
 * `await` between them, so a check-and-commit is one compare-and-set on the stored state and N
 * simultaneous requests on one pack give exactly one success (spec CP 3: single use).
 * @packageDocumentation
 */
import type { AssetDescriptor, PackStatus, RenewalEntry } from './types.js';

/** One principal's money in one asset (smallest units, BigInt: never a JS number). */
export interface Account {
  /** Funds the principal may lock into new cash-packs. */
  available: bigint;
  /** Funds locked by ACTIVE packs, and held by CANCELLED ones (spec CP 3: "held pending instruction"). */
  locked: bigint;
  /** Funds paid out by redemptions of this principal's packs. */
  redeemedOut: bigint;
}

/** The Operator's own record of an instrument: the source of truth, never the client's copy. */
export interface PackRecord {
  pack_id: string;
  principal_id: string;
  amount: string;
  asset: AssetDescriptor;
  issued_at: string;
  expires_at: string;
  /** `expires_at` as epoch milliseconds. */
  expiresAtMs: number;
  initial_bearer_pk: string;
  current_bearer_pk: string;
  chain_digest: string;
  renewal_chain: RenewalEntry[];
  status: PackStatus;
}

/** Which single-use identifier a replay check concerns (spec CP 8, profile 1 DUPLICATE_ID). */
export type IdKind = 'request_id' | 'renewal_id' | 'redemption_id';

/** Everything the Operator stores. Only transactions mutate it. */
export interface StoreState {
  packs: Map<string, PackRecord>;
  /** principal_id -> asset key -> account. */
  accounts: Map<string, Map<string, Account>>;
  seenIds: Record<IdKind, Set<string>>;
}

/**
 * A compare-and-set on {@link StoreState}: `check` throws (an `OperatorError`) when a
 * precondition does not hold on the current state and writes nothing; `apply` writes and
 * returns the result.
 */
export interface Transaction<T> {
  check(state: StoreState): void;
  apply(state: StoreState): T;
}

/** A read-only copy of every account, for ledger audits in tests. */
export interface LedgerSnapshot {
  /** principal_id -> asset key -> amounts as digit strings. */
  accounts: Record<string, Record<string, { available: string; locked: string; redeemedOut: string }>>;
}

/**
 * A stable key for an asset descriptor (type, code, chain_id), used to key accounts and match
 * the policy's assets.
 *
 * @example
 * ```ts
 * assetKey({ type: 'fiat', code: 'EUR' }); // 'fiat:EUR:'
 * ```
 */
export function assetKey(asset: AssetDescriptor): string {
  return `${asset.type}:${asset.code}:${asset.chain_id ?? NO_CHAIN_ID}`;
}

/** What {@link assetKey} writes for an asset without chain_id. */
// Stryker disable next-line StringLiteral: equivalent: the text standing for "no chain_id" only has to differ from every chain_id an asset carries
const NO_CHAIN_ID = '';

/**
 * In-memory store. The reference `commit` is synchronous: check then apply in one turn of the
 * event loop. A subclass may override `commit` (e.g. to model a store that awaits between check
 * and write) to build a deliberately broken variant.
 *
 * @example
 * ```ts
 * const store = new OperatorStore();
 * store.openAccount('p1', 'fiat:EUR:', 1000n);
 * ```
 */
export class OperatorStore {
  /** The stored state. Mutate it only inside a transaction's `apply`. */
  readonly state: StoreState = {
    packs: new Map(),
    accounts: new Map(),
    seenIds: { request_id: new Set(), renewal_id: new Set(), redemption_id: new Set() },
  };

  /** Creates (or tops up) a principal's account in an asset with `available` funds. */
  openAccount(principalId: string, asset: string, available: bigint): void {
    const byAsset = this.state.accounts.get(principalId) ?? new Map<string, Account>();
    this.state.accounts.set(principalId, byAsset);
    const account = byAsset.get(asset) ?? { available: 0n, locked: 0n, redeemedOut: 0n };
    account.available += available;
    byAsset.set(asset, account);
  }

  /** The stored record of a pack, or `undefined`. Callers must not mutate it. */
  getPack(packId: string): PackRecord | undefined {
    return this.state.packs.get(packId);
  }

  /**
   * Runs a transaction atomically: `check` then `apply` with nothing in between. Returns
   * `apply`'s result (synchronously here; the signature allows an async override).
   */
  commit<T>(tx: Transaction<T>): T | Promise<T> {
    tx.check(this.state);
    return tx.apply(this.state);
  }

  /** Every account as digit strings. */
  ledger(): LedgerSnapshot {
    const accounts: LedgerSnapshot['accounts'] = {};
    for (const [principal, byAsset] of this.state.accounts) {
      const out: Record<string, { available: string; locked: string; redeemedOut: string }> = {};
      for (const [asset, a] of byAsset) {
        out[asset] = {
          available: a.available.toString(),
          locked: a.locked.toString(),
          redeemedOut: a.redeemedOut.toString(),
        };
      }
      accounts[principal] = out;
    }
    return { accounts };
  }
}
