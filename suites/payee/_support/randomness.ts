/**
 * Statistical tests of a payee's token sample (profile 2: at least 128 bits of randomness).
 * Pure functions, no checks: `5-authentication.ts` grades with them, and
 * `test/broken/payee/randomness.test.ts` proves they pass CSPRNG tokens and trip on patterns.
 * @packageDocumentation
 */

/**
 * The bits of a token: RFC 4648 decoding of lowercase base32 or hex (the sample decides which:
 * hex when every token is hex). Trailing bits that do not fill a byte are padding and dropped.
 */
export function tokenBits(token: string, hex: boolean): string {
  const bitsPerChar = hex ? 4 : 5;
  const alphabet = hex ? '0123456789abcdef' : 'abcdefghijklmnopqrstuvwxyz234567';
  let bits = '';
  for (const c of token) bits += alphabet.indexOf(c).toString(2).padStart(bitsPerChar, '0');
  return bits.slice(0, Math.floor(bits.length / 8) * 8);
}

/** Length of the common prefix of two bit strings. */
function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/**
 * Statistical tests on a token sample, tuned so a payee drawing tokens from a CSPRNG never trips
 * them. For n = 200 tokens of b >= 128 bits (N = 200 b >= 25 600 bits):
 * - a repeated token: probability <= C(200, 2) * 2^-128, about 6e-35;
 * - two tokens sharing a 40-bit prefix: <= C(200, 2) * 2^-40 = 19 900 / 1.1e12, about 1.8e-8;
 * - adjacent tokens (issue order) differing by less than 2^32 as integers: <= 199 * 2^33 / 2^128,
 *   about 4e-27; all 199 differences equal (a fixed stride): below that;
 * - monobit: |ones - N/2| / sqrt(N/4) > 6: two-sided normal tail, about 2.0e-9;
 * - runs: |transitions - (N-1)/2| / sqrt((N-1)/4) > 6: about 2.0e-9.
 * Together a false positive happens less than once in 40 million runs (about 2.2e-8).
 * A token with a fixed part (a version prefix, a counter, a timestamp) is reported: the profile
 * asks for 128 bits of randomness and the suite reads the whole token as random.
 */
export function randomnessProblems(tokens: readonly string[]): string[] {
  const problems: string[] = [];
  const hex = tokens.every((t) => /^[0-9a-f]+$/.test(t));
  if (!hex && !tokens.every((t) => /^[a-z2-7]+$/.test(t)))
    return [
      'the tokens are neither all lowercase hex nor all lowercase base32, so their bits cannot be read',
    ];
  const bits = tokens.map((t) => tokenBits(t, hex));
  const seen = new Set<string>();
  for (const t of tokens) {
    if (seen.has(t)) problems.push(`the token ${t} was issued twice`);
    seen.add(t);
  }
  const sorted = [...bits].sort();
  let longest = 0;
  for (let i = 1; i < sorted.length; i++)
    longest = Math.max(longest, commonPrefix(sorted[i - 1] ?? '', sorted[i] ?? ''));
  if (longest >= 40)
    problems.push(`two tokens share their first ${longest} bits (a counter or timestamp prefix?)`);
  const values = bits.map((b) => (b.length === 0 ? 0n : BigInt(`0b${b}`)));
  const diffs: bigint[] = [];
  for (let i = 1; i < values.length; i++) {
    const d = (values[i] ?? 0n) - (values[i - 1] ?? 0n);
    diffs.push(d < 0n ? -d : d);
  }
  const small = diffs.findIndex((d) => d < 2n ** 32n);
  if (small >= 0)
    problems.push(
      `tokens #${small + 1} and #${small + 2} (issue order) differ by ${diffs[small]} as integers (sequential?)`,
    );
  if (diffs.length > 1 && diffs.every((d) => d === diffs[0]))
    problems.push(`every token differs from the previous one by the same ${diffs[0]} (a fixed stride)`);
  const all = bits.join('');
  const n = all.length;
  if (n > 1000) {
    const ones = [...all].filter((c) => c === '1').length;
    const zMono = Math.abs(ones - n / 2) / Math.sqrt(n / 4);
    if (zMono > 6) problems.push(`monobit test: ${ones} ones in ${n} bits (z = ${zMono.toFixed(1)} > 6)`);
    let transitions = 0;
    for (let i = 1; i < n; i++) if (all[i] !== all[i - 1]) transitions++;
    const zRuns = Math.abs(transitions - (n - 1) / 2) / Math.sqrt((n - 1) / 4);
    if (zRuns > 6)
      problems.push(`runs test: ${transitions} bit changes in ${n} bits (z = ${zRuns.toFixed(1)} > 6)`);
  }
  return problems;
}
