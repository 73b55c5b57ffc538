/**
 * Races with measured delivery (issue 11): a race check sends N requests that only one may win
 * (the same token, fulfillment, redemption, renewal or request_id), through the driver's race
 * method when it has one (the default drivers: one connection per racer, every request held one
 * byte short, all last bytes released together; h2 single packet when the target speaks it), and
 * grades it:
 * - not exactly one success is a failure of the check's requirements, however the requests arrived;
 * - exactly one success passes only when every racer was in flight and their requests left within
 *   {@link RACE_SPREAD_BOUND_MS}; otherwise the race is inconclusive: a warning, never a pass
 *   (requests spread too wide by a loaded machine first make the check take itself again, up to
 *   three attempts in all: `retake` in `./index.ts`).
 * The check's message says how the race went: "32 in flight within 0.61 ms, exactly one success".
 * @packageDocumentation
 */
import type { RaceOutcome } from '../../src/drivers/types.js';
import { assertThat, note, retake, warn } from './index.js';

/**
 * Widest spread, in milliseconds, between the first and the last racer's request leaving
 * complete, for a race to count. Beyond it the target may have handled the requests one after
 * another, so a single success shows nothing. From `npm run bench` (32 racers on loopback, median
 * and worst of 20 bursts): the HTTP/1.1 last-byte burst spreads its last bytes over 0.45-0.5 ms
 * (worst 0.66 ms) on a quiet 2-core machine and 0.5-0.8 ms (worst 2.5-13 ms) under a load
 * average of 14; h2 single packet stays under 0.07 ms; the warm pool + `Promise.all` the suites
 * used before reached 10.6 ms at worst when quiet and 54-193 ms under load. 50 ms admits every
 * synchronised burst measured, with room for a slower machine, and stays well under the window a
 * check-then-write race leaves open (the race broken implementations write for 150 ms).
 */
export const RACE_SPREAD_BOUND_MS = 50;

/**
 * Runs a race of `n` racers: through `synced` (the driver's race method) when the driver has one;
 * otherwise `one(i)` for every racer at once, the delivery unmeasured (`spreadMs` is NaN, and
 * {@link assertRaced} grades it inconclusive).
 * @example
 * ```ts
 * const race = await runRace(32, p.raceRetrieve && ((n) => p.raceRetrieve!(uri, n)), () => p.retrieve(uri));
 * ```
 */
export async function runRace<T>(
  n: number,
  synced: ((n: number) => Promise<RaceOutcome<T>>) | undefined,
  one: (i: number) => Promise<T>,
): Promise<RaceOutcome<T>> {
  if (synced !== undefined) return synced(n);
  const results = await Promise.all(Array.from({ length: n }, (_, i) => one(i)));
  return {
    results,
    inFlight: n,
    spreadMs: Number.NaN,
    synchronisation:
      'none: the driver has no race method, so the requests were sent at once and their delivery not measured',
  };
}

/** "32 in flight within 0.61 ms" (or why the delivery is unknown). */
export function deliveryOf(race: RaceOutcome<unknown>): string {
  if (Number.isNaN(race.spreadMs)) return `${race.results.length} sent at once, delivery not measured`;
  return `${race.inFlight} in flight within ${race.spreadMs.toFixed(2)} ms`;
}

/**
 * Asserts exactly one success among the racers (a failure of the check's requirements otherwise,
 * whatever the spread: two successes are wrong even one after the other) and returns the
 * winner's index. Records "N in flight within X ms, exactly one success" as the check's message;
 * call {@link assertRaced} after the check's other assertions.
 * @example
 * ```ts
 * const winner = singleWinner(race, (r) => r.ok, 'retrievals of one token');
 * ```
 */
export function singleWinner<T>(race: RaceOutcome<T>, won: (result: T) => boolean, what: string): number {
  const winners = race.results.flatMap((r, i) => (won(r) ? [i] : []));
  assertThat(
    winners.length === 1,
    `${race.results.length} ${what}: ${deliveryOf(race)}, ${winners.length} succeeded (exactly one must)`,
  );
  note(`${deliveryOf(race)}, exactly one success (${race.synchronisation})`);
  return winners[0] as number;
}

/**
 * Ends the check as inconclusive (a warning, never a pass) when the race did not show anything:
 * its delivery was not measured, a racer was answered before the others were complete, or the
 * requests left over more than {@link RACE_SPREAD_BOUND_MS}. The last is the machine's doing (the
 * release is one synchronous loop: only the system taking the core from the suite's process, or
 * a garbage collection in it, stretches it), so the check is taken again, a new race on new state
 * ({@link retake}), before it is graded inconclusive; the other two would come out the same.
 */
export function assertRaced(race: RaceOutcome<unknown>, what: string): void {
  const n = race.results.length;
  const inconclusive = (why: string) =>
    `inconclusive race: ${n} ${what}: ${deliveryOf(race)}, exactly one success, but ${why}, so the target may have handled them one after another`;
  if (Number.isNaN(race.spreadMs))
    warn(inconclusive('the driver cannot say how the requests reached the target'));
  if (race.inFlight < n)
    warn(
      inconclusive(
        `only ${race.inFlight} of ${n} were in flight together (the target answered the others before they were complete)`,
      ),
    );
  if (race.spreadMs > RACE_SPREAD_BOUND_MS) {
    const spread = `the requests left over ${race.spreadMs.toFixed(2)} ms`;
    retake(inconclusive(`${spread}, more than the ${RACE_SPREAD_BOUND_MS} ms bound`), spread);
  }
}
