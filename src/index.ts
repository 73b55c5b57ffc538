/**
 * Public barrel of cpr-conformance. Every export is documented where it is defined.
 * @packageDocumentation
 */
export {};
