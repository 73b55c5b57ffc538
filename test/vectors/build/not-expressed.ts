/**
 * Requirements of the catalog that no vector expresses, each with why. The generator fails when a
 * requirement has neither a vector nor a line here, and when a line here names one that has a
 * vector (so this list stays exact). A vector is one input and the answer it must get; what
 * follows is about transport, time, a running system's memory, or a person, which the suites
 * check against a live target instead.
 */
const TLS =
  'a property of the transport (TLS on the wire, the server that answers), not of an input and its answer';
const SEQUENCE_PAYEE =
  "behaviour of a running payee over a sequence of its own requests and tokens (a token it issued, used once, expired by its clock); the token and request_id are the payee's, so no fixed input names them";
const UNIQUE =
  'uniqueness over every request a payee ever issues: a property of a population of answers, not of one';
const UNTESTABLE = 'marked untestable in the catalog: no interface shows it';

const PENDING_BALANCE =
  'expressible (build/operator.ts balanceHarnessSpec), but the committed reference Operator has no balance harness yet, and every vector is proved against the reference';

export const NOT_EXPRESSED: Readonly<Record<string, string>> = {
  'CPR-1-SINGLE-USE': SEQUENCE_PAYEE,
  'CPR-1-CPR-INPUT-ONLY': UNTESTABLE,
  'CPR-2.1-REQUEST-ID-UNIQUE': UNIQUE,
  'CPR-INV-3-REQUEST-ID-UNIQUE': UNIQUE,
  'CPR-INV-8-UNIQUE-REQUEST-ID': UNIQUE,
  'CPR-4.1-RETRIEVAL-PATH':
    'the HTTP route a payee serves: a property of its server, checked by a request to it',
  'CPR-4.1-TLS-ONLY': TLS,
  'CPR-4.1-CONTENT-TYPE': 'an HTTP response header of a live payee',
  'CPR-4.1-FULL-CPR':
    'that the body a payee serves is the request it issued: only the payee knows what it issued',
  'CPR-4.3-DEEP-LINK': UNTESTABLE,
  'CPR-4.3-QR-AND-TOKEN-DELIVERY':
    'which delivery forms a payee offers: a capability of a system, not an answer to an input',
  'CPR-4.3-CONSUMED-REJECT': SEQUENCE_PAYEE,
  'CPR-4.4-OWN-AUTHORIZATION': UNTESTABLE,
  'CPR-4.4-SEVERAL-ATTEMPTS':
    'a permission (MAY) to derive one CPR more than once: each derivation is a derivation case; that a wallet allows a second is a property of its state',
  'CPR-4.5-UNSUPPORTED-RAIL-ALTERNATIVE': UNTESTABLE,
  'CPR-4.5-CONVERSION-DISCLOSED': UNTESTABLE,
  'CPR-5-TOKEN-EXPIRY': SEQUENCE_PAYEE,
  'CPR-5-TOKEN-WINDOW-15-MIN': SEQUENCE_PAYEE,
  'CPR-5-TOKEN-SINGLE-USE': SEQUENCE_PAYEE,
  'CPR-5-TOKEN-REUSE-ERROR': SEQUENCE_PAYEE,
  'CPR-5-PAYLOAD-TLS-ONLY': TLS,
  'CPR-7-TOKEN-REUSE': SEQUENCE_PAYEE,
  'CPR-8-TOKEN-LIFETIME': SEQUENCE_PAYEE,
  'CPR-8-TOKEN-USES': SEQUENCE_PAYEE,
  'CPR-INV-7-NO-PAYER-DATA-STORED': UNTESTABLE,
  'CPR-INV-8-TLS-ONLY': TLS,
  'CPR-9-NEW-SUB-INTERFACES': UNTESTABLE,
  'CPR-9-FOUNDATION-PREFIX': UNTESTABLE,
  'CP-1-REDEMPTION-FUNDS': UNTESTABLE,
  'CP-9-V1-PATHS':
    'the URL paths an Operator serves: a property of its HTTP routing (the operator vectors name endpoints by action)',
  'PRF-4-HARNESS-BALANCE': PENDING_BALANCE,
  'PRF-4-HARNESS-BALANCE-INVALID-400': PENDING_BALANCE,
  'PRF-1-UNDEFINED-REQUEST-ERROR':
    'a method or path that is no endpoint: HTTP routing, which the vectors leave out (they name endpoints by action)',
  'PRF-2-RETRIEVAL-200': SEQUENCE_PAYEE,
  'PRF-2-TOKEN-CONSUMED-410': SEQUENCE_PAYEE,
  'PRF-2-TOKEN-EXPIRED-410': SEQUENCE_PAYEE,
  'PRF-2-TOKEN-UNKNOWN-404': SEQUENCE_PAYEE,
  'PRF-2-NO-CPR-IN-ERROR': SEQUENCE_PAYEE,
  'PRF-2-TOKEN-LIFETIME': SEQUENCE_PAYEE,
  'PRF-2-HARNESS-REQUESTS': SEQUENCE_PAYEE,
  'PRF-2-HARNESS-TOKEN-TTL': SEQUENCE_PAYEE,
  'PRF-2-HARNESS-VALIDITY': SEQUENCE_PAYEE,
  'PRF-2-HARNESS-UNSERVICEABLE': SEQUENCE_PAYEE,
  'PRF-2-HARNESS-CLOCK': SEQUENCE_PAYEE,
  'PRF-2-FULFILLMENT-FIRST-200': SEQUENCE_PAYEE,
  'PRF-2-FULFILLMENT-DUPLICATE-409': SEQUENCE_PAYEE,
  'PRF-2-FULFILLMENT-EXPIRED-409': SEQUENCE_PAYEE,
  'PRF-2-FULFILLMENT-UNKNOWN-404': SEQUENCE_PAYEE,
  'PRF-2-FULFILLMENT-ID-INVALID': SEQUENCE_PAYEE,
  'PRF-2-NO-RETRIEVAL-DATA':
    'about what a live payee puts in the CPR it serves to a given HTTP request (headers, cookies, address): a property of its server',
  'PRF-3-HARNESS-MESSAGE-SCHEMA':
    'the wire form of the wallet harness (HTTP status, stdio lines); the derivation vectors give the body and the answer, not the transport',
  'PRF-3-STDIO-FORM': 'the stdio framing of the wallet harness: a transport',
  'PRF-3-RETRIEVAL-CERT-CHAIN': TLS,
  'PRF-3-RETRIEVAL-CERT-HOST': TLS,
  'PRF-3-RETRIEVAL-CERT-VALIDITY': TLS,
  'PRF-3-RETRIEVAL-REDIRECT': TLS,
};
