/**
 * Starts a deliberately broken Operator: the reference Operator (src/reference/operator) with
 * one spec-step method overridden by a subclass, on 127.0.0.1 behind a throwaway CA, following
 * the pattern of `src/loopback/stack.ts`. Returns the run config pointing the suite at it (with
 * the Operator's fresh test identities, profile section 5).
 */
import { join } from 'node:path';
import { createLoopbackPki, writeCaFile } from '../../../src/loopback/tls.js';
import {
  type OperatorDeps,
  type ReferenceOperator,
  type ReferenceOperatorOptions,
  startReferenceOperator,
} from '../../../src/reference/operator/index.js';
import type { StartedBroken } from '../types.js';

/** Reference options a subject may set besides its class (a permitted variant's deployment choice). */
export type StartOptions = Pick<
  ReferenceOperatorOptions,
  'policy' | 'testClock' | 'storeClass' | 'balanceHarness' | 'balances'
>;

/** An Operator class: a subclass of the reference carrying exactly one fault. */
export type OperatorClass = new (deps: OperatorDeps) => ReferenceOperator;

/**
 * Starts `operatorClass` with the reference defaults (policy, balances) and writes the CA file
 * into `workDir`.
 * @example
 * ```ts
 * class NoAmountLimit extends ReferenceOperator {
 *   protected override checkAmountLimit(): void {}
 * }
 * const started = await startBrokenOperator(workDir, NoAmountLimit);
 * ```
 */
export async function startBrokenOperator(
  workDir: string,
  operatorClass: OperatorClass,
  options: StartOptions = {},
): Promise<StartedBroken> {
  const { ca, server } = await createLoopbackPki();
  const caFile = join(workDir, 'ca.pem');
  await writeCaFile(caFile, ca);
  const running = await startReferenceOperator({ tls: server, operatorClass, ...options });
  return {
    config: {
      tls: { ca_file: caFile },
      timeouts: { request_ms: 10_000 },
      operator: {
        base_url: running.baseUrl,
        harness_url: running.harnessUrl,
        ...structuredClone(running.identities),
      },
    },
    close: () => running.close(),
  };
}
