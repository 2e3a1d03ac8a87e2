/**
 * How a metric reads on screen: its value with its 95% interval, which model is best in a row (and
 * whether the others' intervals leave that in doubt), and whether a value is still provisional.
 */
import type { EvalReport, QuestionMetrics } from '../../../../shared/schemas/evaluation';
import { HIGHER_IS_BETTER } from '../../../../shared/metrics/direction';
import { costPerItem } from '../../../../shared/metrics/cost';

export interface Interval {
  low: number;
  high: number;
}

export const value3 = (v: number | null | undefined): string => (typeof v === 'number' && Number.isFinite(v) ? v.toFixed(3) : '—');
/**
 * Two decimals with a true minus sign; a value that is not 0 but rounds to it keeps its first
 * significant digit (−0.004), so an interval that stops short of 0 does not read as touching it.
 */
export const signed2 = (v: number): string => {
  const small = v !== 0 && Math.abs(v) < 0.005 && Math.abs(v) >= 1e-6;
  const text = v.toFixed(small ? -Math.floor(Math.log10(Math.abs(v))) : 2);
  return text === '-0.00' ? '0.00' : text.replace('-', '−');
};
/** An interval as "[0.43, 0.82]": bracketed, so a negative bound reads as one. */
export const intervalText = (i: Interval | null | undefined): string => (i ? `[${signed2(i.low)}, ${signed2(i.high)}]` : '');

export interface Best {
  /** the index of the best model */
  index: number;
  /** false when another model's interval reaches the best one's value: the lead may be chance */
  clear: boolean;
}

/**
 * The best of a row of values by the metric's direction; null with fewer than two values or no
 * direction, or when the best value is shared.
 */
export function bestOf(metric: string, values: readonly (number | null | undefined)[], intervals: readonly (Interval | null | undefined)[]): Best | null {
  const higher = HIGHER_IS_BETTER[metric];
  if (higher === undefined) return null;
  const known = values.map((v, i) => ({ v, i })).filter((x): x is { v: number; i: number } => typeof x.v === 'number' && Number.isFinite(x.v));
  if (known.length < 2) return null;
  const sorted = [...known].sort((a, b) => (higher ? b.v - a.v : a.v - b.v));
  if (sorted[0]!.v === sorted[1]!.v) return null;
  const best = sorted[0]!;
  const bestInterval = intervals[best.i];
  // Clear when no other model's interval overlaps the best one's.
  const clear =
    !!bestInterval &&
    known.every((x) => {
      if (x.i === best.i) return true;
      const other = intervals[x.i];
      if (!other) return false;
      return higher ? other.high < bestInterval.low : other.low > bestInterval.high;
    });
  return { index: best.i, clear };
}

/** Why a question's metrics are not final yet, or null when they are. */
export function provisionalReason(n: number, minimum: number, running: boolean): string | null {
  if (n === 0) return 'no judged items yet';
  if (running) return `run in progress, ${n.toLocaleString('en-US')} judged so far`;
  if (n < minimum) return `only ${n.toLocaleString('en-US')} judged items (fewer than ${minimum}): read the intervals, not the values`;
  return null;
}

/** The metric's value and interval from a question's metrics. */
export function metricOf(q: QuestionMetrics | undefined, metric: string): { value: number | null; interval: Interval | null } {
  const v = q?.[metric];
  return { value: typeof v === 'number' ? v : null, interval: q?.intervals?.[metric] ?? null };
}

/** Cost per 1,000 items of a model, from the items whose cost is known; null when none is. */
export function costPerThousand(m: EvalReport['models'][number]): number | null {
  const each = costPerItem(m);
  return each === null ? null : each * 1000;
}

/**
 * What the legend says of the best-in-a-row marks: how to read them where some question shows them;
 * where every question is provisional (no marks at all), when they will appear.
 */
export function marksLegend(judged: readonly number[], minimum: number, running: boolean): string {
  if (judged.some((n) => provisionalReason(n, minimum, running) === null))
    return "★ best in the row, its lead beyond the others' intervals; ☆ best, but within another model's interval.";
  if (running) return 'The best in each row is marked (★, ☆) once the run has ended.';
  return `The best in each row is marked (★, ☆) from ${minimum} judged items; fewer here.`;
}
