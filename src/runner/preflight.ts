import { describeTransportError, HttpClient } from '../drivers/http.js';
import { CprcError } from '../errors.js';
import type { RunConfig } from '../generated/tool/run-config.js';
import type { Target } from '../model/results.js';
import { checkWalletCommand } from './config.js';

/** One address reached by the preflight. */
export interface PreflightProbe {
  /** Config member, e.g. `payee.base_url`. */
  member: string;
  url: string;
}

/**
 * The addresses the preflight reaches for the selected targets. `payee.plain_http_url` is left
 * out: nothing answering there is a pass of spec 5 rule 5, not a configuration error.
 */
export function preflightProbes(config: RunConfig, targets: readonly Target[]): PreflightProbe[] {
  const out: PreflightProbe[] = [];
  const add = (member: string, url: unknown): void => {
    if (typeof url === 'string' && url !== '') out.push({ member, url });
  };
  if (targets.includes('payee')) {
    add('payee.base_url', config.payee?.base_url);
    add('payee.harness_url', config.payee?.harness_url);
  }
  if (targets.includes('wallet')) add('wallet.harness_url', config.wallet?.harness_url);
  if (targets.includes('operator')) {
    add('operator.base_url', config.operator?.base_url);
    add('operator.harness_url', config.operator?.harness_url);
  }
  return out;
}

/**
 * Reaches every configured address of the selected targets once, over TLS with the configured CA
 * (`tls.ca_file`), before any test runs; any HTTP answer (even 404) counts as reachable. Checks
 * that the wallet command exists. Throws `CPRC_TARGET_UNREACHABLE` naming every unreachable URL
 * and why (refused, TLS error, timeout), so `cprc run` exits 2 without running a test.
 * @example
 * ```ts
 * await preflight(config, ['payee'], configDir);
 * ```
 */
export async function preflight(
  config: RunConfig,
  targets: readonly Target[],
  configDir: string,
): Promise<PreflightProbe[]> {
  const probes = preflightProbes(config, targets);
  const timeoutMs = config.timeouts?.request_ms ?? 10_000;
  const http = new HttpClient({
    ...(config.tls?.ca_file ? { caFile: config.tls.ca_file } : {}),
    timeoutMs,
    maxResponseBytes: config.limits?.max_response_bytes ?? 1024 * 1024,
  });
  const problems: PreflightProblem[] = [];
  try {
    await Promise.all(
      probes.map(async (p) => {
        try {
          await http.exchange({ method: 'GET', url: p.url });
        } catch (err) {
          // an oversize answer is still an answer: the target is reachable
          if (err instanceof CprcError && err.code === 'CPRC_RESPONSE_TOO_LARGE') return;
          const cause = (err as { cause?: unknown }).cause ?? err;
          problems.push({
            target: p.member.split('.')[0] as Target,
            member: p.member,
            url: p.url,
            text: `${p.member} ${p.url}: ${describeTransportError(cause, timeoutMs).text}`,
          });
        }
      }),
    );
  } finally {
    await http.close();
  }
  if (targets.includes('wallet') && config.wallet?.command) {
    try {
      checkWalletCommand(config.wallet.command, config.wallet.cwd ?? configDir);
    } catch (err) {
      problems.push({ target: 'wallet', member: 'wallet.command', text: (err as Error).message });
    }
  }
  if (problems.length > 0) {
    problems.sort((a, b) => a.text.localeCompare(b.text));
    throw new PreflightError(problems);
  }
  return probes;
}

/** One address (or the wallet command) the preflight could not reach. */
export interface PreflightProblem {
  target: Target;
  /** Config member, e.g. `payee.base_url`. */
  member: string;
  url?: string;
  /** What went wrong, naming the member and URL. */
  text: string;
}

/**
 * The preflight failed: `CPRC_TARGET_UNREACHABLE` (exit 2) with every unreachable address in
 * `problems`, so the runner can still write minimal reports (one errored case per address).
 */
export class PreflightError extends CprcError {
  readonly problems: readonly PreflightProblem[];
  constructor(problems: readonly PreflightProblem[]) {
    super(
      'CPRC_TARGET_UNREACHABLE',
      `cannot reach the target before the run (no test was run):\n  - ${problems.map((p) => p.text).join('\n  - ')}\nstart the target or fix the config, then run again`,
    );
    this.name = 'PreflightError';
    this.problems = problems;
  }
}
