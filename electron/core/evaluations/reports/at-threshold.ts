/**
 * A yes/no question's figures at the threshold `--threshold` names, read from the report's counts at
 * every threshold with the functions the screen's threshold panel uses (shared/metrics/binary), so
 * the command line and the screen give the same figures at the same threshold, to the last digit.
 */
import { quantileSorted } from 'simple-statistics';
import type { QuestionMetrics } from '../../../../shared/schemas/evaluation';
import { atThreshold, f1Interval, rateIntervals, rates, THRESHOLD_STEPS, type Counts, type CurvePoint } from '../../../../shared/metrics/binary';

/** Whether a threshold is one the screen's slider can stand on (0.00, 0.01, … 1.00). */
export function onThresholdGrid(threshold: number): boolean {
  const steps = threshold * THRESHOLD_STEPS;
  return threshold >= 0 && threshold <= 1 && Math.abs(steps - Math.round(steps)) < 1e-9;
}

/**
 * The question's precision, recall, F1, base rate, their intervals and the confusion counts at
 * `threshold`; accuracy, Brier, log loss, AUROC and ECE stay as the report has them (accuracy and
 * ECE judge an answer at P(true) ≥ 0.5, as the screen's metrics table does). Other kinds pass through.
 */
export function atReportThreshold(q: QuestionMetrics, threshold: number): QuestionMetrics {
  if (q.type !== 'noul') return q;
  const counts: Counts = atThreshold((q.curve ?? []) as CurvePoint[], threshold) ?? { tp: 0, fp: 0, fn: 0, tn: 0 };
  const c: Counts = { tp: counts.tp, fp: counts.fp, fn: counts.fn, tn: counts.tn };
  const r = rates(c);
  const i = rateIntervals(c);
  return {
    ...q,
    threshold,
    precision: r.precision,
    recall: r.recall,
    f1: r.f1,
    base_rate: r.base_rate,
    counts: c,
    intervals: { ...q.intervals, precision: i.precision, recall: i.recall, base_rate: i.base_rate, f1: f1Interval(c, quantileSorted) },
  };
}
