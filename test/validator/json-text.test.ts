import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  chainKey,
  isPayerDataName,
  isValidUnderEveryRule,
  scanJsonText,
  validateCpr,
  validateCprBytes,
  validateCprText,
} from '../../src/validator/index.js';

const FIXTURES = join(import.meta.dirname, 'fixtures');
const NOW = new Date('2026-06-01T12:00:00Z');
const text = (name: string): string => readFileSync(join(FIXTURES, `${name}.json`), 'utf8');

describe('scanJsonText (duplicate member names, byte order mark)', () => {
  it('finds a repeated name per object, with its pointer, and only there', () => {
    const scan = scanJsonText('{"a":1,"b":{"a":2,"c":[{"x":1,"x":2}]},"a":3,"s":"\\"a\\":","d":{"a":1}}');
    expect(scan.bom).toBe(false);
    expect(scan.duplicates).toEqual([
      { path: '/b/c/0/x', name: 'x' },
      { path: '/a', name: 'a' },
    ]);
  });

  it('decodes escaped names before comparing them ("a" and "\\u0061" are the same name)', () => {
    expect(scanJsonText('{"a":1,"\\u0061":2}').duplicates).toEqual([{ path: '/a', name: 'a' }]);
    expect(scanJsonText('{"a/b":1,"a~b":2,"a/b":3}').duplicates).toEqual([{ path: '/a~1b', name: 'a/b' }]);
  });

  it('reports the byte order mark', () => {
    expect(scanJsonText('\uFEFF{}').bom).toBe(true);
  });

  it('walks 200,000 levels of nesting without recursion', () => {
    const depth = 200_000;
    const deep = `${'{"k":'.repeat(depth)}{"z":1,"z":2}${'}'.repeat(depth)}`;
    const scan = scanJsonText(deep);
    expect(scan.duplicates).toHaveLength(1);
    expect(scan.duplicates[0]?.path.split('/').length).toBe(depth + 2);
  });
});

describe('validateCprText / validateCprBytes', () => {
  it('gives the same verdict as validateCpr for clean text, plus text findings for BOM and duplicates', () => {
    const clean = text('sepa-ct-ok');
    expect(validateCprText(clean, { mode: 'payee', now: NOW })).toEqual(
      validateCpr(JSON.parse(clean), { mode: 'payee', now: NOW }),
    );
    const bom = validateCprText(text('json-text-bom-fail'), { mode: 'payee', now: NOW });
    expect(bom.valid).toBe(false);
    expect(bom.findings.map((f) => f.requirement)).toEqual(['PRF-1-JSON-NO-BOM']);
    expect(validateCprText(text('json-text-bom-fail'), { mode: 'wallet', now: NOW }).findings).toEqual([]);
    const dup = validateCprText(text('json-text-duplicate-nested-fail'), { mode: 'wallet', now: NOW });
    expect(dup.valid).toBe(true);
    expect(dup.findings).toEqual([
      expect.objectContaining({
        requirement: 'PRF-1-READER-REFUSES-DUPLICATES',
        severity: 'warning',
        path: '/payee/rail_address/iban',
        message: expect.stringContaining('422 INVALID_STRUCTURE'),
      }),
    ]);
  });

  it('NUL bytes are "not json text (nul bytes)"; invalid UTF-8 is "not utf-8 text"', () => {
    expect(validateCprBytes(new Uint8Array(64)).findings).toEqual([
      expect.objectContaining({
        requirement: 'PRF-1-JSON-UTF8',
        message: 'the document is not json text (nul bytes)',
      }),
    ]);
    expect(validateCprBytes(Uint8Array.from([0x7b, 0xff, 0x7d])).findings[0]?.message).toBe(
      'the document is not utf-8 text',
    );
  });
});

describe('no payer data at any depth (iterative walk)', () => {
  it('finds a payer member 50,000 levels down, with its pointer', () => {
    let node: Record<string, unknown> = { payer_name: 'Alice' };
    for (let i = 0; i < 50_000; i++) node = { n: node };
    const doc = { ...JSON.parse(text('sepa-ct-ok')), extensions: { 'com.example:deep': node } };
    const r = validateCpr(doc, { now: NOW });
    const hit = r.findings.find((f) => f.requirement === 'CPR-INV-1-NO-PAYER-DATA');
    expect(hit?.path.endsWith('/n/payer_name')).toBe(true);
    expect(hit?.path.split('/').length).toBe(50_000 + 4);
  });

  it('recognises every name of profile section 2, case- and separator-insensitive, after a namespace prefix', () => {
    const anyDepth = [
      'payer',
      'Payer-Email',
      'payer_id',
      'com.example:payerId',
      'debtor',
      'DebtorAccount',
      'authorization',
      'signed_tx',
      'signedTx',
      'RAW-TX',
      'permit',
      'foundation:Permit',
      'mandate',
      'mandate_reference',
      'execution_date',
      'executionDate',
      'state',
      'STATUS',
      'settlement',
      'settlement_date',
      'org.acme.settlementRef',
    ];
    for (const name of anyDepth) {
      expect(isPayerDataName(name, false), name).toBe(true);
      expect(isPayerDataName(name, true), name).toBe(true);
    }
    for (const name of ['signature', 'request', 'rail', 'com.example:Signature']) {
      expect(isPayerDataName(name, true), name).toBe(true);
      expect(isPayerDataName(name, false), name).toBe(false);
    }
    for (const name of [
      'payee',
      'beneficiary_name',
      'txid',
      'end_to_end_id',
      'rail_hint',
      'rail_address',
      'request_id',
      'statement',
      'estate',
    ]) {
      expect(isPayerDataName(name, true), name).toBe(false);
    }
  });
});

describe('chain identifiers', () => {
  it('maps eip155:N, 0x-hex and decimal to one key; other strings stay themselves', () => {
    expect(chainKey('8453')).toBe('8453');
    expect(chainKey('eip155:8453')).toBe('8453');
    expect(chainKey('0x2105')).toBe('8453');
    expect(chainKey('0X2105')).toBe('8453');
    expect(chainKey('008453')).toBe('8453');
    expect(chainKey('solana:mainnet')).toBe('solana:mainnet');
    expect(chainKey('')).toBeNull();
    expect(chainKey(8453)).toBeNull();
  });
});

describe('isValidUnderEveryRule', () => {
  it('is true only with no error and no warning in both readings', () => {
    expect(isValidUnderEveryRule(JSON.parse(text('sepa-ct-ok')), { now: NOW })).toBe(true);
    // a warning only (lower-case EVM address), an error in the payee reading only, a wallet warning only
    expect(isValidUnderEveryRule(JSON.parse(text('receiver-address-lowercase-ok')), { now: NOW })).toBe(
      false,
    );
    expect(isValidUnderEveryRule(JSON.parse(text('payee-display-name-empty-fail')), { now: NOW })).toBe(
      false,
    );
    expect(isValidUnderEveryRule(JSON.parse(text('chain-id-asset-disagrees-fail')), { now: NOW })).toBe(
      false,
    );
    expect(isValidUnderEveryRule(JSON.parse(text('purpose-code-unlisted-ok')), { now: NOW })).toBe(false);
    expect(isValidUnderEveryRule('not a document')).toBe(false);
  });
});
