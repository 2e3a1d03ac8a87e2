/** Time source passed into the core so tests can control it. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

/** Wall-clock time with sub-millisecond resolution (timings of fast calls need it). */
export const systemClock: Clock = { now: () => performance.timeOrigin + performance.now() };

export const isoTime = (clock: Clock): string => new Date(Math.floor(clock.now())).toISOString();
