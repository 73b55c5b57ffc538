/**
 * The warnings the clean foreign stack is allowed, each named with its reason: a SHOULD or MAY the
 * foreign author chose not to meet (a warning is never charged to a choice the contract allows,
 * so none may stand here for one). The clean run must show exactly these warnings, no failure and
 * no error (test/foreign-run/foreign.test.ts).
 */
import type { CheckState } from './run.js';

/** check id -> why the clean foreign stack warns there. */
export const EXPECTED_WARNINGS: Readonly<Record<string, string>> = {
  'payee/unprefixed-extension-key-refused-or-left-out':
    'spec 9 rule 5 (SHOULD): the foreign payee carries the extension keys a harness request asks for as given, "note" and "order.total" included, where a payee should use a reverse-domain prefix',
};

/**
 * A race the suite could not make tight on a loaded machine is reported as an inconclusive
 * warning: a fact about the run, not about the target, so it is named by its message.
 */
const INCONCLUSIVE_RACE = /^inconclusive race:/;

/** Whether a check's warning is an inconclusive race (see above). */
export function inconclusiveRace(c: CheckState): boolean {
  return c.state === 'warning' && INCONCLUSIVE_RACE.test(c.message);
}

/** Warnings of a run that EXPECTED_WARNINGS does not name: `id: message`. */
export function unexpectedWarnings(checks: readonly CheckState[]): string[] {
  return checks
    .filter(
      (c) => c.state === 'warning' && !(c.id in EXPECTED_WARNINGS) && !INCONCLUSIVE_RACE.test(c.message),
    )
    .map((c) => `${c.id}: ${c.message}`);
}

/** Named warnings that the run did not show (a stale entry): their check ids. */
export function staleWarnings(checks: readonly CheckState[]): string[] {
  const warned = new Set(checks.filter((c) => c.state === 'warning').map((c) => c.id));
  return Object.keys(EXPECTED_WARNINGS).filter((id) => !warned.has(id));
}
