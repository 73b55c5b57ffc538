/**
 * Payee suite, profile section 2 (CPR delivery): the timestamps of every CPR the payee emits are
 * RFC 3339 with `Z`, in every rail and delivery form (the corpus of `_support/index.ts`). The
 * document checks grade the same members under the spec's "ISO 8601, UTC" (CPR-2.1-TIMESTAMPS-UTC)
 * and profile section 1 (PRF-1-TIMESTAMP-Z); this is section 2's own statement for the CPR.
 */
import { parseRfc3339 } from '../../src/validator/index.js';
import { assertThat, check, sharedState } from '../_lib/index.js';
import { corpusDocuments, label } from './_support/index.js';

// These checks judge the payee's corpus of CPRs, built once per process (`cprc run --jobs` runs them
// in one process: suites/_lib sharedState).
sharedState('payee:corpus', ['cpr-timestamps-rfc-3339-z']);

describe('profile section 2: the timestamps of the CPR', () => {
  check(
    'cpr-timestamps-rfc-3339-z',
    ['PRF-2-TIMESTAMPS-Z'],
    'created_at and expires_at of every CPR the payee emits are RFC 3339 with "Z", in every rail and delivery form',
    async () => {
      const docs = await corpusDocuments();
      const bad: string[] = [];
      for (const e of docs) {
        const doc = e.cpr as Record<string, unknown> | null;
        for (const name of ['created_at', 'expires_at']) {
          const v = typeof doc === 'object' && doc !== null ? doc[name] : undefined;
          if (v === undefined) continue; // a missing member is CPR-2.1-REQUIRED-FIELDS's finding
          if (typeof v !== 'string' || parseRfc3339(v) === null || !v.endsWith('Z'))
            bad.push(`${label(e)}: ${name} ${JSON.stringify(v) ?? 'absent'}`);
        }
      }
      assertThat(
        bad.length === 0,
        `every timestamp is RFC 3339 with "Z"; ${bad.length} of ${docs.length * 2} are not: ${bad.slice(0, 4).join(' | ')}`,
      );
    },
  );
});
