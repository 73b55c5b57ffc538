/**
 * The ground floor: the results model, findings, the CPR vocabulary and small helpers. Imports
 * nothing of the project but the generated types.
 * @packageDocumentation
 */
export * from './cpr.js';
export * from './finding.js';
export * from './results.js';
export * from './util.js';
