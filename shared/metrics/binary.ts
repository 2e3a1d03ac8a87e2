/**
 * Yes/no (noul) answers judged at a threshold: a P(true) at or above it says "true". Pure, shared by
 * the core (the report) and the screen (the threshold the analyst moves), so both count alike.
 */
import { BOOTSTRAP_SEED, resampleCount, seededRandom, type Quantile } from './resample';

/** The 97.5th percentile of the standard normal distribution: a two-sided 95% interval. */
export const Z95 = 1.959963984540054;

/** Thresholds the report counts at: 0.00, 0.01, … 1.00. */
export const THRESHOLD_STEPS = 100;
export const DEFAULT_THRESHOLD = 0.5;

export interface Counts {
  /** said true, was true */
  tp: number;
  /** said true, was false */
  fp: number;
  /** said false, was true */
  fn: number;
  /** said false, was false */
  tn: number;
}

export interface CurvePoint extends Counts {
  threshold: number;
}

export interface Interval {
  low: number;
  high: number;
}

/**
 * Wilson score interval of k successes in n trials (Wilson 1927; Brown, Cai & DasGupta 2001
 * recommend it over the normal approximation for small n and for shares near 0 or 1). null for n = 0.
 */
export function wilson(k: number, n: number, z = Z95): Interval | null {
  if (n <= 0) return null;
  const p = k / n;
  const z2 = z * z;
  const centre = p + z2 / (2 * n);
  const spread = z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  const scale = 1 + z2 / n;
  return { low: Math.max(0, (centre - spread) / scale), high: Math.min(1, (centre + spread) / scale) };
}

/** Counts at threshold t: an answer says true when p ≥ t. */
export function countsAt(points: readonly { p: number; expected: boolean }[], threshold: number): Counts {
  const c: Counts = { tp: 0, fp: 0, fn: 0, tn: 0 };
  for (const x of points) {
    const said = x.p >= threshold;
    if (said && x.expected) c.tp += 1;
    else if (said) c.fp += 1;
    else if (x.expected) c.fn += 1;
    else c.tn += 1;
  }
  return c;
}

const ratio = (a: number, b: number) => (b === 0 ? null : a / b);

/** What a confusion at one threshold gives; null where the denominator is 0 (no item said true, say). */
export function rates(c: Counts) {
  const n = c.tp + c.fp + c.fn + c.tn;
  const precision = ratio(c.tp, c.tp + c.fp);
  const recall = ratio(c.tp, c.tp + c.fn);
  // F1 = 2TP / (2TP + FP + FN): defined whenever anything was said true or was true.
  const f1 = ratio(2 * c.tp, 2 * c.tp + c.fp + c.fn);
  return {
    n,
    accuracy: ratio(c.tp + c.tn, n),
    precision,
    recall,
    f1,
    specificity: ratio(c.tn, c.tn + c.fp),
    base_rate: ratio(c.tp + c.fn, n),
    /** share of items said true */
    said_true: ratio(c.tp + c.fp, n),
  };
}

/** The Wilson interval of each share in `rates`, each over its own denominator. */
export function rateIntervals(c: Counts): Record<'accuracy' | 'precision' | 'recall' | 'specificity' | 'base_rate', Interval | null> {
  const n = c.tp + c.fp + c.fn + c.tn;
  return {
    accuracy: wilson(c.tp + c.tn, n),
    precision: wilson(c.tp, c.tp + c.fp),
    recall: wilson(c.tp, c.tp + c.fn),
    specificity: wilson(c.tn, c.tn + c.fp),
    base_rate: wilson(c.tp + c.fn, n),
  };
}

/**
 * The 95% percentile bootstrap interval of F1 at one confusion: items drawn with replacement as
 * often as there are items, as the core draws them for every other metric; F1 depends on an item
 * only through its cell (TP, FP, FN, TN), so a draw is a cell drawn by its count. Draws with F1
 * undefined (nothing said or was true) are left out; with fewer than half defined, no interval.
 * The screen's threshold table and the report compute it alike, so they agree at 0.50.
 */
export function f1Interval(c: Counts, quantile: Quantile, resamples = resampleCount(c.tp + c.fp + c.fn + c.tn)): Interval | null {
  const n = c.tp + c.fp + c.fn + c.tn;
  if (n < 2) return null;
  const random = seededRandom(BOOTSTRAP_SEED ^ n);
  const tp = c.tp;
  const fp = tp + c.fp;
  const fn = fp + c.fn;
  const values: number[] = [];
  for (let b = 0; b < resamples; b += 1) {
    let dtp = 0;
    let dfp = 0;
    let dfn = 0;
    for (let i = 0; i < n; i += 1) {
      const r = Math.floor(random() * n);
      if (r < tp) dtp += 1;
      else if (r < fp) dfp += 1;
      else if (r < fn) dfn += 1;
    }
    const denominator = 2 * dtp + dfp + dfn;
    if (denominator > 0) values.push((2 * dtp) / denominator);
  }
  if (values.length < resamples / 2) return null;
  values.sort((a, b) => a - b);
  return { low: quantile(values, 0.025), high: quantile(values, 0.975) };
}

/** The threshold of step i, exact to two decimals (0.07, not 0.07000000000000001). */
export const thresholdAt = (i: number) => Math.round((i / THRESHOLD_STEPS) * 100) / 100;

/**
 * Counts at every threshold 0.00 … 1.00: what the screen's threshold slider reads, and the
 * precision-recall curve. One sort and one pass.
 */
export function curve(points: readonly { p: number; expected: boolean }[]): CurvePoint[] {
  const sorted = points.map((x) => ({ p: x.p, y: x.expected })).sort((a, b) => b.p - a.p);
  const positives = sorted.filter((x) => x.y).length;
  const negatives = sorted.length - positives;
  const out: CurvePoint[] = [];
  let tp = 0;
  let fp = 0;
  let i = 0;
  // From the highest threshold down: each step takes in the answers with p ≥ its threshold.
  for (let step = THRESHOLD_STEPS; step >= 0; step -= 1) {
    const t = thresholdAt(step);
    while (i < sorted.length && sorted[i]!.p >= t) {
      if (sorted[i]!.y) tp += 1;
      else fp += 1;
      i += 1;
    }
    out.push({ threshold: t, tp, fp, fn: positives - tp, tn: negatives - fp });
  }
  return out.reverse();
}

/** The curve's counts at a threshold the screen moved (nearest step). */
export function atThreshold(points: readonly CurvePoint[], threshold: number): CurvePoint | null {
  const step = Math.round(threshold * THRESHOLD_STEPS);
  return points.find((x) => Math.round(x.threshold * THRESHOLD_STEPS) === step) ?? null;
}
