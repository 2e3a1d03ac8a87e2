/**
 * 95% intervals of each metric of the report: Wilson score intervals for shares of items (accuracy,
 * precision, recall, base rate, exact level, pass rate), percentile bootstrap intervals over items
 * for the rest (Brier, log loss, AUROC, ECE, F1, macro-F1, MAE, QWK, mean IoU).
 */
import { quantileSorted } from 'simple-statistics';
import { countsAt, DEFAULT_THRESHOLD, f1Interval, rateIntervals, wilson, type Interval } from '../../../../shared/metrics/binary';
import { bootstrapInterval, resampleCount } from './bootstrap';
import { CLIP, DEFAULT_IOU_THRESHOLD, scoreLevel, type ChoicePoint, type NoulPoint, type ScorePoint } from './metrics';
import { weightedAuroc, weightedEce, weightedMacroF1, weightedMean, weightedQwk } from './weighted';

export type Intervals = Record<string, Interval | null>;

/** How the intervals were made, said beside them on screen and in the report. */
export function intervalMethod(n: number): string {
  return `95% intervals: Wilson score for shares of items; percentile bootstrap over items (${resampleCount(n).toLocaleString('en-US')} resamples, seeded) for the rest`;
}

/** The metrics whose interval is a Wilson score interval (shares of items); every other metric's is a percentile bootstrap over items. */
export const WILSON_METRICS: ReadonlySet<string> = new Set(['accuracy', 'precision', 'recall', 'specificity', 'base_rate', 'exact', 'pass_rate']);

/** How a metric's interval is made, named as the report names it. */
export type IntervalKind = 'wilson' | 'percentile_bootstrap';
export const intervalKind = (metric: string): IntervalKind => (WILSON_METRICS.has(metric) ? 'wilson' : 'percentile_bootstrap');

const clip = (p: number) => Math.min(1 - CLIP, Math.max(CLIP, p));

/** Items sorted by a score, ascending: the order a weighted AUROC reads them in. */
const ascending = (scores: Float64Array) => Uint32Array.from(scores.keys()).sort((a, b) => scores[a]! - scores[b]!);

export function noulIntervals(points: readonly NoulPoint[]): Intervals {
  const n = points.length;
  const p = Float64Array.from(points, (x) => x.p);
  const y = points.map((x) => x.expected);
  const said = points.map((x) => x.p >= DEFAULT_THRESHOLD);
  const squared = Float64Array.from(points, (x) => (x.p - (x.expected ? 1 : 0)) ** 2);
  const loss = Float64Array.from(points, (x) => -Math.log(x.expected ? clip(x.p) : 1 - clip(x.p)));
  const confidence = Float64Array.from(points, (x) => Math.max(x.p, 1 - x.p));
  const correct = said.map((s, i) => s === y[i]);
  const order = ascending(p);
  const shares = rateIntervals(countsAt(points, DEFAULT_THRESHOLD));
  return {
    accuracy: shares.accuracy,
    precision: shares.precision,
    recall: shares.recall,
    base_rate: shares.base_rate,
    f1: f1Interval(countsAt(points, DEFAULT_THRESHOLD), quantileSorted),
    brier: bootstrapInterval(n, (w) => weightedMean(squared, w)),
    log_loss: bootstrapInterval(n, (w) => weightedMean(loss, w)),
    auroc: bootstrapInterval(n, (w) => weightedAuroc(order, p, y, w)),
    ece: bootstrapInterval(n, (w) => weightedEce(confidence, correct, w)),
  };
}

export function choiceIntervals(points: readonly ChoicePoint[], options: readonly string[]): Intervals {
  const n = points.length;
  const labels = [...options, ...new Set(points.flatMap((x) => [x.expected, x.predicted]).filter((l) => !options.includes(l)))];
  const index = new Map(labels.map((l, i) => [l, i]));
  const predicted = Int32Array.from(points, (x) => index.get(x.predicted) ?? -1);
  const expected = Int32Array.from(points, (x) => index.get(x.expected)!);
  const optionSet = new Set(options);
  const squared = Float64Array.from(points, (x) => {
    let s = 0;
    for (const o of options) s += ((x.probabilities[o] ?? 0) - (o === x.expected ? 1 : 0)) ** 2;
    for (const k in x.probabilities) if (!optionSet.has(k)) s += (x.probabilities[k]! - (k === x.expected ? 1 : 0)) ** 2;
    return s;
  });
  const loss = Float64Array.from(points, (x) => -Math.log(clip(x.probabilities[x.expected] ?? 0)));
  const confidence = Float64Array.from(points, (x) => x.probabilities[x.predicted] ?? 0);
  const correct = points.map((x) => x.predicted === x.expected);
  return {
    accuracy: wilson(correct.filter(Boolean).length, n),
    macro_f1: bootstrapInterval(n, (w) => weightedMacroF1(predicted, expected, labels.length, w)),
    brier: bootstrapInterval(n, (w) => weightedMean(squared, w)),
    log_loss: bootstrapInterval(n, (w) => weightedMean(loss, w)),
    ece: bootstrapInterval(n, (w) => weightedEce(confidence, correct, w)),
  };
}

export function scoreIntervals(points: readonly ScorePoint[], levels: number): Intervals {
  const n = points.length;
  const rated = Int32Array.from(points, scoreLevel);
  const truth = Int32Array.from(points, (x) => x.expected);
  const errors = Float64Array.from(points, (x) => Math.abs(x.score - x.expected));
  return {
    mae: bootstrapInterval(n, (w) => weightedMean(errors, w)),
    exact: wilson(points.filter((_, i) => rated[i] === truth[i]).length, n),
    qwk: bootstrapInterval(n, (w) => weightedQwk(rated, truth, levels, w)),
  };
}

export function boxIntervals(ious: readonly number[], threshold = DEFAULT_IOU_THRESHOLD): Intervals {
  const values = Float64Array.from(ious);
  return {
    mean_iou: bootstrapInterval(ious.length, (w) => weightedMean(values, w)),
    pass_rate: wilson(ious.filter((v) => v >= threshold).length, ious.length),
  };
}
