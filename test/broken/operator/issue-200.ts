import { type OperatorResponse, ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Profile 4 issue binding broken: a successful issue answers 200 instead of 201. */
class Issue200Operator extends ReferenceOperator {
  override async issue(body: unknown): Promise<OperatorResponse> {
    const response = await super.issue(body);
    return { ...response, status: 200 }; // the fault
  }
}

/** Issue answers 200. */
export const issue200: BrokenImplementation = {
  id: 'operator-issue-200',
  target: 'operator',
  fault: 'a successful issue answers HTTP 200 instead of 201',
  expected: ['PRF-4-ISSUE-BINDING'],
  start: ({ workDir }) => startBrokenOperator(workDir, Issue200Operator),
};
