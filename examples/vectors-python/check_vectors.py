#!/usr/bin/env python3
"""Checks the cpr-conformance test vectors with the Python standard library alone.

A consumer written outside TypeScript and outside the package: its own RFC 8785 (JCS)
canonicalizer with ECMAScript number formatting, its own RFC 8032 Ed25519 verifier, its own
profile 4 chain digest and RFC 7638 thumbprint, and its own reader of cpr:// URIs (spec 4.2,
profile 2). It runs every case of crypto.json and uris.json and prints one line per failed case
and a closing "N passed, N failed" line; the exit status is 1 when a case failed or a file could
not be read.

    python3 check_vectors.py [VECTORS_DIR]     (default: ../../vectors beside this file)
"""

import base64
import hashlib
import json
import math
import re
import sys
from pathlib import Path

# ----------------------------------------------------------------------------- base64url


B64URL = re.compile(r"^[A-Za-z0-9_-]*$")


def b64url_encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def b64url_decode_strict(text: str) -> bytes:
    """base64url as profile 4 writes it: no padding, no other alphabet, canonical trailing bits."""
    if not isinstance(text, str) or "=" in text or not B64URL.match(text) or len(text) % 4 == 1:
        raise ValueError("not strict base64url")
    data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    if b64url_encode(data) != text:
        raise ValueError("non-canonical base64url")
    return data


# ----------------------------------------------------------------------------- RFC 8785 JCS


def es_number(x: float) -> str:
    """Number::toString of ECMAScript (what RFC 8785 section 3.2.2.3 prescribes)."""
    if math.isnan(x) or math.isinf(x):
        raise ValueError("NaN and infinities have no JSON form")
    if x == 0:
        return "0"
    if x < 0:
        return "-" + es_number(-x)
    # repr gives the shortest digits that round-trip, as ECMAScript requires
    mantissa, _, exp = repr(x).partition("e")
    whole, _, frac = mantissa.partition(".")
    digits = (whole + frac).lstrip("0")
    e10 = (int(exp) if exp else 0) - len(frac)
    while digits.endswith("0"):
        digits = digits[:-1]
        e10 += 1
    k = len(digits)
    n = k + e10
    if k <= n <= 21:
        return digits + "0" * (n - k)
    if 0 < n <= 21:
        return digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return "0." + "0" * (-n) + digits
    e = n - 1
    sign = "+" if e >= 0 else "-"
    head = digits if k == 1 else digits[0] + "." + digits[1:]
    return f"{head}e{sign}{abs(e)}"


SHORT_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def jcs_string(s: str) -> str:
    out = ['"']
    for ch in s:
        cp = ord(ch)
        if 0xD800 <= cp <= 0xDFFF:
            raise ValueError("a lone surrogate has no UTF-8 form (RFC 8785 3.2.2.2)")
        if ch in SHORT_ESCAPES:
            out.append(SHORT_ESCAPES[ch])
        elif cp < 0x20:
            out.append(f"\\u{cp:04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def utf16_key(name: str) -> bytes:
    return name.encode("utf-16-be")


def jcs(value) -> str:
    """RFC 8785 canonical JSON text of a value parsed by parse_json."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, float):
        return es_number(value)
    if isinstance(value, int):
        return es_number(float(value))
    if isinstance(value, str):
        return jcs_string(value)
    if isinstance(value, list):
        return "[" + ",".join(jcs(v) for v in value) + "]"
    if isinstance(value, dict):
        for k in value:
            jcs_string(k)  # refuses lone surrogates in names
        keys = sorted(value, key=utf16_key)
        return "{" + ",".join(jcs_string(k) + ":" + jcs(value[k]) for k in keys) + "}"
    raise ValueError(f"no JSON form for {type(value).__name__}")


def _no_constant(name):
    raise ValueError(f"{name} is not JSON")


def parse_json(text: str):
    """JSON as ECMAScript's JSON.parse reads it: every number an IEEE 754 double."""
    return json.loads(text, parse_int=float, parse_constant=_no_constant)


def jcs_bytes(value) -> bytes:
    return jcs(value).encode("utf-8")


# ----------------------------------------------------------------------------- RFC 8032 Ed25519

P = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493
D = (-121665 * pow(121666, P - 2, P)) % P
SQRT_M1 = pow(2, (P - 1) // 4, P)


def _inv(x: int) -> int:
    return pow(x, P - 2, P)


def _add(a, b):
    # extended homogeneous coordinates (X, Y, Z, T), RFC 8032 5.1.4
    x1, y1, z1, t1 = a
    x2, y2, z2, t2 = b
    aa = (y1 - x1) * (y2 - x2) % P
    bb = (y1 + x1) * (y2 + x2) % P
    cc = t1 * 2 * D * t2 % P
    dd = z1 * 2 * z2 % P
    e, f, g, h = bb - aa, dd - cc, dd + cc, bb + aa
    return (e * f % P, g * h % P, f * g % P, e * h % P)


def _mul(s: int, point):
    q = (0, 1, 1, 0)
    while s > 0:
        if s & 1:
            q = _add(q, point)
        point = _add(point, point)
        s >>= 1
    return q


def _encode(point) -> bytes:
    x, y, z, _ = point
    zi = _inv(z)
    x, y = x * zi % P, y * zi % P
    return int.to_bytes(y | ((x & 1) << 255), 32, "little")


def _decode(data: bytes):
    """A point from its 32-byte encoding, or None when it is no valid encoding (RFC 8032 5.1.3)."""
    if len(data) != 32:
        return None
    y = int.from_bytes(data, "little")
    sign = y >> 255
    y &= (1 << 255) - 1
    if y >= P:
        return None
    x2 = (y * y - 1) * _inv(D * y * y + 1) % P
    if x2 == 0:
        if sign:
            return None
        x = 0
    else:
        x = pow(x2, (P + 3) // 8, P)
        if (x * x - x2) % P != 0:
            x = x * SQRT_M1 % P
        if (x * x - x2) % P != 0:
            return None
        if (x & 1) != sign:
            x = P - x
    return (x, y, 1, x * y % P)


_GY = 4 * _inv(5) % P
BASE = _decode(int.to_bytes(_GY, 32, "little"))


def ed25519_verify(public_key: bytes, message: bytes, signature: bytes) -> bool:
    """RFC 8032 5.1.7: S < L, R and A valid encodings, [S]B = R + [k]A."""
    if len(signature) != 64 or len(public_key) != 32:
        return False
    a = _decode(public_key)
    r = _decode(signature[:32])
    if a is None or r is None:
        return False
    s = int.from_bytes(signature[32:], "little")
    if s >= L:
        return False
    k = int.from_bytes(hashlib.sha512(signature[:32] + public_key + message).digest(), "little") % L
    return _encode(_mul(s, BASE)) == _encode(_add(r, _mul(k, a)))


def verify_message(message: dict, public_key_b64: str) -> bool:
    """Profile 4: signature = base64url(Ed25519 over JCS of the object without signature)."""
    if not isinstance(message, dict) or not isinstance(message.get("signature"), str):
        return False
    try:
        signature = b64url_decode_strict(message["signature"])
        public_key = b64url_decode_strict(public_key_b64)
    except ValueError:
        return False
    rest = {k: v for k, v in message.items() if k != "signature"}
    return ed25519_verify(public_key, jcs_bytes(rest), signature)


# ----------------------------------------------------------------------------- chain digest, kid


def chain_digests(seed: dict, chain: list) -> list:
    """Profile 4: d0 = SHA-256(JCS(seed)); dN = SHA-256(hex of d(N-1) || JCS(entry N))."""
    d = hashlib.sha256(jcs_bytes({k: seed[k] for k in ("pack_id", "amount", "asset", "expires_at", "initial_bearer_pk")})).hexdigest()
    out = [d]
    for entry in chain:
        d = hashlib.sha256(d.encode("ascii") + jcs_bytes(entry)).hexdigest()
        out.append(d)
    return out


def thumbprint(x: str) -> str:
    return b64url_encode(hashlib.sha256(jcs_bytes({"crv": "Ed25519", "kty": "OKP", "x": x})).digest())


# ----------------------------------------------------------------------------- cpr:// URIs

URI_PARTS = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://([^/?#]*)([^?#]*)(?:\?([^#]*))?(?:#(.*))?$", re.S)
HOST_SAFE = re.compile(r"^[A-Za-z0-9._~-]+$")
BASE32_LOWER = re.compile(r"^[a-z2-7]+$")
HEX_LOWER = re.compile(r"^[0-9a-f]+$")


class Refused(Exception):
    def __init__(self, requirement: str):
        super().__init__(requirement)
        self.requirement = requirement


def percent_decode(raw: str) -> str:
    """decodeURIComponent: every "%" takes two hex digits, and the bytes must be UTF-8."""
    out = bytearray()
    i = 0
    while i < len(raw):
        if raw[i] == "%":
            if not re.match(r"^[0-9A-Fa-f]{2}$", raw[i + 1 : i + 3]):
                raise ValueError("malformed percent-encoding")
            out.append(int(raw[i + 1 : i + 3], 16))
            i += 3
        else:
            out += raw[i].encode("utf-8")
            i += 1
    return out.decode("utf-8")


def token_findings(token: str) -> list:
    if BASE32_LOWER.match(token):
        bits = len(token) * 5
    elif HEX_LOWER.match(token):
        bits = len(token) * 4
    else:
        return [("PRF-2-TOKEN-FORMAT", "error")]
    return [("PRF-2-TOKEN-ENTROPY", "error")] if bits < 128 else []


def split_url(url: str):
    """scheme, userinfo, host, path, query, fragment of an absolute URL with an authority, or None."""
    m = re.match(r"^([A-Za-z][A-Za-z0-9+.-]*):(?://([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$", url, re.S)
    if not m or m.group(2) is None or m.group(2).rsplit("@", 1)[-1] == "":
        return None
    authority = m.group(2)
    userinfo = authority.rsplit("@", 1)[0] if "@" in authority else ""
    return m.group(1).lower(), userinfo, m.group(3) or "/", m.group(4), m.group(5)


def decode_uri(uri: str):
    """(decoded or None, findings as (requirement, severity) pairs), as profile 2 reads a cpr:// URI."""
    findings = []
    try:
        m = URI_PARTS.match(uri)
        if not m:
            raise Refused("CPR-4.2-URI-FORMAT")
        scheme, authority, path, query, fragment = m.groups()
        if scheme.lower() != "cpr" or fragment is not None or authority == "":
            raise Refused("CPR-4.2-URI-FORMAT")
        if authority.lower() == "inline":
            return decode_inline(path, query, findings), findings
        return decode_reference(authority, path, query, findings), findings
    except Refused as refused:
        findings.append((refused.requirement, "error"))
        return None, findings


def decode_inline(path, query, findings):
    if query is not None or not path.startswith("/") or len(path) == 1:
        raise Refused("CPR-4.2-INLINE-URI")
    data = path[1:]
    if "/" in data:
        raise Refused("CPR-4.2-INLINE-URI")
    stripped = data.rstrip("=")
    if stripped != data:
        findings.append(("PRF-2-INLINE-URI", "warning"))
    try:
        raw = b64url_decode_strict(stripped)
    except ValueError:
        raise Refused("CPR-4.2-INLINE-URI") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise Refused("PRF-2-INLINE-URI") from None
    try:
        document = json.loads(text, parse_constant=_no_constant)
    except ValueError:
        raise Refused("CPR-4.2-INLINE-URI") from None
    if not isinstance(document, dict):
        raise Refused("CPR-4.2-INLINE-URI")
    return {"kind": "inline", "json": text, "document": document}


def decode_reference(token, path, query, findings):
    if not HOST_SAFE.match(token):
        raise Refused("CPR-4.2-REFERENCE-URI")
    if path == "/":
        findings.append(("PRF-2-REFERENCE-URI", "warning"))
    elif path != "":
        raise Refused("CPR-4.2-REFERENCE-URI")
    findings.extend(token_findings(token))
    if not query:
        raise Refused("CPR-4.2-REFERENCE-URI")
    raws = [p[len("endpoint=") :] for p in query.split("&") if p == "endpoint" or p.startswith("endpoint=")]
    if len(raws) != 1 or raws[0] == "":
        raise Refused("CPR-4.2-REFERENCE-URI")
    raw = raws[0]
    try:
        endpoint = percent_decode(raw)
    except ValueError:
        raise Refused("CPR-4.2-REFERENCE-URI") from None
    if re.search(r"[:/?#@]", raw):
        findings.append(("PRF-2-REFERENCE-URI", "warning"))
    parts = split_url(endpoint)
    if parts is None:
        raise Refused("CPR-4.2-REFERENCE-URI")
    scheme, userinfo, _, url_query, url_fragment = parts
    if scheme != "https":
        raise Refused("CPR-5-TLS-ONLY")
    if userinfo:
        raise Refused("PRF-2-REFERENCE-URI")
    if url_query or url_fragment:
        raise Refused("PRF-2-REFERENCE-URI")
    base = endpoint.rstrip("/")
    tail = re.search(r"/cpr/([^/]+)$", split_url(base)[2])
    if tail:
        if tail.group(1) != token:
            raise Refused("PRF-2-REFERENCE-FULL-ENDPOINT")
        retrieval = base
    else:
        retrieval = f"{base}/cpr/{token}"
    return {"kind": "reference", "token": token, "endpoint": endpoint, "retrieval_url": retrieval}


# ----------------------------------------------------------------------------- the checks


def check_crypto(case) -> str:
    kind = case["kind"]
    if kind == "jcs":
        try:
            canonical = jcs(parse_json(case["input_json"]))
        except ValueError:
            canonical = None
        if case["result"] == "invalid":
            return "" if canonical is None else f"canonicalized {case['input_json']!r} that has no JCS form"
        if canonical != case["canonical"]:
            return f"JCS {canonical!r}, expected {case['canonical']!r}"
        if canonical.encode("utf-8").hex() != case["canonical_utf8_hex"]:
            return "UTF-8 bytes differ"
        return ""
    if kind == "signature":
        message = case["message"]
        rest = {k: v for k, v in message.items() if k != "signature"}
        if jcs(rest) != case["signing_input"]:
            return "signing input differs"
        verdict = "valid" if verify_message(message, case["public_key"]) else "invalid"
        return "" if verdict == case["result"] else f"signature {verdict}, expected {case['result']}"
    if kind == "chain":
        digests = chain_digests(case["seed"], case["renewal_chain"])
        if case["result"] == "valid":
            return "" if digests == case["digests"] else f"digests {digests}, expected {case['digests']}"
        return "" if digests[-1] != case["chain_digest"] else "the wrongly computed digest matches"
    if kind == "jwk-thumbprint":
        kid = thumbprint(case["public_key"])
        return "" if kid == case["kid"] else f"kid {kid}, expected {case['kid']}"
    return f"unknown kind {kind}"


def check_uri(case) -> str:
    decoded, findings = decode_uri(case["uri"])
    verdict = "invalid" if any(s == "error" for _, s in findings) else "valid"
    if case["result"] == "acceptable":
        if verdict not in case["outcomes"]:
            return f"verdict {verdict} not among {case['outcomes']}"
    elif verdict != case["result"]:
        return f"verdict {verdict}, expected {case['result']} ({findings})"
    expected = [(f["requirement"], f["severity"]) for f in case["findings"]]
    if findings != expected:
        return f"findings {findings}, expected {expected}"
    if decoded != case.get("decoded"):
        return f"decoded {decoded}, expected {case.get('decoded')}"
    return ""


def main(argv) -> int:
    folder = Path(argv[1]) if len(argv) > 1 else Path(__file__).resolve().parent.parent.parent / "vectors"
    passed = failed = 0
    found = 0
    for name, check in (("crypto.json", check_crypto), ("uris.json", check_uri)):
        if not (folder / name).is_file():
            print(f"{folder / name}: not there, skipped")
            continue
        found += 1
        try:
            with open(folder / name, encoding="utf-8") as handle:
                vectors = json.load(handle)
        except (OSError, ValueError) as err:
            print(f"{folder / name}: cannot read the vectors ({err})")
            return 1
        for case in vectors["cases"]:
            problem = check(case)
            if problem:
                failed += 1
                print(f"FAIL {vectors['group']} {case['id']}: {problem}")
            else:
                passed += 1
    if found == 0:
        print(f"{folder}: holds neither crypto.json nor uris.json; pass the vectors folder as the argument")
        return 1
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
