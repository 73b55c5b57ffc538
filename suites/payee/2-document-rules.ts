/**
 * Payee suite, CPR-1.0 section 2 with profile sections 1 and 2: every document rule the
 * validator applies, graded one requirement at a time on every CPR the payee emits (each rail,
 * each delivery form: the corpus of `_support/index.ts`, fetched once and validated once).
 *
 * The list is derived from the validator (`documentRequirementIds()`: its schema findings'
 * IDs and its rules' `requirements`), so a rule added there gets its check here.
 */
import { classify, requirementById } from '../../src/catalog/index.js';
import { assertThat, check, sharedState, warn } from '../_lib/index.js';
import { corpusVerdicts, DOCUMENT_RULE_IDS, label } from './_support/index.js';

describe('CPR-1.0 section 2: the document rules, on every CPR the payee emits', () => {
  for (const id of DOCUMENT_RULE_IDS) {
    // Error findings fail the check (a warning through the catalog when the requirement is a
    // SHOULD/MAY or a PROFILE choice). Warning findings of a SHOULD/MAY or PROFILE requirement
    // fail it the same way; warning findings of a SPEC MUST are the validator's reading of an
    // ambiguous rule (e.g. AMB-1) and end the check as a warning, never a failure.
    const warningsFail = classify([id]).state === 'warning';
    const text = requirementById(id)?.text ?? '';
    // judged on the payee's corpus of CPRs, built once per process (suites/_lib sharedState)
    sharedState('payee:corpus', [`payee-emits-satisfies-${id}`]);
    check(
      `payee-emits-satisfies-${id}`,
      [id],
      `every CPR the payee emits satisfies ${id}: ${text}`,
      async () => {
        const verdicts = await corpusVerdicts();
        const found: string[] = [];
        const doubtful: string[] = [];
        for (const { entry, findings } of verdicts) {
          for (const f of findings) {
            if (f.requirement !== id) continue;
            const line = `${label(entry)}: ${f.path || '(root)'}: ${f.message}${f.severity === 'warning' ? ' (warning)' : ''}`;
            if (f.severity === 'error' || warningsFail) found.push(line);
            else doubtful.push(line);
          }
        }
        assertThat(
          found.length === 0,
          `every CPR satisfies ${id}; ${found.length} finding(s) over ${verdicts.length} CPRs: ${found.slice(0, 5).join(' | ')}`,
        );
        if (doubtful.length > 0) {
          warn(
            `${doubtful.length} warning(s) over ${verdicts.length} CPRs: ${doubtful.slice(0, 5).join(' | ')}`,
          );
        }
      },
    );
  }
});
