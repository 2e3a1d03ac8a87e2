/** Time source passed into the core so tests can control it. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export const isoTime = (clock: Clock): string => new Date(clock.now()).toISOString();
