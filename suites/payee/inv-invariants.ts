/**
 * Payee suite, CPR-1.0 "Invariants and conformance rules" 1 and 8: no payer data in any CPR the
 * payee emits, in any delivery form. (INV-3 and the rest of INV-8 are graded with the sections
 * they restate: request_id in 2.1, expires_at in 2.1, TLS in 5.)
 */
import { nameReadings, validateCpr } from '../../src/validator/index.js';
import { assertThat, check, sharedState } from '../_lib/index.js';
import { corpusDocuments, corpusVerdicts, label } from './_support/index.js';

// These checks judge the payee's corpus of CPRs, built once per process (`cprc run --jobs` runs them
// in one process: suites/_lib sharedState).
sharedState('payee:corpus', [
  'cpr-holds-no-payer-authorization-or-state',
  'cpr-has-no-status-authorization-or-confirmation',
  'consumed-expired-no-field-cpr',
  'cpr-contains-field-identifies-references-assumes-payer',
  'derivation-context-never-inside-cpr',
]);

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

/** Every member of `v` at any depth: its name, and whether it sits at the top level. */
function membersOf(v: unknown, top = true, out: { name: string; top: boolean }[] = []) {
  if (Array.isArray(v)) for (const x of v) membersOf(x, false, out);
  else if (typeof v === 'object' && v !== null)
    for (const [name, x] of Object.entries(v)) {
      out.push({ name, top });
      membersOf(x, false, out);
    }
  return out;
}

/** Names (as profile 2 reads them) of a flag that a request was consumed, used or expired. */
const CONSUMPTION_READINGS: ReadonlySet<string> = new Set([
  'consumed',
  'consumedat',
  'isconsumed',
  'used',
  'usedat',
  'isused',
  'expired',
  'isexpired',
  'tokenconsumed',
  'tokenexpired',
]);

/** The members of the DerivationContext (spec 2.9), read at the top level of a CPR. */
const CONTEXT_READINGS: ReadonlySet<string> = new Set(['request', 'payer', 'rail', 'authorization']);

describe('CPR-1.0 sections 1, 2.9 and 3: a CPR holds no payer, authorization, state or context', () => {
  /** The validator's payer and separation findings over the corpus, as lines for a message. */
  async function findingLines(ids: readonly string[]): Promise<{ lines: string[]; of: number }> {
    const verdicts = await corpusVerdicts();
    const lines: string[] = [];
    for (const { entry, findings } of verdicts)
      for (const f of findings)
        if (ids.includes(f.requirement) && f.severity === 'error')
          lines.push(`${label(entry)}: ${f.path}: ${f.message}`);
    return { lines, of: verdicts.length };
  }

  check(
    'cpr-holds-no-payer-authorization-or-state',
    ['CPR-1-NO-PAYER-AUTH-STATE'],
    'a CPR is not a Payment: it holds no payer information, no authorization proof and no state (no member named after them, at any depth, in any rail and delivery form)',
    async () => {
      const { lines, of } = await findingLines(['CPR-INV-1-NO-PAYER-DATA', 'CPR-INV-6-SEPARATION']);
      assertThat(
        lines.length === 0,
        `no CPR holds payer, authorization or state data; ${lines.length} finding(s) over ${of} CPRs: ${lines.slice(0, 3).join(' | ')}`,
      );
    },
  );

  check(
    'cpr-has-no-status-authorization-or-confirmation',
    ['CPR-3-NO-STATE'],
    'a CPR has no state: no status, no authorization, no confirmation, no settlement (at any depth, in any rail and delivery form)',
    async () => {
      const { lines, of } = await findingLines(['CPR-INV-6-SEPARATION']);
      assertThat(
        lines.length === 0,
        `no CPR carries a status, authorization or confirmation; ${lines.length} finding(s) over ${of} CPRs: ${lines.slice(0, 3).join(' | ')}`,
      );
    },
  );

  check(
    'consumed-expired-no-field-cpr',
    ['CPR-3-CONSUMED-NOT-A-FIELD'],
    'consumed or expired is a convention of the payee system, not a field of the CPR: no member of any CPR is named consumed, used or expired (read as profile 2 reads names: consumed_at, isExpired, com.example:used...)',
    async () => {
      const docs = await corpusDocuments();
      const found: string[] = [];
      for (const e of docs)
        for (const { name } of membersOf(e.cpr))
          if (nameReadings(name).some((r) => CONSUMPTION_READINGS.has(r)))
            found.push(`${label(e)}: "${name}"`);
      assertThat(
        found.length === 0,
        `no CPR carries a consumed or expired flag; ${found.length} member(s): ${found.slice(0, 3).join(' | ')}`,
      );
    },
  );

  check(
    'derivation-context-never-inside-cpr',
    ['CPR-2.9-CONTEXT-NOT-IN-CPR'],
    'the DerivationContext is supplied by the paying application, never inside the CPR: no top-level request, payer, rail or authorization member, and no derivation or execution context at any depth',
    async () => {
      const docs = await corpusDocuments();
      const found: string[] = [];
      for (const e of docs)
        for (const { name, top } of membersOf(e.cpr)) {
          const readings = nameReadings(name);
          if (
            (top && readings.some((r) => CONTEXT_READINGS.has(r))) ||
            readings.some((r) => r === 'derivationcontext' || r === 'executioncontext')
          )
            found.push(`${label(e)}: "${name}"${top ? ' (top level)' : ''}`);
        }
      assertThat(
        found.length === 0,
        `no CPR carries a member of the DerivationContext; ${found.length} member(s): ${found.slice(0, 3).join(' | ')}`,
      );
    },
  );
});
