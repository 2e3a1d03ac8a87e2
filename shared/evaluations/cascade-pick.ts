import { formatUsd } from '../money/format-usd';
import type { CascadePick, CascadePoint, CascadeSingle, CascadeTarget } from '../schemas/cascade-curve';

const percent = (x: number) => `${(x * 100).toFixed(1)}%`;

/**
 * A point of a cascade curve for what the analyst asks (pure; the report screen and `npm run eval`
 * both use it):
 * - `{accuracy: X}`: of the thresholds reaching at least X, the one that costs least per item (a tie:
 *   the more accurate, then the fewer escalated); none reaching it: the most accurate as the closest.
 * - `{max_cost_per_item: C}`: of the thresholds costing at most C per item, the most accurate (a tie:
 *   the cheaper); none that cheap: the cheapest as the closest.
 * Thresholds whose accuracy is unknown (nothing judged) are never picked, nor are those a model alone
 * dominates (`singles`, see dominatedBy): a cascade that costs more than the second model alone for
 * no more accuracy is never worth running.
 */
export function pickPoint(points: readonly CascadePoint[], target: CascadeTarget, singles: readonly CascadeSingle[] = []): CascadePick {
  const scored = points.filter((p): p is CascadePoint & { accuracy: number } => p.accuracy !== null);
  if (scored.length === 0)
    return { reached: false, closest: null, message: 'No threshold has a judged answer: the dataset has no expected answers for these questions' };
  const judged = scored.filter((p) => dominatedBy(p, singles) === null);
  if (judged.length === 0) {
    const alone = dominatedBy(scored[0]!, singles)!;
    return {
      reached: false,
      closest: null,
      message: `Every threshold does no better than ${alone.model} alone, for no less: it gives ${percent(alone.accuracy!)} at ${formatUsd(alone.cost_per_item)} per item`,
    };
  }
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

/**
 * The model alone (of `singles`) that does at least as well as the point for at most its cost, and
 * better on one of the two; null when none does. Unknown accuracies dominate nothing.
 */
export function dominatedBy(point: Pick<CascadePoint, 'accuracy' | 'cost_per_item'>, singles: readonly CascadeSingle[]): CascadeSingle | null {
  if (point.accuracy === null) return null;
  const a = point.accuracy;
  return (
    singles.find(
      (s) => s.accuracy !== null && s.accuracy >= a && s.cost_per_item <= point.cost_per_item && (s.accuracy > a || s.cost_per_item < point.cost_per_item),
    ) ?? null
  );
}

function best<T>(xs: readonly T[], order: (a: T, b: T) => number): T {
  return xs.reduce((a, b) => (order(b, a) < 0 ? b : a));
}
