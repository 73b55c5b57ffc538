// Helpers for the self-checks: an HTTPS client that trusts the run's CA, the
// wallet's stdio command, mock payees with suite-CA certificates, Operator
// message signing, and a reader of this stack's QR PNGs.

import { execFile, spawn } from 'node:child_process';
import { createHash, createPrivateKey, generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { inflateSync } from 'node:zlib';
import { b64urlEncode } from './lib/codec.mjs';
import { canonicalBytes } from './lib/json.mjs';

const run = promisify(execFile);

/** HTTP(S) request; resolves { status, headers, text, json }. */
export function call(url, { method = 'GET', body, headers = {}, ca, raw } = {}) {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const client = u.protocol === 'https:' ? https : http;
    const payload = raw ?? (body === undefined ? undefined : JSON.stringify(body));
    const req = client.request(
      {
        host: u.hostname,
        port: u.port,
        path: `${u.pathname}${u.search}`,
        method,
        headers: { ...(payload !== undefined ? { 'Content-Type': 'application/json' } : {}), ...headers },
        ca,
        agent: false,
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode, headers: res.headers, text, json });
        });
      },
    );
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

/** Run the wallet command with some request lines; resolves the parsed answer lines. */
export function stdio(command, lines) {
  return new Promise((resolve, reject) => {
    const child = spawn(command[0], command.slice(1), { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => {
      out += c;
    });
    child.stderr.on('data', (c) => {
      err += c;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`wallet command exited ${code}: ${err}`));
      else
        resolve(
          out
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l)),
        );
    });
    child.stdin.end(lines.map((l) => `${typeof l === 'string' ? l : JSON.stringify(l)}\n`).join(''));
  });
}

// ---------------------------------------------------------------------------
// Certificates signed by the suite CA, for mock payees.

const CA_CNF = `[ca]
default_ca = d
[d]
database = index.txt
new_certs_dir = .
default_md = sha256
policy = p
serial = serial
copy_extensions = copy
unique_subject = no
[p]
commonName = supplied
`;

/** Issue a certificate from the suite CA: { san, startdate?, enddate? } -> { key, cert }. */
export async function suiteCert(config, name, { san, startdate = null, enddate = null }) {
  const dir = join(config.tls.suite_ca_cert_file, '..', `mock-${name}`);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'index.txt'), '');
  await writeFile(join(dir, 'serial'), `${Date.now().toString(16).padStart(16, '0')}\n`);
  await writeFile(join(dir, 'ca.cnf'), CA_CNF);
  const o = { cwd: dir };
  await run(
    '/usr/bin/openssl',
    [
      'req',
      '-new',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      'key.pem',
      '-out',
      'req.csr',
      '-subj',
      `/CN=${name}`,
      '-addext',
      `subjectAltName=${san}`,
    ],
    o,
  );
  const dates = startdate ? ['-startdate', startdate, '-enddate', enddate] : ['-days', '2'];
  await run(
    '/usr/bin/openssl',
    [
      'ca',
      '-batch',
      '-config',
      'ca.cnf',
      '-cert',
      config.tls.suite_ca_cert_file,
      '-keyfile',
      config.tls.suite_ca_key_file,
      '-in',
      'req.csr',
      '-out',
      'cert.pem',
      '-notext',
      ...dates,
    ],
    o,
  );
  return {
    key: await readFile(join(dir, 'key.pem'), 'utf8'),
    cert: await readFile(join(dir, 'cert.pem'), 'utf8'),
  };
}

/** A mock payee; handler(req) -> { status, headers?, body? }. Records the paths it saw. */
export async function mockServer({ tls = null, handler }) {
  const seen = [];
  const onRequest = async (req, res) => {
    seen.push({ method: req.method, path: req.url });
    const a = await handler(req);
    const text = a.body === undefined ? '' : typeof a.body === 'string' ? a.body : JSON.stringify(a.body);
    res.writeHead(a.status, { 'Content-Type': 'application/json', ...(a.headers ?? {}) });
    res.end(text);
  };
  const server = tls ? https.createServer(tls, onRequest) : http.createServer(onRequest);
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address();
  return {
    port,
    origin: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

// ---------------------------------------------------------------------------
// Operator messages.

export const sha256Hex = (b) => createHash('sha256').update(b).digest('hex');

export function signWith(privateKey, obj) {
  return { ...obj, signature: b64urlEncode(sign(null, canonicalBytes(obj), privateKey)) };
}

export const principalKey = (jwk) => createPrivateKey({ key: jwk, format: 'jwk' });

export function bearerKeys() {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const raw = publicKey.export({ format: 'jwk' }).x;
  return { privateKey, pk: raw };
}

export const iso = (msFromNow, base = Date.now()) => new Date(base + msFromNow).toISOString();

export function lockRequest(
  principal,
  { amount = '1000', asset = { type: 'fiat', code: 'EUR' }, bearer, expiresIn = 3600_000, ...over } = {},
) {
  const body = {
    request_id: randomUUID(),
    principal_id: principal.principal_id,
    amount,
    asset,
    initial_bearer_pk: bearer.pk,
    expires_at: iso(expiresIn),
    created_at: iso(0),
    ...over,
  };
  return signWith(principalKey(principal.private_key_jwk), body);
}

export function renewalEntry(pack, from, to, over = {}) {
  return signWith(from.privateKey, {
    renewal_id: randomUUID(),
    pack_id: pack.pack_id,
    prev_chain_digest: pack.chain_digest,
    bearer_pk: from.pk,
    new_bearer_pk: to.pk,
    created_at: iso(0),
    ...over,
  });
}

export function redemptionRequest(pack, bearer, identityToken, over = {}) {
  const body = {
    redemption_id: randomUUID(),
    pack_id: pack.pack_id,
    prev_chain_digest: pack.chain_digest,
    bearer_pk: bearer.pk,
    destination: { type: 'account', reference: 'DE02500105170137075030' },
    redeemer: { identity_token: identityToken },
    created_at: iso(0),
    ...over,
  };
  if (identityToken === null) delete body.redeemer;
  return signWith(bearer.privateKey, body);
}

// ---------------------------------------------------------------------------
// QR: read back this stack's PNG (scale 4, quiet zone 4) and its format information.

export function readQrPng(png) {
  let off = 8;
  let width = 0;
  const idat = [];
  while (off < png.length) {
    const len = png.readUInt32BE(off);
    const type = png.toString('latin1', off + 4, off + 8);
    const data = png.subarray(off + 8, off + 8 + len);
    if (type === 'IHDR') width = data.readUInt32BE(0);
    if (type === 'IDAT') idat.push(data);
    off += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const rowBytes = Math.ceil(width / 8) + 1;
  const px = (x, y) => ((raw[y * rowBytes + 1 + (x >> 3)] >> (7 - (x & 7))) & 1) === 0; // dark
  const size = width / 4 - 8;
  const mod = (mx, my) => px((mx + 4) * 4 + 1, (my + 4) * 4 + 1);
  let bits = 0;
  // Format bits 14..9 at (0..5, 8), bit 8 at (7,8)... read the copy beside the top-left finder.
  const positions = [];
  for (let i = 0; i <= 5; i += 1) positions.push([8, i]);
  positions.push([8, 7], [8, 8], [7, 8]);
  for (let i = 9; i < 15; i += 1) positions.push([14 - i, 8]);
  positions.forEach(([x, y], i) => {
    if (mod(x, y)) bits |= 1 << i;
  });
  const data = (bits ^ 0x5412) >>> 10;
  const ec = ['M', 'L', 'H', 'Q'][data >>> 3];
  return { size, version: (size - 17) / 4, ec, mask: data & 7 };
}
