/**
 * Loopback PKI for the reference implementations, the mock payee and the tests: a throwaway
 * certificate authority and server certificates for `127.0.0.1`, `localhost` and `::1`.
 *
 * Spec 5 rules 4-5 (tokens and CPR payloads only over TLS) make HTTPS mandatory even on
 * loopback, so every reference server and every test speaks real TLS with these certificates.
 *
 * @packageDocumentation
 */
import 'reflect-metadata';
import { createPrivateKey, type KeyObject, randomBytes, webcrypto } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import * as x509 from '@peculiar/x509';
import { CprcError } from '../errors.js';

type WebCryptoKey = webcrypto.CryptoKey;
type WebCryptoKeyPair = webcrypto.CryptoKeyPair;

// @peculiar/x509 takes a DOM `Crypto`; Node's webcrypto implements it.
x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

/** A certificate authority: its self-signed certificate and PKCS#8 private key, both PEM. */
export interface CertificateAuthority {
  /** The CA certificate (PEM). Hand this to clients as their trust anchor. */
  certPem: string;
  /** The CA private key (PKCS#8 PEM). A secret: never log it. */
  keyPem: string;
}

/** A leaf certificate and its private key, ready for `https.createServer({ cert, key })`. */
export interface ServerCertificate {
  /** The server certificate (PEM). */
  certPem: string;
  /** The server private key (PKCS#8 PEM). A secret: never log it. */
  keyPem: string;
}

/** Options of {@link createCertificateAuthority}. */
export interface CertificateAuthorityOptions {
  /** Common name of the CA. Default `cpr-conformance loopback CA`. */
  commonName?: string;
  /** Validity in seconds from now. Default one day. */
  validitySeconds?: number;
}

/** Options of {@link issueServerCertificate}. */
export interface ServerCertificateOptions {
  /** DNS names and IP addresses (v4 or v6) to put in the subjectAltName. Default loopback names. */
  hosts?: string[];
  /** Validity in seconds from now. Default one day. */
  validitySeconds?: number;
  /**
   * An explicit validity window instead of `validitySeconds` (both ends required), e.g. one wholly
   * in the past or the future for a certificate a client must refuse as expired or not yet valid.
   */
  window?: { notBefore: Date; notAfter: Date };
}

/** A CA and a loopback server certificate it signed. */
export interface LoopbackPki {
  /** The trust anchor. */
  ca: CertificateAuthority;
  /** A certificate for 127.0.0.1, localhost and ::1, signed by `ca`. */
  server: ServerCertificate;
}

/** The hosts a loopback server certificate names. */
export const LOOPBACK_HOSTS: readonly string[] = ['127.0.0.1', 'localhost', '::1'];

const DEFAULT_VALIDITY_SECONDS = 24 * 60 * 60;
/** Backdate notBefore a little so clock skew between processes never makes a fresh cert invalid. */
const BACKDATE_MS = 5 * 60 * 1000;

const EC_P256: webcrypto.EcKeyGenParams = { name: 'ECDSA', namedCurve: 'P-256' };
const ECDSA_SHA256: webcrypto.EcdsaParams = { name: 'ECDSA', hash: 'SHA-256' };

function validityWindow(validitySeconds: number | undefined): { notBefore: Date; notAfter: Date } {
  const seconds = validitySeconds ?? DEFAULT_VALIDITY_SECONDS;
  if (!Number.isInteger(seconds) || seconds <= 0) {
    throw new CprcError('CPRC_USAGE', `validitySeconds must be a positive integer, got ${String(seconds)}`);
  }
  const now = Date.now();
  return { notBefore: new Date(now - BACKDATE_MS), notAfter: new Date(now + seconds * 1000) };
}

/** A positive random serial number (hex), 16 bytes with the top bit cleared. */
function randomSerial(): string {
  const bytes = randomBytes(16);
  bytes[0] = ((bytes[0] ?? 0) & 0x7f) | 0x01;
  return bytes.toString('hex');
}

async function exportKeyPem(key: WebCryptoKey): Promise<string> {
  const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', key);
  return x509.PemConverter.encode(pkcs8, 'PRIVATE KEY');
}

/** The WebCrypto import and signing algorithms for a CA private key of any type Node TLS accepts. */
function signingAlgorithmsFor(key: KeyObject): {
  importAlg: webcrypto.RsaHashedImportParams | webcrypto.EcKeyImportParams | webcrypto.Algorithm;
  signAlg: webcrypto.Algorithm | webcrypto.EcdsaParams;
} {
  const type = key.asymmetricKeyType;
  if (type === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    const named = curve === 'prime256v1' ? 'P-256' : curve === 'secp384r1' ? 'P-384' : undefined;
    if (named === undefined) {
      throw new CprcError(
        'CPRC_INPUT_INVALID',
        `CA private key uses the unsupported EC curve ${String(curve)}; use P-256 or P-384`,
      );
    }
    return {
      importAlg: { name: 'ECDSA', namedCurve: named },
      signAlg: { name: 'ECDSA', hash: named === 'P-256' ? 'SHA-256' : 'SHA-384' },
    };
  }
  if (type === 'ed25519') return { importAlg: { name: 'Ed25519' }, signAlg: { name: 'Ed25519' } };
  if (type === 'rsa') {
    const alg = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
    return { importAlg: alg, signAlg: alg };
  }
  throw new CprcError(
    'CPRC_INPUT_INVALID',
    `CA private key has the unsupported type ${String(type)}; use an EC (P-256/P-384), Ed25519 or RSA key`,
  );
}

/**
 * Creates a throwaway certificate authority (ECDSA P-256, self-signed, CA:TRUE, keyCertSign).
 *
 * @example
 * ```ts
 * const ca = await createCertificateAuthority({ commonName: 'my test CA' });
 * const agent = new Agent({ connect: { ca: ca.certPem } });
 * ```
 */
export async function createCertificateAuthority(
  opts: CertificateAuthorityOptions = {},
): Promise<CertificateAuthority> {
  const commonName = opts.commonName ?? 'cpr-conformance loopback CA';
  const { notBefore, notAfter } = validityWindow(opts.validitySeconds);
  const keys = (await webcrypto.subtle.generateKey(EC_P256, true, ['sign', 'verify'])) as WebCryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomSerial(),
    name: `CN=${escapeRdnValue(commonName)}`,
    notBefore,
    notAfter,
    keys,
    signingAlgorithm: ECDSA_SHA256,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { certPem: cert.toString('pem'), keyPem: await exportKeyPem(keys.privateKey) };
}

/**
 * Issues a server certificate signed by `ca`: ECDSA P-256 key, subjectAltName with every host
 * (IP addresses as iPAddress entries, the rest as dNSName), serverAuth extended key usage.
 *
 * The CA key may be EC (P-256/P-384), Ed25519 or RSA, so a CA handed in by a run configuration
 * (`tls.suite_ca_cert_file`, profile section 3) works too.
 *
 * @throws CprcError `CPRC_INPUT_INVALID` when the CA PEM cannot be read or `hosts` is empty.
 * @example
 * ```ts
 * const server = await issueServerCertificate(ca, { hosts: ['127.0.0.1', 'localhost', '::1'] });
 * https.createServer({ cert: server.certPem, key: server.keyPem }, handler);
 * ```
 */
export async function issueServerCertificate(
  ca: CertificateAuthority,
  opts: ServerCertificateOptions = {},
): Promise<ServerCertificate> {
  const hosts = opts.hosts ?? [...LOOPBACK_HOSTS];
  if (hosts.length === 0 || hosts.some((h) => typeof h !== 'string' || h.length === 0)) {
    throw new CprcError(
      'CPRC_INPUT_INVALID',
      'hosts must list at least one non-empty DNS name or IP address',
    );
  }
  const { notBefore, notAfter } = opts.window ?? validityWindow(opts.validitySeconds);
  if (!(notBefore.getTime() < notAfter.getTime())) {
    throw new CprcError('CPRC_USAGE', 'window.notBefore must be an instant before window.notAfter');
  }

  let caCert: x509.X509Certificate;
  try {
    caCert = new x509.X509Certificate(ca.certPem);
  } catch (cause) {
    throw new CprcError('CPRC_INPUT_INVALID', 'CA certificate is not a readable PEM certificate', { cause });
  }
  let caKeyObject: KeyObject;
  try {
    caKeyObject = createPrivateKey(ca.keyPem);
  } catch (cause) {
    // The key is a secret: never quote it.
    throw new CprcError('CPRC_INPUT_INVALID', 'CA private key is not a readable PEM private key', { cause });
  }
  const { importAlg, signAlg } = signingAlgorithmsFor(caKeyObject);
  const caKeyDer = caKeyObject.export({ format: 'der', type: 'pkcs8' });
  const caSigningKey = await webcrypto.subtle.importKey('pkcs8', caKeyDer, importAlg, false, ['sign']);

  const keys = (await webcrypto.subtle.generateKey(EC_P256, true, ['sign', 'verify'])) as WebCryptoKeyPair;
  const sanEntries = hosts.map((h) => ({
    type: isIP(h) === 0 ? ('dns' as const) : ('ip' as const),
    value: h,
  }));
  const firstDns = hosts.find((h) => isIP(h) === 0) ?? hosts[0] ?? 'localhost';

  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: randomSerial(),
    subject: `CN=${escapeRdnValue(firstDns)}`,
    issuer: caCert.subjectName,
    notBefore,
    notAfter,
    publicKey: keys.publicKey,
    signingKey: caSigningKey,
    signingAlgorithm: signAlg,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth], false),
      new x509.SubjectAlternativeNameExtension(sanEntries, false),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(caCert, false),
    ],
  });
  return { certPem: cert.toString('pem'), keyPem: await exportKeyPem(keys.privateKey) };
}

/**
 * Creates (or reuses) a CA and issues a loopback server certificate with it.
 *
 * @example
 * ```ts
 * const { ca, server } = await createLoopbackPki();
 * const payee = await startReferencePayee({ tls: server });
 * const agent = new Agent({ connect: { ca: ca.certPem } });
 * ```
 */
export async function createLoopbackPki(opts: { ca?: CertificateAuthority } = {}): Promise<LoopbackPki> {
  const ca = opts.ca ?? (await createCertificateAuthority());
  const server = await issueServerCertificate(ca, { hosts: [...LOOPBACK_HOSTS] });
  return { ca, server };
}

/**
 * Writes the CA certificate (never its key) to `path`, e.g. for a run config's `tls.ca_file`.
 *
 * @throws CprcError `CPRC_IO` when the file cannot be written.
 * @example
 * ```ts
 * await writeCaFile(join(dir, 'ca.pem'), ca);
 * ```
 */
export async function writeCaFile(path: string, ca: CertificateAuthority): Promise<void> {
  try {
    await writeFile(path, ca.certPem, { encoding: 'utf8', mode: 0o644 });
  } catch (cause) {
    throw new CprcError(
      'CPRC_IO',
      `cannot write the CA certificate to ${path}: ${(cause as Error).message}`,
      {
        cause,
      },
    );
  }
}

/** Escapes an RDN attribute value for a `CN=...` string (RFC 4514 section 2.4). */
function escapeRdnValue(value: string): string {
  return value.replace(/[,+"\\<>;=]/g, (c) => `\\${c}`).replace(/^[ #]|[ ]$/g, (c) => `\\${c}`);
}
