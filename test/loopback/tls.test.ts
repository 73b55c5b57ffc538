import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCertificateAuthority,
  createLoopbackPki,
  issueServerCertificate,
  type LoopbackPki,
  writeCaFile,
} from '../../src/loopback/tls.js';

describe('loopback TLS (spec 5 rules 4-5: TLS only)', () => {
  let pki: LoopbackPki;
  let server: Server;
  let port: number;

  beforeAll(async () => {
    pki = await createLoopbackPki();
    server = createServer({ cert: pki.server.certPem, key: pki.server.keyPem }, (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('an undici Agent trusting the CA reaches the server by IP and by name', async () => {
    const agent = new Agent({ connect: { ca: pki.ca.certPem } });
    try {
      for (const host of ['127.0.0.1', 'localhost']) {
        const res = await request(`https://${host}:${port}/`, { dispatcher: agent });
        expect(res.statusCode).toBe(200);
        expect(await res.body.text()).toBe('ok');
      }
    } finally {
      await agent.close();
    }
  });

  it('a client without the CA refuses the certificate', async () => {
    const agent = new Agent();
    try {
      await expect(request(`https://127.0.0.1:${port}/`, { dispatcher: agent })).rejects.toThrow(
        /self[- ]signed|unable to (get|verify)|certificate/i,
      );
    } finally {
      await agent.close();
    }
  });

  it('a client trusting another CA refuses the certificate', async () => {
    const other = await createCertificateAuthority({ commonName: 'someone else' });
    const agent = new Agent({ connect: { ca: other.certPem } });
    try {
      await expect(request(`https://127.0.0.1:${port}/`, { dispatcher: agent })).rejects.toThrow();
    } finally {
      await agent.close();
    }
  });

  it('the server certificate names every loopback host and serverAuth, and is signed by the CA', () => {
    const cert = new X509Certificate(pki.server.certPem);
    const ca = new X509Certificate(pki.ca.certPem);
    expect(cert.checkIssued(ca)).toBe(true);
    expect(cert.verify(ca.publicKey)).toBe(true);
    expect(cert.subjectAltName).toContain('DNS:localhost');
    expect(cert.subjectAltName).toContain('IP Address:127.0.0.1');
    expect(cert.subjectAltName).toMatch(/IP Address:(0:0:0:0:0:0:0:1|::1)/i);
    expect(cert.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(cert.checkHost('localhost')).toBe('localhost');
    expect(cert.keyUsage ?? []).toContain('1.3.6.1.5.5.7.3.1');
    expect(cert.ca).toBe(false);
    expect(ca.ca).toBe(true);
    // Short validity: at most a day and a bit of backdating.
    const lifetimeMs = Date.parse(cert.validTo) - Date.parse(cert.validFrom);
    expect(lifetimeMs).toBeLessThanOrEqual(24 * 3600 * 1000 + 10 * 60 * 1000);
  });

  it('issues with an Ed25519 or RSA CA handed in from outside', async () => {
    const { generateKeyPairSync } = await import('node:crypto');
    const ours = await createCertificateAuthority();
    for (const type of ['ed25519', 'rsa'] as const) {
      const kp =
        type === 'rsa' ? generateKeyPairSync('rsa', { modulusLength: 2048 }) : generateKeyPairSync('ed25519');
      // A CA cert whose key is `kp` is not needed to test the signing path: check the signature
      // algorithm is accepted and the leaf verifies against that key.
      const leaf = await issueServerCertificate({
        certPem: ours.certPem,
        keyPem: kp.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
      });
      expect(new X509Certificate(leaf.certPem).verify(kp.publicKey)).toBe(true);
    }
  });

  it('rejects unreadable CA material with a clear error that does not quote the key', async () => {
    const ca = await createCertificateAuthority();
    await expect(issueServerCertificate({ certPem: 'nope', keyPem: ca.keyPem })).rejects.toThrow(
      /CA certificate is not a readable PEM/,
    );
    const err = await issueServerCertificate({ certPem: ca.certPem, keyPem: 'secret-material' }).catch(
      (e: Error) => e,
    );
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/CA private key is not a readable PEM/);
    expect((err as Error).message).not.toContain('secret-material');
    await expect(issueServerCertificate(ca, { hosts: [] })).rejects.toThrow(/hosts must list/);
  });

  it('issues for an explicit validity window (a certificate wholly past or future), and refuses an empty one', async () => {
    const day = 86_400_000;
    const now = Date.now();
    const past = await issueServerCertificate(pki.ca, {
      window: { notBefore: new Date(now - 3 * day), notAfter: new Date(now - day) },
    });
    const cert = new X509Certificate(past.certPem);
    expect(new Date(cert.validTo).getTime()).toBeLessThan(now);
    expect(new Date(cert.validFrom).getTime()).toBeLessThan(new Date(cert.validTo).getTime());
    await expect(
      issueServerCertificate(pki.ca, { window: { notBefore: new Date(now), notAfter: new Date(now) } }),
    ).rejects.toThrow(/notBefore must be an instant before window.notAfter/);
  });

  it('writeCaFile writes the certificate only', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cprc-tls-'));
    try {
      const file = join(dir, 'ca.pem');
      await writeCaFile(file, pki.ca);
      const text = await readFile(file, 'utf8');
      expect(text).toBe(pki.ca.certPem);
      expect(text).not.toContain('PRIVATE KEY');
      await expect(writeCaFile(join(dir, 'missing', 'ca.pem'), pki.ca)).rejects.toThrow(/cannot write/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
