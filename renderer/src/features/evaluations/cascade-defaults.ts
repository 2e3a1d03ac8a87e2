/**
 * Where the Cascade panel starts, and which of a curve's points it shows: pure. The first model is
 * the run's cheapest, the second its most accurate; the target is one a point worth running reaches;
 * thresholds that escalate the same items as the one before are one row.
 */
import type { CascadePoint, CascadeSingle } from '../../../../shared/schemas/cascade-curve';
import type { EvalReport } from '../../../../shared/schemas/evaluation';
import { dominatedBy } from '../../../../shared/evaluations/cascade-pick';
import { costPerItem, pooledAccuracy } from './cascade-run';

/** The run's cheapest model per answered item first, then the most accurate of the others (over every question; a tie: the cheaper). */
export function cascadePair(report: Pick<EvalReport, 'models'>): { first: number; second: number } {
  const names = Object.keys(report.models[0]?.questions ?? {});
  const figures = report.models.map((m, i) => ({ i, cost: costPerItem(m) ?? Infinity, accuracy: pooledAccuracy(m, names) ?? -1 }));
  const first = figures.reduce((a, b) => (b.cost < a.cost ? b : a), figures[0] ?? { i: 0, cost: 0, accuracy: -1 }).i;
  const others = figures.filter((f) => f.i !== first);
  if (others.length === 0) return { first, second: first === 0 ? 1 : 0 };
  const second = others.reduce((a, b) => (b.accuracy > a.accuracy || (b.accuracy === a.accuracy && b.cost < a.cost) ? b : a)).i;
  return { first, second };
}

/** The points that change something: of thresholds escalating the same items, the lowest. */
export function distinctPoints(points: readonly CascadePoint[]): CascadePoint[] {
  return points.filter((p, i) => i === 0 || p.escalated_items !== points[i - 1]!.escalated_items);
}

/**
 * The accuracy target (in percent, to 0.1) the panel starts with: the best a point no model alone
 * beats reaches, rounded down so it is reached; null when no point is judged and worth running.
 */
export function reachableTarget(points: readonly CascadePoint[], singles: readonly CascadeSingle[]): number | null {
  const worth = points.filter((p) => p.accuracy !== null && dominatedBy(p, singles) === null).map((p) => p.accuracy!);
  if (worth.length === 0) return null;
  return Math.floor(Math.max(...worth) * 1000 + 1e-9) / 10;
}
