/**
 * Payee suite, profile section 2: the optional test clock of the payee harness
 * (`POST {harness}/clock {"advance_seconds": N}` -> 200 `{"now": "<RFC 3339>"}`). The expiry
 * checks use it when it works (no sleep); this file grades the clock itself, so that a clock that
 * answers but advances nothing is caught here and never trusted by the expiry checks.
 */
import { parseRfc3339, validateMessage } from '../../src/validator/index.js';
import { answerSaid, assertThat, check, sharedState, skip } from '../_lib/index.js';
import {
  advanceClock,
  CLOCK_SLACK_SECONDS,
  clockVerdict,
  harness,
  MALFORMED_CLOCK_BODIES,
  MAY_REFUSE_CLOCK_BODIES,
  payeeNowMs,
} from './_support/index.js';

// The payee's test clock is moved by these checks (`cprc run --jobs` runs them after every other
// payee check, in one process: suites/_lib sharedState).
sharedState('payee:clock', ['test-clock-advances-every-expiry-never-back', 'test-clock-body-validated']);

describe('profile section 2: the optional test clock of the payee harness', () => {
  check(
    'test-clock-advances-every-expiry-never-back',
    ['PRF-2-HARNESS-CLOCK'],
    'the optional test clock answers 200 {now}, moves every expiry decision forward by the seconds asked, and never moves back',
    async () => {
      harness();
      const verdict = await clockVerdict();
      if (verdict.kind === 'absent') skip(`${verdict.reason}; the test clock is optional (profile 2)`);
      assertThat(verdict.kind === 'working', verdict.kind === 'idle' ? verdict.reason : '');

      // the answer: 200 {"now": RFC 3339 with Z}, at least the seconds asked after the previous now
      const first = await advanceClock(1);
      assertThat(
        first.ok,
        `POST {harness}/clock {"advance_seconds": 1} answers 200 (${first.ok ? '' : JSON.stringify(first.error)})`,
      );
      if (first.status !== undefined)
        assertThat(first.status === 200, `the clock answers HTTP 200 (got ${first.status})`);
      const shape = validateMessage('harness/clock-response', first.value);
      assertThat(
        shape.valid,
        `the clock answer is {"now": "<RFC 3339 with Z>"}: ${shape.findings.map((f) => `${f.path} ${f.message}`).join('; ')}`,
      );
      const t1 = parseRfc3339(first.value.now);
      assertThat(t1 !== null, `"now" is an RFC 3339 timestamp (got ${JSON.stringify(first.value.now)})`);
      const started = Date.now();
      const second = await advanceClock(30);
      assertThat(
        second.ok,
        `POST {harness}/clock {"advance_seconds": 30} answers 200 (${second.ok ? '' : JSON.stringify(second.error)})`,
      );
      const t2 = parseRfc3339(second.value.now);
      assertThat(t2 !== null, `"now" is an RFC 3339 timestamp (got ${JSON.stringify(second.value.now)})`);
      const moved = (t2.epochMs - t1.epochMs) / 1000;
      const elapsed = (Date.now() - started) / 1000;
      assertThat(
        moved >= 30 - 1 && moved <= 30 + elapsed + CLOCK_SLACK_SECONDS,
        `advanced 30 s, "now" moves forward by 30 s (from ${first.value.now} to ${second.value.now}: ${moved} s)`,
      );

      // never back: a negative advance is refused, or leaves now where it was (or later)
      const before = payeeNowMs();
      const back = await advanceClock(-60);
      if (back.ok) {
        const t3 = parseRfc3339(back.value.now);
        assertThat(
          t3 !== null && t3.epochMs >= before - 1000,
          `the clock never moves back: asked to advance -60 s it answered now ${back.value.now}, before its previous now ${new Date(before).toISOString()}`,
        );
      }
    },
  );

  check(
    'test-clock-body-validated',
    ['PRF-2-HARNESS-CLOCK', 'PRF-1-INVALID-REQUEST'],
    'the test clock takes {"advance_seconds": N} for every integer N >= 0 (0 included: 200 {now}, never earlier); a body that is no JSON object, or whose advance_seconds is missing, of another JSON type or too large for any RFC 3339 instant, answers 400 INVALID_REQUEST; a fractional N or a member profile 2 does not list is refused the same way or honoured without moving now back (the error bodies are graded with every harness refusal)',
    async () => {
      const h = harness();
      const verdict = await clockVerdict();
      if (verdict.kind === 'absent') skip(`${verdict.reason}; the test clock is optional (profile 2)`);
      const raw = h.advanceClockRaw?.bind(h) ?? skip('the payee driver cannot send a raw clock body');
      const problems: string[] = [];
      const zero = await advanceClock(0);
      if (!zero.ok) problems.push(`{"advance_seconds": 0} answered ${answerSaid(zero)}, not 200 {now}`);
      for (const [what, body] of MALFORMED_CLOCK_BODIES) {
        const r = await raw(body);
        if (r.ok || r.error.code !== 'INVALID_REQUEST' || (r.error.status ?? 400) !== 400)
          problems.push(`a clock body with ${what}: answered ${answerSaid(r)}, not 400 INVALID_REQUEST`);
      }
      for (const [what, body] of MAY_REFUSE_CLOCK_BODIES) {
        const before = payeeNowMs();
        const r = await raw(body);
        if (r.ok) {
          const now = parseRfc3339(r.value.now);
          if (now === null || now.epochMs < before - 1000)
            problems.push(
              `a clock body with ${what}: honoured with now ${r.value.now}, before the previous now`,
            );
        } else if (r.error.code !== 'INVALID_REQUEST' || (r.error.status ?? 400) !== 400)
          problems.push(
            `a clock body with ${what}: answered ${answerSaid(r)}, neither 200 {now} nor 400 INVALID_REQUEST`,
          );
      }
      // the suite follows the payee's now wherever the bodies above left it (1 s: a payee that
      // refuses 0 is graded above, and must not leave the later checks with a stale now)
      await advanceClock(1);
      assertThat(
        problems.length === 0,
        `${problems.length} clock answer(s) break profile 2 or 1: ${problems.slice(0, 5).join(' | ')}`,
      );
    },
  );
});
