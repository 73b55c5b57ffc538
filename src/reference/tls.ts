// Temporary forwarder while the target helpers still edit src/reference/ and test/broken/: the
// loopback PKI lives in src/loopback/tls.ts. Removed once their importers point there.
export * from '../loopback/tls.js';
