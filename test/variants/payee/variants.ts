/**
 * Permitted variants of the payee: the reference payee with one choice flipped that profile
 * section 2 allows. Each must pass the whole payee suite (no failure, warning or error).
 */
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { createServer } from 'node:net';
import { encodeReferenceUri } from '../../../src/codec/index.js';
import {
  HARNESS_MEMBERS,
  type IssuedRequest,
  ReferencePayee,
  RequestRegistry,
  TOKEN_RANDOM_BYTES,
  type TokenRecord,
  TokenStore,
} from '../../../src/reference/payee/index.js';
import { withUri } from '../../broken/payee/_harness.js';
import { refusingPayee, sendJson } from '../../broken/payee/_json.js';
import { rewriteAnswer } from '../../broken/payee/_rewrite.js';
import { startBrokenPayee } from '../../broken/payee/_start.js';
import type { PermittedVariant } from '../../broken/types.js';

/** Tokens in lowercase hex (160 bits, 40 hex digits). */
class HexTokenStore extends TokenStore {
  override generateToken(): string {
    return randomBytes(TOKEN_RANDOM_BYTES).toString('hex');
  }
}

/** Serves a token at exactly the instant its lifetime ends (expired only after it). */
class InstantInclusiveTokenStore extends TokenStore {
  override isExpired(record: TokenRecord, now: Date): boolean {
    return now.getTime() > record.expiresAt.getTime();
  }
}

/** Fulfils a request at exactly its expires_at (expired only after it). */
class InstantInclusiveRegistry extends RequestRegistry {
  override isExpired(request: IssuedRequest, now: Date): boolean {
    return now.getTime() > request.expiresAt.getTime();
  }
}

/** Cuts a memo over 140 code points to its first 140 (whole code points, never half a pair). */
class TruncatingPayee extends ReferencePayee {
  protected override createRequest(body: unknown, res: ServerResponse): Promise<void> {
    const memo = (body as { memo?: unknown } | null)?.memo;
    if (typeof memo === 'string' && [...memo].length > 140)
      return super.createRequest({ ...(body as object), memo: [...memo].slice(0, 140).join('') }, res);
    return super.createRequest(body, res);
  }
}

/** A UUID in its 8-4-4-4-12 hex form, either case. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Answers a fulfillment whose request_id is a string but not a UUID with 400 INVALID_REQUEST. */
class InvalidIdPayee extends ReferencePayee {
  protected override fulfill(body: unknown, res: ServerResponse): Promise<void> {
    const id = (body as { request_id?: unknown } | null)?.request_id;
    if (typeof id !== 'string' || UUID.test(id)) return super.fulfill(body, res);
    sendJson(res, 400, {
      error: {
        code: 'INVALID_REQUEST',
        message: `"request_id" must be a uuid, got ${JSON.stringify(id.slice(0, 64))}`,
      },
    });
    return Promise.resolve();
  }
}

/** Writes reference URIs whose endpoint is the whole retrieval URL `{base_url}/cpr/{token}`. */
class FullEndpointPayee extends ReferencePayee {
  protected override createRequest(body: unknown, res: ServerResponse): Promise<void> {
    rewriteAnswer(res, async (a) => {
      const json = a.json as { uri?: unknown; qr_png_base64?: unknown } | undefined;
      if (a.status !== 201 || typeof json?.uri !== 'string') return a;
      const m = /^cpr:\/\/([^?]+)\?endpoint=(.+)$/.exec(json.uri);
      if (m === null) return a;
      const token = m[1] as string;
      const endpoint = `${decodeURIComponent(m[2] as string).replace(/\/+$/, '')}/cpr/${token}`;
      return {
        ...a,
        json: await withUri(json as Record<string, unknown>, encodeReferenceUri(token, endpoint)),
      };
    });
    return super.createRequest(body, res);
  }
}

/** Serves only some rails: the others are refused with 400 INVALID_REQUEST. */
const SomeRailsPayee = refusingPayee((params) =>
  params.railHint === 'UPI' || params.railHint === 'SWIFT' || params.railHint === 'ON_CHAIN'
    ? `this payee does not serve the rail ${params.railHint}; it serves SEPA_CT, SEPA_INST, ACH, PIX and OPEN`
    : undefined,
);

/** Refuses the largest amount, 2^256 - 1 (an exclusive upper bound), with 400 INVALID_REQUEST. */
const LargestAmountRefusedPayee = refusingPayee((params) =>
  params.amount === (2n ** 256n - 1n).toString()
    ? 'this payee serves amounts below 2^256 - 1 only'
    : undefined,
);

/** `o` without the members not in `listed`, and (`nullAbsent`) without those that are null. */
function onlyListed(o: unknown, listed: ReadonlySet<string>, nullAbsent = false): unknown {
  if (typeof o !== 'object' || o === null || Array.isArray(o)) return o;
  return Object.fromEntries(
    Object.entries(o).filter(([k, v]) => listed.has(k) && !(nullAbsent && v === null && k !== 'delivery')),
  );
}

/**
 * Reads harness bodies leniently: members profile 2 does not list are ignored (in a create request,
 * its asset, a clock or a fulfillment body), and `null` for an optional member of a create request
 * stands for its absence.
 */
class LenientHarnessPayee extends ReferencePayee {
  protected override createRequest(body: unknown, res: ServerResponse): Promise<void> {
    const b = onlyListed(body, HARNESS_MEMBERS.requests, true) as Record<string, unknown>;
    if (b !== body && b.asset !== undefined) b.asset = onlyListed(b.asset, HARNESS_MEMBERS.asset);
    return super.createRequest(b, res);
  }

  protected override advanceClock(body: unknown, res: ServerResponse): Promise<void> {
    return super.advanceClock(onlyListed(body, HARNESS_MEMBERS.clock), res);
  }

  protected override fulfill(body: unknown, res: ServerResponse): Promise<void> {
    return super.fulfill(onlyListed(body, HARNESS_MEMBERS.fulfillments), res);
  }
}

/** A loopback URL on which nothing listens (a port bound, then released). */
async function deadPlainUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** Every permitted variant of the payee. */
export const payeeVariants: PermittedVariant[] = [
  {
    id: 'payee-variant-hex-tokens',
    target: 'payee',
    choice: 'tokens are written in lowercase hex (160 bits) instead of base32',
    clause: 'profile 2: "written in lowercase base32 (RFC 4648 alphabet, no padding) or lowercase hex"',
    start: ({ workDir }) => startBrokenPayee(workDir, { tokenStore: new HexTokenStore() }),
  },
  {
    id: 'payee-variant-expiry-instant-inclusive',
    target: 'payee',
    choice:
      'a token is still served, and a request still fulfilled, at exactly its expiry instant (refused only after it)',
    clause:
      'spec 2.1 "After it, the request must not be fulfilled"; profile 2 "past its lifetime", "past expires_at" (AMB-38)',
    start: ({ workDir }) =>
      startBrokenPayee(workDir, {
        tokenStore: new InstantInclusiveTokenStore(),
        requestRegistry: new InstantInclusiveRegistry(),
      }),
  },
  {
    id: 'payee-variant-truncates-memo',
    target: 'payee',
    choice: 'a harness memo over 140 code points is honoured, cut to its first 140 code points',
    clause: 'profile 2: "answered 400 INVALID_REQUEST, or honoured with a CPR that is itself conformant"',
    start: ({ workDir }) => startBrokenPayee(workDir, {}, TruncatingPayee),
  },
  {
    id: 'payee-variant-non-uuid-fulfillment-400',
    target: 'payee',
    choice: 'a fulfillment whose request_id is a string but not a UUID answers 400 INVALID_REQUEST',
    clause: 'profile 2: "may be answered 400 INVALID_REQUEST or 404 REQUEST_UNKNOWN"',
    start: ({ workDir }) => startBrokenPayee(workDir, {}, InvalidIdPayee),
  },
  {
    id: 'payee-variant-endpoint-full-path',
    target: 'payee',
    choice: 'reference URIs carry the whole retrieval URL as endpoint ({base_url}/cpr/{token})',
    clause: 'profile 2: "A reader also accepts an endpoint that already ends in /cpr/{token}"',
    start: ({ workDir }) => startBrokenPayee(workDir, {}, FullEndpointPayee),
  },
  {
    id: 'payee-variant-no-clock',
    target: 'payee',
    choice: 'the harness offers no test clock (expiry checks wait or skip)',
    clause:
      'profile 2: "Optional test clock ... Without it a suite waits for real expiry when the wait is short"',
    start: ({ workDir }) => startBrokenPayee(workDir, { testClock: false }),
  },
  {
    id: 'payee-variant-no-plain-listener',
    target: 'payee',
    choice:
      'nothing listens on plain HTTP (the configured plain address refuses connections) instead of answering 426',
    clause: 'spec 5 rule 5 / profile 5: "plain_http_url is where the payee listens without TLS, if anywhere"',
    start: async ({ workDir }) => {
      const started = await startBrokenPayee(workDir, { plainHttp: false });
      const payee = started.config.payee;
      if (payee) payee.plain_http_url = await deadPlainUrl();
      return started;
    },
  },
  {
    id: 'payee-variant-some-rails',
    target: 'payee',
    choice:
      'the payee serves five rails and refuses UPI, SWIFT and ON_CHAIN requests with 400 INVALID_REQUEST',
    clause: 'profile 2: "a rail it does not serve ... is answered 400 INVALID_REQUEST"',
    start: ({ workDir }) => startBrokenPayee(workDir, {}, SomeRailsPayee),
  },
  {
    id: 'payee-variant-largest-amount-refused',
    target: 'payee',
    choice:
      'the harness refuses the largest amount, 2^256 - 1, with 400 INVALID_REQUEST (an exclusive upper bound)',
    clause:
      'profile 2: "A harness request the payee cannot honour as asked ... is answered 400 INVALID_REQUEST, or honoured with a CPR that is itself conformant"',
    start: ({ workDir }) => startBrokenPayee(workDir, {}, LargestAmountRefusedPayee),
  },
  {
    id: 'payee-variant-lenient-harness',
    target: 'payee',
    choice:
      'the harness ignores members profile 2 does not list (in a create request, its asset, a clock or a fulfillment body) and reads null for an optional create-request member as its absence',
    clause:
      'profile 2 lists the members of each harness body without closing it, nor says how null is read; profile 2: "answered 400 INVALID_REQUEST, or honoured with a CPR that is itself conformant"',
    start: ({ workDir }) => startBrokenPayee(workDir, {}, LenientHarnessPayee),
  },
];
