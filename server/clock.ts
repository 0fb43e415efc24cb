/** Time is a dependency: every server function takes a Clock, tests pass a fake one. */
export interface Clock {
  /** ms since the Unix epoch */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock tests move by hand: `clock.advance(5 * 60_000)`. */
export function createFakeClock(
  startMs = Date.UTC(2026, 0, 1),
): Clock & { advance(ms: number): void; set(ms: number): void } {
  let t = startMs;
  return {
    now: () => t,
    advance(ms) {
      t += ms;
    },
    set(ms) {
      t = ms;
    },
  };
}
