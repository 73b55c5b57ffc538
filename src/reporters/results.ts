/**
 * results.json: the machine-readable report, validated against
 * `schemas/tool/results.schema.json` before it is written.
 */
import { CprcError } from '../errors.js';
import type { ConformanceResults } from '../generated/tool/results.js';
import { getSchemaValidator } from '../schemas/registry.js';
import type { ReportModel } from './model.js';

/**
 * Renders results.json (two-space indented, trailing newline) after validating the document
 * against the `tool/results` schema.
 *
 * @throws CprcError `CPRC_INTERNAL` listing every schema error: a document that does not match
 * its own schema is a bug of the tool (or of the runner's events), never hidden.
 * @example
 * ```ts
 * const text = renderResults(buildModel(input));
 * ```
 */
export function renderResults(model: ReportModel): string {
  // Typed as the schema's generated type, so a drift between the schema and the model fails `tsc`.
  const document: ConformanceResults = model.doc;
  const validate = getSchemaValidator('tool/results');
  if (!validate(document)) {
    const errors = (validate.errors ?? [])
      .slice(0, 20)
      .map((error) => `${error.instancePath || '/'} ${error.message ?? 'is invalid'}`)
      .join('; ');
    throw new CprcError(
      'CPRC_INTERNAL',
      `results.json does not match schemas/tool/results.schema.json: ${errors}; ` +
        'this is a bug of cpr-conformance (or of the runner events it was given): please report it with the events file',
    );
  }
  return `${JSON.stringify(document, null, 2)}\n`;
}
