import { isPayerDataName } from '../../../src/validator/index.js';
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

/** The member a refusal of the reference harness names as payer data, if any. */
function refusedMember(refusal: string): string | undefined {
  return /member "(.*)", named after payer, authorization or state data/.exec(refusal)?.[1];
}

/** Letters and digits only (the broken harnesses' normalisation). */
const squash = (s: string): string => s.replace(/[^A-Za-z0-9]/g, '');

/**
 * Profile 2 / INV-1 broken in the readings of a name: the harness reads the whole name and the
 * tail after the last `:`, `/` or `.` only (the reading the validator had before the profile named
 * every tail), so a payer name between two separators (`acme:payer.email`) is carried into the CPR.
 */
const LastTailPayee = extensionsLetThrough((refusal) => {
  const k = refusedMember(refusal);
  if (k === undefined) return false;
  const tail = k.slice(Math.max(k.lastIndexOf(':'), k.lastIndexOf('/'), k.lastIndexOf('.')) + 1);
  return !isPayerDataName(squash(k), false) && !isPayerDataName(squash(tail), false);
});

/** Payer data whose reading is neither the whole name nor its last tail goes through. */
export const extensionLastTailOnly: BrokenImplementation = {
  id: 'payee-extension-last-tail-only',
  target: 'payee',
  fault:
    'the harness reads a member name and its last tail only: a payer name between two separators ("acme:payer.email", "com.example.payer.email") is carried into the CPR',
  expected: ['PRF-2-HARNESS-UNSERVICEABLE'],
  start: ({ workDir }) =>
    startBrokenPayee(workDir, { documentBuilder: new CarryingBuilder() }, LastTailPayee),
};

/**
 * Profile 2 / INV-1 broken in the namespace cut: the harness removes a prefix ending in `:` or
 * `/` only, never a dotted one, so `com.example.status` (read whole: `comexamplestatus`) is
 * carried into the CPR.
 */
const DottedPrefixPayee = extensionsLetThrough((refusal) => {
  const k = refusedMember(refusal);
  if (k === undefined) return false;
  const tail = k.slice(Math.max(k.lastIndexOf(':'), k.lastIndexOf('/')) + 1);
  return !isPayerDataName(squash(k), false) && !isPayerDataName(squash(tail), false);
});

/** State or payer data behind a dotted namespace prefix goes through. */
export const extensionDottedPrefixCarried: BrokenImplementation = {
  id: 'payee-extension-dotted-prefix-carried',
  target: 'payee',
  fault:
    'the harness removes a namespace prefix ending in ":" or "/" only: state data behind a dotted one ("com.example.status") is carried into the CPR',
  expected: ['PRF-2-HARNESS-UNSERVICEABLE'],
  start: ({ workDir }) =>
    startBrokenPayee(workDir, { documentBuilder: new CarryingBuilder() }, DottedPrefixPayee),
};
