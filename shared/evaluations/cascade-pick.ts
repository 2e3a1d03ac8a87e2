import { formatUsd } from '../money/format-usd';
import type { CascadePick, CascadePoint, CascadeTarget } from '../schemas/cascade-curve';

const percent = (x: number) => `${(x * 100).toFixed(1)}%`;

/**
 * A point of a cascade curve for what the analyst asks (pure; the report screen and `npm run eval`
 * both use it):
 * - `{accuracy: X}`: of the thresholds reaching at least X, the one that costs least per item (a tie:
 *   the more accurate, then the fewer escalated); none reaching it: the most accurate as the closest.
 * - `{max_cost_per_item: C}`: of the thresholds costing at most C per item, the most accurate (a tie:
 *   the cheaper); none that cheap: the cheapest as the closest.
 * Thresholds whose accuracy is unknown (nothing judged) are never picked.
 */
export function pickPoint(points: readonly CascadePoint[], target: CascadeTarget): CascadePick {
  const judged = points.filter((p): p is CascadePoint & { accuracy: number } => p.accuracy !== null);
  if (judged.length === 0)
    return { reached: false, closest: null, message: 'No threshold has a judged answer: the dataset has no expected answers for these questions' };
  if ('accuracy' in target) {
    const reaching = judged.filter((p) => p.accuracy >= target.accuracy);
    if (reaching.length === 0) {
      const closest = best(judged, (a, b) => b.accuracy - a.accuracy || a.cost_per_item - b.cost_per_item);
      return {
        reached: false,
        closest,
        message: `No threshold reaches ${percent(target.accuracy)}: the most accurate reaches ${percent(closest.accuracy)} at ${formatUsd(closest.cost_per_item)} per item`,
      };
    }
    const point = best(reaching, (a, b) => a.cost_per_item - b.cost_per_item || b.accuracy - a.accuracy || a.escalated - b.escalated);
    return { reached: true, point, message: `${percent(point.accuracy)} at ${formatUsd(point.cost_per_item)} per item, ${percent(point.escalated)} escalated` };
  }
  const under = judged.filter((p) => p.cost_per_item <= target.max_cost_per_item);
  if (under.length === 0) {
    const closest = best(judged, (a, b) => a.cost_per_item - b.cost_per_item || b.accuracy - a.accuracy);
    return {
      reached: false,
      closest,
      message: `No threshold costs ${formatUsd(target.max_cost_per_item)} per item or less: the cheapest costs ${formatUsd(closest.cost_per_item)} (${percent(closest.accuracy)})`,
    };
  }
  const point = best(under, (a, b) => b.accuracy - a.accuracy || a.cost_per_item - b.cost_per_item || a.escalated - b.escalated);
  return { reached: true, point, message: `${percent(point.accuracy)} at ${formatUsd(point.cost_per_item)} per item, ${percent(point.escalated)} escalated` };
}

function best<T>(xs: readonly T[], order: (a: T, b: T) => number): T {
  return xs.reduce((a, b) => (order(b, a) < 0 ? b : a));
}
