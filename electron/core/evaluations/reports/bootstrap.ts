/**
 * Percentile bootstrap intervals (Efron & Tibshirani 1993, ch. 13): the items are drawn with
 * replacement as often as there are items, the metric computed on each draw, and the 2.5th and
 * 97.5th percentiles of those values are the 95% interval. Draws are seeded, so a report gives the
 * same intervals each time it is read.
 */
import { quantileSorted } from 'simple-statistics';
import type { Interval } from '../../../../shared/metrics/binary';
import { BOOTSTRAP_SEED, resampleCount, seededRandom } from '../../../../shared/metrics/resample';

export { MAX_RESAMPLES, MIN_RESAMPLES, resampleCount } from '../../../../shared/metrics/resample';

/**
 * The 95% percentile interval of `statistic` over `n` items. A draw is passed as weights (how many
 * times each item was drawn); draws where the statistic is undefined (one class only, say) are left
 * out, and with fewer than half of the draws defined there is no interval.
 */
export function bootstrapInterval(n: number, statistic: (weights: Uint32Array) => number | null, resamples = resampleCount(n)): Interval | null {
  if (n < 2) return null;
  const random = seededRandom(BOOTSTRAP_SEED ^ n);
  const weights = new Uint32Array(n);
  const values: number[] = [];
  for (let b = 0; b < resamples; b += 1) {
    weights.fill(0);
    for (let i = 0; i < n; i += 1) weights[Math.floor(random() * n)]! += 1;
    const v = statistic(weights);
    if (v !== null && Number.isFinite(v)) values.push(v);
  }
  if (values.length < resamples / 2) return null;
  values.sort((a, b) => a - b);
  return { low: quantileSorted(values, 0.025), high: quantileSorted(values, 0.975) };
}

/**
 * A paired interval for the difference of a metric between two runs over the same items: each draw
 * takes the same items from both, so what the items share cancels out.
 */
export function pairedBootstrapDelta(n: number, a: (weights: Uint32Array) => number | null, b: (weights: Uint32Array) => number | null): Interval | null {
  return bootstrapInterval(n, (w) => {
    const x = a(w);
    const y = b(w);
    return x === null || y === null ? null : x - y;
  });
}
