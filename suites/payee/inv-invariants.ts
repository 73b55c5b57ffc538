/**
 * Payee suite, CPR-1.0 "Invariants and conformance rules" 1 and 8: no payer data in any CPR the
 * payee emits, in any delivery form. (INV-3 and the rest of INV-8 are graded with the sections
 * they restate: request_id in 2.1, expires_at in 2.1, TLS in 5.)
 */
import { validateCpr } from '../../src/validator/index.js';
import { assertThat, check } from '../_lib/index.js';
import { corpusDocuments, label } from './_support/index.js';

describe('CPR-1.0 invariants 1 and 8: no payer data', () => {
  check(
    'cpr-contains-field-identifies-references-assumes-payer',
    ['CPR-INV-8-NO-PAYER-DATA', 'CPR-INV-1-NO-PAYER-DATA'],
    'a CPR contains no field that identifies, references or assumes a payer, in every rail and delivery form',
    async () => {
      const docs = await corpusDocuments();
      const found: string[] = [];
      for (const e of docs) {
        // The validator's no-payer-data rule (AMB-22): payer vocabulary at any depth, extensions too.
        const r = validateCpr(e.cpr, { mode: 'payee' });
        for (const f of r.findings.filter((x) => x.requirement === 'CPR-INV-1-NO-PAYER-DATA'))
          found.push(`${label(e)}: ${f.path}: ${f.message}`);
      }
      assertThat(
        found.length === 0,
        `no CPR carries payer data; ${found.length} finding(s): ${found.slice(0, 3).join(' | ')}`,
      );
    },
  );
});
