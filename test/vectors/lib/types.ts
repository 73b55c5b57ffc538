/**
 * The shapes of the test vectors (schemas/vectors/): one file per group, a header and its cases.
 * The JSON Schemas are the contract with consumers; these types are what the generator and the
 * proof in TypeScript read and write.
 */

/** A finding as a vector states it: the validator's or the codec's, without its message. */
export interface VectorFinding {
  requirement: string;
  level: 'SPEC' | 'PROFILE';
  severity: 'error' | 'warning';
  path?: string;
}

/** What every case carries. */
export interface CaseBase {
  /** Stable ID: a case never changes meaning; a wrong one is retired (index.json), never edited. */
  id: string;
  comment: string;
  /** Requirement IDs the case exercises. */
  requirements: string[];
  /** Kinds of input (see the group's `notes`). */
  flags?: string[];
  result: 'valid' | 'invalid' | 'acceptable';
}

/** A vector file. */
export interface VectorFile<C extends CaseBase = CaseBase> {
  group: string;
  schema: string;
  suite_version: string;
  description: string;
  source: string[];
  requirements: string[];
  notes: Record<string, string>;
  number_of_cases: number;
  cases: C[];
}

/** documents group. */
export interface DocumentCase extends CaseBase {
  reading: 'payee' | 'wallet';
  now: string;
  max_validity_seconds?: number;
  document?: unknown;
  text?: string;
  bytes_base64?: string;
  /** For `acceptable`: the verdicts allowed. */
  outcomes?: Array<'valid' | 'invalid'>;
  /** The reference validator's findings (requirement, level, severity, path). */
  findings: VectorFinding[];
}

/** The decoded form of a URI. */
export type DecodedUri =
  | { kind: 'reference'; token: string; endpoint: string; retrieval_url: string }
  | { kind: 'inline'; json: string; document: unknown };

/** uris group. */
export interface UriCase extends CaseBase {
  uri: string;
  outcomes?: Array<'valid' | 'invalid'>;
  /** What a reader decodes (absent when the URI is refused). */
  decoded?: DecodedUri;
  findings: VectorFinding[];
}

/** qr group. */
export interface QrCase extends CaseBase {
  kind: 'read' | 'render';
  /** read: the PNG image (base64, standard alphabet with padding). */
  png_base64?: string;
  /** read: the payload text the image carries; render: the URI to render. */
  payload?: string;
  /** How the image was rendered (or is asked to be): error correction, pixels per module, quiet zone. */
  error_correction: 'L' | 'M' | 'Q' | 'H';
  scale?: number;
  margin?: number;
  /** read: the segment modes of the symbol. */
  modes?: string[];
  findings: VectorFinding[];
}

/** crypto group. */
export type CryptoCase = JcsCase | SignatureCase | ChainCase | ThumbprintCase;

export interface JcsCase extends CaseBase {
  kind: 'jcs';
  /** The JSON text to parse and canonicalize. */
  input_json: string;
  /** RFC 8785 output (valid cases). */
  canonical?: string;
  canonical_utf8_hex?: string;
}

export interface SignatureCase extends CaseBase {
  kind: 'signature';
  message_type: string;
  /** The key whose signature is checked (base64url of the raw 32 bytes). */
  public_key: string;
  message: Record<string, unknown>;
  /** The JCS text of the message without `signature` (what the signature covers). */
  signing_input: string;
}

export interface ChainCase extends CaseBase {
  kind: 'chain';
  seed: Record<string, unknown>;
  renewal_chain: Array<Record<string, unknown>>;
  /** valid: d0..dN, each lowercase hex. */
  digests?: string[];
  /** invalid: a chain_digest claimed for this seed and chain, computed the wrong way. */
  chain_digest?: string;
}

export interface ThumbprintCase extends CaseBase {
  kind: 'jwk-thumbprint';
  public_key: string;
  kid: string;
}

/** A derivation outcome: a Payment (id free, conditions per profile 3) or an error code. */
export type DerivationOutcome =
  | { payment: Record<string, unknown>; conditions: Record<string, unknown> }
  | { error: string };

/** derivation group. */
export interface DerivationCase extends CaseBase {
  now: string;
  supported_rails: string[];
  input: { cpr?: unknown; uri?: string; context: Record<string, unknown> };
  payee_answer?: { retrieval_url: string; status: number; body: unknown };
  outcomes: DerivationOutcome[];
}

/** operator group. */
export interface OperatorBalance {
  available: string;
  locked: string;
  released: string;
}

export interface OperatorStep {
  step: string;
  action:
    | 'issue'
    | 'renew'
    | 'redeem'
    | 'status'
    | 'expire'
    | 'cancel'
    | 'advance_clock'
    | 'set_balance'
    | 'policy'
    | 'public_key';
  body?: unknown;
  sign?: {
    key: string;
    member?: string;
    tamper?: { op: 'flip-bit' } | { op: 'remove' } | { op: 'set'; name: string; value: unknown };
  };
  pack_id?: unknown;
  credential?: string;
  seconds?: number;
  expected: {
    status: number;
    code?: string;
    /** Other answers that are as correct (profile 4: a request meeting two conditions by nature; a choice the profile leaves open). */
    alternatives?: Array<{ status: number; code: string }>;
    /** Any error code of the profile 1 table, with the status of its row, is as correct (the profile names no code). */
    any_error_code?: boolean;
    body?: Record<string, unknown>;
    /** Timestamp members of the answer: the same instant, written in RFC 3339 with Z (profile 1). */
    instants?: Record<string, string>;
    checks?: string[];
    balances: Record<string, OperatorBalance>;
  };
}

export interface OperatorCase extends CaseBase {
  initial: {
    now: string;
    policy: Record<string, unknown>;
    operator_key: string;
    principals: Array<{
      principal_id: string;
      key: string;
      status_credential: string;
      available_balance: string;
    }>;
    identity_tokens: Record<string, number>;
    operator_credential: string;
  };
  steps: OperatorStep[];
}

/** vectors/index.json */
export interface VectorIndex {
  suite_version: string;
  description: string;
  groups: Array<{ group: string; file: string; schema: string; number_of_cases: number }>;
  keys: Array<{ label: string; seed_hex: string; public_key: string; private_jwk: Record<string, string> }>;
  retired: Array<{ id: string; group: string; reason: string; replaced_by?: string }>;
  not_expressed: Array<{ requirement: string; reason: string }>;
}

/** payee group: one request of a sequence. */
export interface PayeeStep {
  step: string;
  /** create: POST {harness}/requests; retrieve: GET {base_url}/cpr/{token}; fulfill: POST {harness}/fulfillments; advance_clock: POST {harness}/clock. */
  action: 'create' | 'retrieve' | 'fulfill' | 'advance_clock';
  /** The harness body (a template: `{"$ref": "<step>.body.<member>"}`). */
  body?: unknown;
  /** retrieve: the token, or `{"$token": "<step>"}` for the token of the reference URI a create step answered. */
  token?: unknown;
  expected: {
    status: number;
    code?: string;
    alternatives?: Array<{ status: number; code?: string }>;
    body?: Record<string, unknown>;
    /** Applied to a 2xx answer: cpr-valid, reference-uri, inline-uri, token-lifetime<=N, window=N. */
    checks?: string[];
  };
}

/** payee group: a sequence from a payee's stated configuration. */
export interface PayeeCase extends CaseBase {
  initial: {
    now: string;
    max_token_ttl_seconds: number;
    max_validity_seconds: number;
    default_validity_seconds: number;
  };
  steps: PayeeStep[];
}
