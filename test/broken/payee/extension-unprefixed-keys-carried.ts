import type { BrokenImplementation } from '../types.js';
import { CarryingBuilder, extensionsLetThrough } from './_extensions.js';
import { startBrokenPayee } from './_start.js';

/** Spec 9 rule 5 broken: extension keys without a namespace are carried into the CPR. */
const UnprefixedPayee = extensionsLetThrough((refusal) => refusal.includes('reverse-domain prefix'));

/** Unprefixed extension keys are carried. */
export const extensionUnprefixedKeysCarried: BrokenImplementation = {
  id: 'payee-extension-unprefixed-keys-carried',
  target: 'payee',
  fault:
    'the harness carries extension keys without a foundation: or reverse-domain prefix ("note", "order.total") into the CPR instead of refusing them',
  expected: ['CPR-9-REVERSE-DOMAIN-PREFIX'],
  start: ({ workDir }) =>
    startBrokenPayee(workDir, { documentBuilder: new CarryingBuilder() }, UnprefixedPayee),
};
