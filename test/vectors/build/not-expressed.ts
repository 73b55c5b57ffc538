/**
 * Requirements of the catalog that no vector expresses, each with why. The generator fails when a
 * requirement has neither a vector nor a line here, and when a line here names one that has a
 * vector (so this list stays exact). A vector is one input and the answer it must get; what
 * follows is about transport, time, a running system's memory, or a person, which the suites
 * check against a live target instead.
 */
const TLS =
  'a property of the transport (TLS on the wire, the server that answers), not of an input and its answer';
const UNIQUE =
  'uniqueness over every request a payee ever issues: a property of a population of answers, not of one';
const UNTESTABLE = 'marked untestable in the catalog: no interface shows it';

export const NOT_EXPRESSED: Readonly<Record<string, string>> = {
  'CPR-1-CPR-INPUT-ONLY': UNTESTABLE,
  'CPR-2.1-REQUEST-ID-UNIQUE': UNIQUE,
  'CPR-INV-3-REQUEST-ID-UNIQUE': UNIQUE,
  'CPR-INV-8-UNIQUE-REQUEST-ID': UNIQUE,
  'CPR-4.1-TLS-ONLY': TLS,
  'CPR-4.3-DEEP-LINK': UNTESTABLE,
  'CPR-4.3-QR-AND-TOKEN-DELIVERY':
    'which delivery forms a payee offers: a capability of a system, not an answer to an input',
  'CPR-4.4-OWN-AUTHORIZATION': UNTESTABLE,
  'CPR-4.4-SEVERAL-ATTEMPTS':
    'a permission (MAY) to derive one CPR more than once: each derivation is a derivation case; that a wallet allows a second is a property of its state',
  'CPR-4.5-UNSUPPORTED-RAIL-ALTERNATIVE': UNTESTABLE,
  'CPR-4.5-CONVERSION-DISCLOSED': UNTESTABLE,
  'CPR-5-PAYLOAD-TLS-ONLY': TLS,
  'CPR-INV-7-NO-PAYER-DATA-STORED': UNTESTABLE,
  'CPR-INV-8-TLS-ONLY': TLS,
  'CPR-9-NEW-SUB-INTERFACES': UNTESTABLE,
  'CPR-9-FOUNDATION-PREFIX': UNTESTABLE,
  'CP-1-REDEMPTION-FUNDS': UNTESTABLE,
  'CP-9-V1-PATHS':
    'the URL paths an Operator serves: a property of its HTTP routing (the operator vectors name endpoints by action)',
  'PRF-1-UNDEFINED-REQUEST-ERROR':
    'a method or path that is no endpoint: HTTP routing, which the vectors leave out (they name endpoints by action)',
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
