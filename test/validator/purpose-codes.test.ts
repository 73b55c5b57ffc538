import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ISO20022_PURPOSE_CODES } from '../../src/validator/index.js';

// The shipped ExternalPurpose1Code list (src/validator/data/iso20022-purpose-codes.ts) is data taken
// from the ISO 20022 external code sets: a code lost or mangled in an edit would turn a listed code
// into a warning. The digest pins the list as published; a new release changes it on purpose.
describe('ISO 20022 ExternalPurpose1Code list', () => {
  const codes = [...ISO20022_PURPOSE_CODES];

  it('holds the 329 published codes, each 4 upper-case letters or digits, sorted and unique', () => {
    expect(codes).toHaveLength(329);
    for (const code of codes) expect(code).toMatch(/^[A-Z0-9]{4}$/);
    expect(codes).toEqual([...codes].sort());
  });

  it('is the published list, unchanged (SHA-256 of the codes joined by a space)', () => {
    const digest = createHash('sha256').update(codes.join(' ')).digest('hex');
    expect(digest).toBe(EXPECTED_DIGEST);
  });
});

const EXPECTED_DIGEST = 'aab5cad969a5526789241edfdddfa1601cb987233caf300fd776036f14bcbac7';
