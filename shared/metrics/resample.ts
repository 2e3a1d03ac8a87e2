/**
 * What every bootstrap of the project shares: how many draws, and a seeded generator, so a report
 * (and the screen reading it) gives the same intervals each time. Pure; the percentile rule is passed
 * in (the core and the screen pass simple-statistics' quantileSorted: linear, numpy's default).
 */

/** Draws per interval: 1,000 up to 2,000 items, then fewer so one interval costs about two million item visits, never below 200. */
export const MAX_RESAMPLES = 1_000;
export const MIN_RESAMPLES = 200;
const WORK = 2_000_000;
export const BOOTSTRAP_SEED = 0x5eed_2025;

export function resampleCount(n: number): number {
  return Math.max(MIN_RESAMPLES, Math.min(MAX_RESAMPLES, Math.floor(WORK / Math.max(1, n))));
}

/** mulberry32: small, fast, and the same numbers on every platform. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A percentile of values sorted ascending, p in [0, 1]. */
export type Quantile = (sorted: number[], p: number) => number;
