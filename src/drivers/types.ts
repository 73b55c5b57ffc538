/**
 * Driver interfaces: how the suites talk to the three targets. They sit at the level of the
 * SPECIFICATIONS, so an implementer with another binding can write their own driver and still get
 * every SPEC check. Raw wire facts (HTTP `status`, error `code`) are optional: PROFILE checks read
 * them and are skipped when a custom driver does not provide them.
 *
 * A driver reports a broken exchange (connection refused, timeout, oversize body, TLS failure)
 * by throwing a {@link DriverTransportError}: the suite library turns it into an `error` result.
 * Everything the target answered (including error answers) is returned as data.
 * @packageDocumentation
 */
import { CprcError, type CprcErrorCode } from '../errors.js';
import type { RunConfig } from '../generated/tool/run-config.js';
import type { WalletChannel } from '../model/results.js';
import type { Recorder } from './recorder.js';

/** An error answer of a target, as data. */
export interface DriverError {
  /** HTTP status (PROFILE checks; absent for a custom binding or stdio). */
  status?: number;
  /** Machine-readable code, e.g. `TOKEN_CONSUMED` (SPEC checks read it when the binding has one). */
  code?: string;
  /** Human-readable message of the target, or a description of what was wrong with the answer. */
  message?: string;
  /** The parsed (or raw text) body, for evidence. */
  body?: unknown;
}

/** Result of {@link PayeeDriver.retrieve}. */
export type RetrieveResult =
  | { ok: true; cpr: unknown; status?: number; headers?: Record<string, string>; text?: string }
  | { ok: false; error: DriverError; headers?: Record<string, string>; text?: string };

/** Options of {@link PayeeDriver.retrieve}. */
export interface RetrieveOptions {
  /**
   * Extra request headers (e.g. `cookie`, `authorization`, `user-agent`, `x-forwarded-for`): the
   * suite sends distinctive values and looks for them in the CPR served (profile 2). A binding
   * without headers ignores them.
   */
  headers?: Record<string, string>;
}

/** Result of {@link PayeeDriver.retrievePlainHttp}: whether anything came back over plain HTTP. */
export type PlainHttpResult =
  | {
      /** The plain-HTTP address answered. `servedJson` is the parsed body when it was JSON. */
      answered: true;
      status?: number;
      servedJson?: unknown;
      body?: string;
    }
  | {
      /** Nothing answered (refused, reset, timeout): no CPR can have been served. */
      answered: false;
      reason: string;
    };

/** Parameters of a payee harness request (profile section 2). */
export interface PayeeRequestParams {
  rail_hint?: string;
  amount?: string;
  asset?: unknown;
  memo?: string;
  extensions?: Record<string, unknown>;
  token_ttl_seconds?: number;
  validity_seconds?: number;
  delivery: 'reference' | 'inline';
  qr?: true;
}

/** What the payee harness answers to a request (profile section 2). */
export interface CreatedRequest {
  uri: string;
  request_id: string;
  token_expires_at?: string;
  qr_png_base64?: string;
}

/** Generic outcome of a harness call; `headers` and `text` (the raw body) when the binding has them. */
export type HarnessResult<T> =
  | { ok: true; value: T; status?: number; headers?: Record<string, string>; text?: string }
  | { ok: false; error: DriverError; headers?: Record<string, string>; text?: string };

/** The answer of the optional test clock (profile 2): the target's notion of now after the advance. */
export interface ClockAnswer {
  now: string;
}

/**
 * Outcome of {@link PayeeHarness.advanceClock}: a harness result, or `absent: true` when the
 * harness has no clock endpoint (HTTP 404, 405 or 501): the optional capability is not offered.
 */
export type ClockResult = HarnessResult<ClockAnswer> | { ok: false; absent: true; error: DriverError };

/**
 * A race as a driver delivered it (issue 11): every racer's result, in order, and how tightly
 * the racers reached the target. The default HTTP drivers open one connection per racer, send
 * every request but its last byte, then release all the last bytes together.
 */
export interface RaceOutcome<T> {
  /** One result per racer, in the order asked. */
  results: T[];
  /** Racers whose requests were completed together (the others were answered before). */
  inFlight: number;
  /** Milliseconds between the first and the last racer's request leaving complete. */
  spreadMs: number;
  /** Milliseconds between the first and the last complete answer, when measured. */
  arrivalSpreadMs?: number;
  /** How the racers were synchronised, in words (e.g. `last byte, http/1.1`). */
  synchronisation: string;
}

/** One racer of {@link OperatorDriver.race}: the call it makes, with the arguments of that method. */
export type OperatorCall =
  | { op: 'issue'; lockRequest: unknown }
  | { op: 'renew'; cashpack: unknown; entry: unknown }
  | { op: 'redeem'; cashpack: unknown; request: unknown };

/** Optional payee harness: lets the suite ask the payee for requests and fulfil them. */
export interface PayeeHarness {
  /** Asks the payee for a new payment request. */
  createRequest(params: PayeeRequestParams): Promise<HarnessResult<CreatedRequest>>;
  /** Marks a request fulfilled (spec 4.3 rule 5). */
  fulfill(requestId: string): Promise<HarnessResult<unknown>>;
  /** Sends a raw fulfillment body (e.g. a missing or non-string `request_id`): PROFILE checks only. */
  fulfillRaw?(body: unknown): Promise<HarnessResult<unknown>>;
  /**
   * Race checks (issue 11): `n` fulfillments of `requestId` delivered together, with how tightly
   * they reached the payee. Optional: without it the suite sends them at once, unmeasured.
   */
  raceFulfill?(requestId: string, n: number): Promise<RaceOutcome<HarnessResult<unknown>>>;
  /**
   * Optional test clock (profile 2): `POST {harness}/clock {"advance_seconds": N}` moves the
   * payee's notion of now forward by N seconds for every expiry decision, never back.
   */
  advanceClock?(seconds: number): Promise<ClockResult>;
  /** Sends a raw clock body (e.g. `null`, or `advance_seconds` of another type): PROFILE checks only. */
  advanceClockRaw?(body: unknown): Promise<ClockResult>;
  /**
   * Posts `text` as it is (declared `application/json`, e.g. text that is no JSON) to one harness
   * endpoint: PROFILE checks only (profile 1: malformed JSON is 400 `INVALID_REQUEST`).
   */
  postText?(endpoint: PayeeHarnessEndpoint, text: string): Promise<HarnessResult<unknown>>;
}

/** The endpoints of the payee harness (profile 2), relative to its `harness_url`. */
export type PayeeHarnessEndpoint = 'requests' | 'fulfillments' | 'clock';

/**
 * The payee system under test (CPR-1.0 sections 4 and 5).
 * @example
 * ```ts
 * const r = await payee.retrieve('cpr://abc...?endpoint=https%3A%2F%2Fpayee.example');
 * if (r.ok) validate(r.cpr); else console.log(r.error.code);
 * ```
 */
/**
 * A request profile section 1 does not define: a method an endpoint does not take, or a path that
 * is no endpoint. `base` names the address the path is relative to (the target's API base, or
 * its harness); `path` is joined to it as is (no encoding).
 */
export interface UndefinedRequest {
  method: 'GET' | 'HEAD' | 'OPTIONS' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  base: 'api' | 'harness';
  path: string;
  /** A body (sent as `application/json`), when given. */
  body?: string;
}

/**
 * The answer to an {@link UndefinedRequest} exactly as received: the driver judges nothing (a
 * 2xx, a 5xx, a redirect or a body that is not JSON are the check's to grade).
 */
export interface UndefinedRequestAnswer {
  status: number;
  /** Headers with lower-case names. */
  headers: Record<string, string>;
  /** The body as text. */
  text: string;
  /** The parsed body when it is JSON. */
  json?: unknown;
}

export interface PayeeDriver {
  /** Retrieves a CPR by token or by `cpr://` reference URI (spec 4.1). */
  retrieve(tokenOrUri: string, options?: RetrieveOptions): Promise<RetrieveResult>;
  /**
   * Sends a request profile 1 does not define (`base` `api`: relative to `base_url`; `harness`:
   * to `harness_url`) and returns the answer unjudged: PROFILE checks only; absent in a custom binding.
   */
  undefinedRequest?(req: UndefinedRequest): Promise<UndefinedRequestAnswer>;
  /**
   * Race checks (issue 11): `n` retrievals of one token delivered together, with how tightly they
   * reached the payee. Optional: without it the suite sends them at once, unmeasured.
   */
  raceRetrieve?(tokenOrUri: string, n: number): Promise<RaceOutcome<RetrieveResult>>;
  /** Tries the same retrieval over plain HTTP (spec 5 rule 5); absent when no plain address is known. */
  retrievePlainHttp?(token: string): Promise<PlainHttpResult>;
  /** Optional harness; tests needing it are skipped when absent. */
  harness?: PayeeHarness;
  /** Releases resources. */
  close?(): Promise<void>;
}

/** Derivation context given to the wallet (spec 2.9; profile section 3). */
export interface DeriveContext {
  payer: unknown;
  rail: unknown;
  authorization: unknown;
  payer_amount?: string;
  [member: string]: unknown;
}

/** Input of a derivation: a CPR object or a URI, and the context. */
export interface DeriveInput {
  cpr?: unknown;
  uri?: string;
  context: DeriveContext;
}

/** Result of {@link WalletDriver.derive}. */
export type DeriveResult =
  | { ok: true; payment: Record<string, unknown>; status?: number }
  | { ok: false; error: { code?: string; message?: string; status?: number; body?: unknown } };

/**
 * The paying application under test, through one channel (spec 4.4).
 * @example
 * ```ts
 * const r = await wallet.derive({ cpr, context: { payer, rail, authorization } });
 * if (!r.ok) console.log(wallet.channel, r.error.code);
 * ```
 */
export interface WalletDriver {
  /** Channel name, used to label results. */
  readonly channel: WalletChannel;
  /**
   * Sends a request profile 1 does not define to the HTTP harness (`base` `harness`, relative to
   * `harness_url`) and returns the answer unjudged: PROFILE checks only; absent on stdio.
   */
  undefinedRequest?(req: UndefinedRequest): Promise<UndefinedRequestAnswer>;
  /** Runs spec 4.4 derivation. */
  derive(input: DeriveInput): Promise<DeriveResult>;
  /**
   * Sends `text` as the harness request as it is (a request that is not JSON, profile section 3:
   * answered `INVALID_REQUEST`); on stdio `text` is one line, so it holds no line break. A custom
   * binding may leave it out (the checks that need it are then skipped).
   */
  deriveText?(text: string): Promise<DeriveResult>;
  /**
   * Stops a wallet command that runs, once the requests sent so far are answered; the next
   * request starts it again, a new process with the environment of that moment. The driver stays
   * usable (unlike `close`).
   */
  restart?(): Promise<void>;
  /** Releases resources (e.g. stops a wallet command). */
  close?(): Promise<void>;
}

/** Result of every Operator call: `ok` is true for a 2xx answer (or the binding's success). */
export interface OperatorResult<T = unknown> {
  ok: boolean;
  /** HTTP status, when the binding has one. */
  status?: number;
  /** Parsed JSON body (or the raw text when it was not JSON). */
  body: T | undefined;
  /** Error answer: `code` and `message` from the body when present. */
  error?: DriverError;
  /** Response headers (lower-case names), when the binding has them. */
  headers?: Record<string, string>;
}

/** Optional Operator harness (profile section 4). */
export interface OperatorHarness {
  expire(packId: string): Promise<OperatorResult>;
  cancel(packId: string): Promise<OperatorResult>;
  /**
   * Optional test clock (profile 4): `POST {harness}/clock {"advance_seconds": N}` moves the
   * Operator's now forward by N seconds for every expiry decision, never back. `absent` is true
   * when the harness has no clock (HTTP 404, 405 or 501): the capability is not offered.
   */
  advanceClock?(seconds: number): Promise<OperatorResult & { absent?: boolean }>;
  /**
   * Optional balance capability (profile 4, for repeated runs against one system): `POST
   * {harness}/balance {"principal_id", "available_balance"}` sets that principal's available
   * balance (locked and held funds unchanged) -> 200 `{principal_id, available_balance}`. The two
   * values are sent as given (a check sends malformed ones on purpose). `absent` is true when the
   * harness has no such capability (HTTP 404, 405 or 501).
   */
  setBalance?(
    principalId: unknown,
    availableBalance: unknown,
  ): Promise<OperatorResult & { absent?: boolean }>;
}

/** Endpoint names accepted by {@link OperatorDriver.rawPost}. */
export type OperatorEndpoint = 'issue' | 'renew' | 'redeem';

/** Endpoint names accepted by {@link OperatorDriver.rawRequest}: CP 4 and the harness transitions. */
export type OperatorRawEndpoint = OperatorEndpoint | 'status' | 'policy' | 'pubkey' | 'expire' | 'cancel';

/**
 * The cash-pack Operator under test (Cash-Pack API sections 4 and 5).
 * @example
 * ```ts
 * const r = await operator.issue(signedLockRequest);
 * if (r.ok) console.log((r.body as { pack_id: string }).pack_id);
 * ```
 */
export interface OperatorDriver {
  /** POST issue with a LockRequest. */
  issue(lockRequest: unknown): Promise<OperatorResult>;
  /**
   * Sends a request profile 1 does not define (`base` `api`: relative to `base_url`; `harness`:
   * to `harness_url`) and returns the answer unjudged: PROFILE checks only; absent in a custom binding.
   */
  undefinedRequest?(req: UndefinedRequest): Promise<UndefinedRequestAnswer>;
  /** POST renew with the cash-pack and a renewal entry. */
  renew(cashpack: unknown, entry: unknown): Promise<OperatorResult>;
  /** POST redeem with the cash-pack and a redemption request. */
  redeem(cashpack: unknown, request: unknown): Promise<OperatorResult>;
  /** GET status; `credential` omitted means no Authorization is sent. */
  status(packId: string, credential?: string): Promise<OperatorResult>;
  /** GET the policy document. */
  policy(): Promise<OperatorResult>;
  /** GET the public signing key (JWK). */
  publicKey(): Promise<OperatorResult>;
  /** Sends a raw body (e.g. malformed JSON) to an endpoint: PROFILE checks only. */
  rawPost?(endpoint: OperatorEndpoint, body: string): Promise<OperatorResult>;
  /**
   * Sends `method` (with `body`, a JSON text, when given) to an endpoint, e.g. a method it does not
   * take: PROFILE checks only. `status` is the status path of a pack id nobody issued.
   */
  rawRequest?(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    endpoint: OperatorRawEndpoint,
    body?: string,
  ): Promise<OperatorResult>;
  /**
   * Race checks (issue 11): the calls delivered together (one racer each), with how tightly they
   * reached the Operator. Optional: without it the suite sends them at once, unmeasured.
   */
  race?(calls: OperatorCall[]): Promise<RaceOutcome<OperatorResult>>;
  /** Optional harness. */
  harness?: OperatorHarness;
  /** Releases resources. */
  close?(): Promise<void>;
}

/** The drivers of one run; any may be absent. */
export interface Drivers {
  payee?: PayeeDriver;
  /** One wallet driver per channel (http, stdio). */
  wallets?: WalletDriver[];
  operator?: OperatorDriver;
}

/** What a custom driver module's `createDrivers` receives beside the config. */
export interface DriverFactoryContext {
  /** Record every exchange here so it shows up as evidence (already-redacting). */
  recorder: Recorder;
}

/**
 * The module contract of `cprc run --driver ./my-driver.js` (see docs/drivers.md): the module
 * exports `createDrivers(config, { recorder })` returning any of the drivers; targets it does not
 * return use the default HTTP/stdio drivers.
 */
export type CreateDrivers = (config: RunConfig, ctx: DriverFactoryContext) => Drivers | Promise<Drivers>;

/**
 * A broken exchange (no answer from the target): refused, timeout, TLS failure, oversize body,
 * dead wallet process, non-JSON line. The suite library reports it as an `error` result.
 */
export class DriverTransportError extends CprcError {
  constructor(code: CprcErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = 'DriverTransportError';
  }
}

/** True when `err` is a {@link DriverTransportError} (or any tool error raised by a driver). */
export function isTransportError(err: unknown): err is CprcError {
  return (
    err instanceof DriverTransportError ||
    (err instanceof CprcError &&
      ['CPRC_TIMEOUT', 'CPRC_RESPONSE_TOO_LARGE', 'CPRC_TARGET_UNREACHABLE', 'CPRC_DRIVER'].includes(
        err.code,
      ))
  );
}
