// Retrieval of a reference URI's CPR (spec 4.1, 5.4; profile section 3):
// HTTPS only, certificate chain to a trusted CA, host name or IP address and
// validity period checked, GET at exactly {endpoint}/cpr/{token}, redirects
// followed only to https URLs validated the same way.

import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import tls from 'node:tls';

const MAX_REDIRECTS = 3;
const MAX_BODY = 1024 * 1024;
const TIMEOUT_MS = 5000;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

class RetrievalError extends Error {}

/** Split an endpoint URL into parts without normalising its path. */
function splitEndpoint(endpoint, fault) {
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)([^?#]*)(\?[^#]*)?(#.*)?$/.exec(endpoint);
  if (!m) throw new RetrievalError('the endpoint is not an absolute URL');
  const scheme = m[1].toLowerCase();
  let url;
  try {
    url = new URL(endpoint);
  } catch {
    throw new RetrievalError('the endpoint is not a valid URL');
  }
  const localHttp =
    fault === 'wallet-http-endpoint-allowed' &&
    scheme === 'http' &&
    ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  if (scheme !== 'https' && !localHttp)
    throw new RetrievalError('the endpoint is not an https URL; no token is sent');
  if (m[2].includes('@')) throw new RetrievalError('the endpoint carries user information');
  if (m[5] !== undefined) throw new RetrievalError('the endpoint carries a fragment');
  return { scheme, url, rawPath: m[3], rawQuery: m[4] ?? '' };
}

/** The retrieval target {endpoint}/cpr/{token}, path and port kept. */
export function retrievalTarget({ token, endpoint }, fault = null) {
  const { scheme, url, rawPath, rawQuery } = splitEndpoint(endpoint, fault);
  const suffix = `/cpr/${token}`;
  let path;
  if (fault === 'wallet-endpoint-path-dropped') path = suffix;
  else if (rawPath.endsWith(suffix) && fault !== 'wallet-endpoint-suffix-duplicated') path = rawPath;
  // Exactly {endpoint}/cpr/{token} (profile 3): the endpoint's path as written,
  // a trailing slash included (`https://host/p/` gives `/p//cpr/{token}`).
  else path = `${rawPath}${suffix}`;
  return {
    scheme,
    hostname: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port === '' ? (scheme === 'https' ? 443 : 80) : Number(url.port),
    path: `${path}${rawQuery}`,
  };
}

function targetFromUrl(url) {
  return {
    scheme: url.protocol.replace(/:$/, ''),
    hostname: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port),
    path: `${url.pathname}${url.search}`,
  };
}

const urlOf = (t) =>
  `${t.scheme}://${isIP(t.hostname) === 6 ? `[${t.hostname}]` : t.hostname}:${t.port}${t.path}`;

/** One GET; resolves `{ status, headers, body }`. */
function get(target, { trustPems, fault, hop }) {
  return new Promise((resolve, reject) => {
    const options = {
      host: target.hostname,
      port: target.port,
      path: target.path,
      method: 'GET',
      headers: { Accept: 'application/json' },
      agent: false,
      timeout: TIMEOUT_MS,
    };
    let client = https;
    if (target.scheme === 'http') client = http;
    else {
      options.ca = trustPems;
      options.rejectUnauthorized = true;
      if (fault === 'wallet-no-hostname-check') options.checkServerIdentity = () => undefined;
      if (fault === 'wallet-redirect-unverified' && hop > 0) options.rejectUnauthorized = false;
      if (fault === 'wallet-expired-cert-accepted') options.rejectUnauthorized = false;
    }
    const req = client.request(options, (res) => {
      const chunks = [];
      let size = 0;
      res.on('data', (c) => {
        size += c.length;
        if (size > MAX_BODY) req.destroy(new RetrievalError('the payee answer is over 1 MiB'));
        else chunks.push(c);
      });
      res.on('end', () =>
        resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    if (fault === 'wallet-expired-cert-accepted' && target.scheme === 'https') {
      // "Only the expiry is relaxed": the chain and host are still checked by hand.
      req.on('socket', (socket) => {
        socket.on('secureConnect', () => {
          const chainOk = socket.authorized || socket.authorizationError === 'CERT_HAS_EXPIRED';
          const hostErr = tls.checkServerIdentity(target.hostname, socket.getPeerCertificate());
          if (!chainOk || hostErr) req.destroy(new RetrievalError('the payee certificate is not trusted'));
        });
      });
    }
    req.on('timeout', () => req.destroy(new RetrievalError('the payee did not answer in time')));
    req.on('error', reject);
    req.end();
  });
}

/**
 * Retrieve the CPR behind a reference URI. Resolves `{ body }` (a Buffer) or
 * `{ error }` (why the retrieval was refused or failed).
 */
export async function retrieveCpr(ref, { trustPems, fault = null }) {
  try {
    let target = retrievalTarget(ref, fault);
    for (let hop = 0; hop <= MAX_REDIRECTS; hop += 1) {
      const res = await get(target, { trustPems, fault, hop });
      if (res.status === 200) return { body: res.body };
      if (!REDIRECTS.has(res.status)) return { error: `the payee answered HTTP ${res.status}` };
      const location = res.headers.location;
      if (!location) return { error: 'the payee redirected without a Location' };
      let next;
      try {
        next = new URL(location, urlOf(target));
      } catch {
        return { error: 'the payee redirected to an invalid URL' };
      }
      const httpAllowed = fault === 'wallet-redirect-to-http' && next.protocol === 'http:';
      if (next.protocol !== 'https:' && !httpAllowed)
        return { error: 'the payee redirected to a URL that is not https; the token is not sent there' };
      target = targetFromUrl(next);
    }
    return { error: 'too many redirects' };
  } catch (err) {
    const reason =
      err instanceof RetrievalError ? err.message : `retrieval failed (${err.code ?? err.message})`;
    return { error: reason };
  }
}
