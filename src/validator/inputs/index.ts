/**
 * Input loading of the validator (`cprc validate`): expansion of files, folders and globs,
 * capped reading, NDJSON streaming, reference retrieval and the cross-document rule.
 *
 * @packageDocumentation
 */
export { expandGlob, expandInput, isGlob, type Source, walkJson } from './expand.js';
export { type RetrieveOptions, retrieveCpr } from './fetch.js';
export { DEFAULT_MAX_BYTES, DEFAULT_TIMEOUT_MS, tooLarge } from './limits.js';
export { type Line, readPathCapped, readStreamCapped, splitLines } from './read.js';
export { type InputResult, type ValidateInputsOptions, validateInputs } from './validate-inputs.js';
