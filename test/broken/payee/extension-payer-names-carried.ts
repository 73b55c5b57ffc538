import type { BrokenImplementation } from '../types.js';
import { CarryingBuilder, extensionsLetThrough } from './_extensions.js';
import { isObject } from './_json.js';
import { startBrokenPayee } from './_start.js';

/** Every member name at any depth of `v`. */
function names(v: unknown, out: string[] = []): string[] {
  if (Array.isArray(v)) for (const x of v) names(x, out);
  else if (isObject(v))
    for (const [k, x] of Object.entries(v)) {
      out.push(k);
      names(x, out);
    }
  return out;
}

/**
 * Profile 2 / INV-1 broken: the harness knows only `payer...` as payer vocabulary. Extensions
 * naming debtor, authorization, signed or raw transactions, permits, mandates, execution dates,
 * states, statuses or settlements (or payer behind a namespace prefix) are carried into the CPR.
 */
const PayerNamesPayee = extensionsLetThrough(
  (refusal, extensions) =>
    refusal.includes('named after payer, authorization or state data') &&
    !names(extensions).some((k) => /^payer/i.test(k)),
);

/** Payer data in extensions goes through unless it is spelled payer... at the start. */
export const extensionPayerNamesCarried: BrokenImplementation = {
  id: 'payee-extension-payer-names-carried',
  target: 'payee',
  fault:
    'the harness recognises only payer... as payer data in extensions: debtor, authorization, signed_tx, permit, mandate, execution_date, state, status, settlement and prefixed payer names are carried into the CPR',
  expected: ['PRF-2-HARNESS-UNSERVICEABLE'],
  start: ({ workDir }) =>
    startBrokenPayee(workDir, { documentBuilder: new CarryingBuilder() }, PayerNamesPayee),
};

/**
 * Profile 2 / INV-1 broken in the namespace cut: the harness cuts a prefix only where it has no
 * white space (`/\S*[:/.]/`), so a payer name behind a prefix with a space (`Checkout
 * Data/payer_ref`) is carried into the CPR.
 */
const SpacedPrefixPayee = extensionsLetThrough((refusal) =>
  /member "[^"]*\s[^"]*[:/.][^"]*", named after payer, authorization or state data/.test(refusal),
);

/** Payer data behind a namespace prefix that contains white space goes through. */
export const extensionSpacedPrefixCarried: BrokenImplementation = {
  id: 'payee-extension-spaced-prefix-carried',
  target: 'payee',
  fault:
    'the harness cuts a namespace prefix only where it has no white space: a payer name behind one ("Checkout Data/payer_ref") is carried into the CPR',
  expected: ['PRF-2-HARNESS-UNSERVICEABLE'],
  start: ({ workDir }) =>
    startBrokenPayee(workDir, { documentBuilder: new CarryingBuilder() }, SpacedPrefixPayee),
};
