// Certificates for a run, made with the openssl command line (EC P-256):
// - the stack's own CA and one server certificate (SAN 127.0.0.1, localhost)
//   that every foreign server presents;
// - the "suite CA" of profile section 5, which the wallet trusts and with
//   which a conformance suite signs the certificates of its mock payees.

import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const OPENSSL = '/usr/bin/openssl';
const EC = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

async function makeCa(dir, base, commonName) {
  const keyFile = join(dir, `${base}.key`);
  const certFile = join(dir, `${base}.pem`);
  await run(OPENSSL, [
    'req',
    '-x509',
    ...EC,
    '-keyout',
    keyFile,
    '-out',
    certFile,
    '-days',
    '30',
    '-subj',
    `/CN=${commonName}`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  return { keyFile, certFile };
}

async function makeServerCert(dir, ca) {
  const keyFile = join(dir, 'server.key');
  const certFile = join(dir, 'server.pem');
  await run(OPENSSL, [
    'req',
    '-x509',
    ...EC,
    '-CA',
    ca.certFile,
    '-CAkey',
    ca.keyFile,
    '-keyout',
    keyFile,
    '-out',
    certFile,
    '-days',
    '30',
    '-subj',
    '/CN=localhost',
    '-addext',
    'subjectAltName=IP:127.0.0.1,DNS:localhost',
    '-addext',
    'basicConstraints=critical,CA:FALSE',
    '-addext',
    'keyUsage=critical,digitalSignature',
    '-addext',
    'extendedKeyUsage=serverAuth',
  ]);
  return { keyFile, certFile };
}

/** Create every certificate of a run in `dir`; returns file names and PEM texts. */
export async function makeRunCertificates(dir) {
  const [ownCa, suiteCa] = await Promise.all([
    makeCa(dir, 'foreign-ca', 'Foreign Stack Test CA'),
    makeCa(dir, 'suite-ca', 'Wallet-Trusted Suite CA'),
  ]);
  const server = await makeServerCert(dir, ownCa);
  const [key, cert] = await Promise.all([
    readFile(server.keyFile, 'utf8'),
    readFile(server.certFile, 'utf8'),
  ]);
  return { ownCa, suiteCa, server: { ...server, key, cert } };
}
