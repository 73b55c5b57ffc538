import { ReferenceOperator } from '../../../src/reference/operator/index.js';
import { startBrokenOperator } from '../../broken/operator/_start.js';
import type { PermittedVariant } from '../../broken/types.js';

/** A policy whose longest expiry is 12 minutes instead of the reference's 30 days. */
export const shortMaxExpiry: PermittedVariant = {
  id: 'operator-variant-short-max-expiry',
  target: 'operator',
  choice: 'the policy allows expiries of at most 720 s (12 minutes) ahead',
  clause: 'spec CP 8: "Numeric values of the Operator-configured limits: not shown"',
  start: ({ workDir }) =>
    startBrokenOperator(workDir, ReferenceOperator, { policy: { max_expiry_seconds: 720 } }),
};
