/**
 * Evaluation metrics and calibration, as issue 12 defines them. Pure functions over answers and
 * expected values; nothing here reads the store or the clock.
 */
import { percentile } from '../../../../shared/metrics/percentile';
import { iou, type Edges } from '../../../../shared/geometry/iou';
import type { Question } from '../../../../shared/schemas/question';
import type { ReliabilityBin } from '../../../../shared/schemas/evaluation';
import { countsAt, curve, DEFAULT_THRESHOLD, rates, wilson, type Interval } from '../../../../shared/metrics/binary';

export const CLIP = 1e-15;
export const BINS = 10;
export const DEFAULT_IOU_THRESHOLD = 0.5;

/** A box in fractions of the image: the geometry's own type. */

const clip = (p: number) => Math.min(1 - CLIP, Math.max(CLIP, p));
const mean = (values: readonly number[]) => (values.length === 0 ? NaN : values.reduce((a, b) => a + b, 0) / values.length);

/** ECE over 10 equal-width bins, [0.9, 1.0] closed; `reliability` lists the non-empty bins. */
export function calibrationError(points: readonly { confidence: number; correct: boolean }[]): { ece: number | null; reliability: ReliabilityBin[] } {
  const sums = Array.from({ length: BINS }, () => ({ count: 0, confidence: 0, correct: 0 }));
  for (const { confidence, correct } of points) {
    const bin = sums[Math.min(BINS - 1, Math.max(0, Math.floor(confidence * BINS)))]!;
    bin.count += 1;
    bin.confidence += confidence;
    bin.correct += correct ? 1 : 0;
  }
  const n = points.length;
  let ece = 0;
  const reliability: ReliabilityBin[] = [];
  sums.forEach((bin, b) => {
    if (bin.count === 0) return;
    const confidence = bin.confidence / bin.count;
    const accuracy = bin.correct / bin.count;
    ece += (bin.count / n) * Math.abs(accuracy - confidence);
    reliability.push({ lower: b / BINS, upper: (b + 1) / BINS, count: bin.count, confidence, accuracy });
  });
  return { ece: n === 0 ? null : ece, reliability };
}

/** Mann–Whitney AUROC: the share of (positive, negative) pairs ranked right, ties ½; null with one class. */
export function auroc(scores: readonly number[], labels: readonly boolean[]): number | null {
  const indexed = scores.map((s, i) => ({ s, y: labels[i]! })).sort((a, b) => a.s - b.s);
  const positives = indexed.filter((x) => x.y).length;
  const negatives = indexed.length - positives;
  if (positives === 0 || negatives === 0) return null;
  // Rank sum of positives with average ranks for ties, then U = R+ − n+(n+ + 1)/2.
  let rankSum = 0;
  for (let i = 0; i < indexed.length;) {
    let j = i;
    while (j < indexed.length && indexed[j]!.s === indexed[i]!.s) j += 1;
    const averageRank = (i + 1 + j) / 2;
    for (let k = i; k < j; k += 1) if (indexed[k]!.y) rankSum += averageRank;
    i = j;
  }
  return (rankSum - (positives * (positives + 1)) / 2) / (positives * negatives);
}

export interface NoulPoint {
  p: number;
  expected: boolean;
}

/**
 * The majority-class baseline: what always giving the most common expected answer scores (ties:
 * the first of `labels`), with its Wilson interval; null with no items.
 */
export function majorityBaseline(
  expected: readonly string[],
  labels: readonly string[],
  say: (label: string) => string,
): { label: string; answer: string; accuracy: number; interval: Interval | null } | null {
  if (expected.length === 0) return null;
  const counts = new Map<string, number>();
  for (const e of expected) counts.set(e, (counts.get(e) ?? 0) + 1);
  const order = [...labels, ...[...counts.keys()].filter((k) => !labels.includes(k))];
  const answer = order.reduce((best, k) => ((counts.get(k) ?? 0) > (counts.get(best) ?? 0) ? k : best), order[0]!);
  const k = counts.get(answer) ?? 0;
  return { label: say(answer), answer, accuracy: k / expected.length, interval: wilson(k, expected.length) };
}

export function noulMetrics(points: readonly NoulPoint[]) {
  const n = points.length;
  const y = points.map((x) => (x.expected ? 1 : 0));
  const correct = points.map((x) => x.p >= 0.5 === x.expected);
  const at = rates(countsAt(points, DEFAULT_THRESHOLD));
  return {
    type: 'noul' as const,
    n,
    accuracy: n ? mean(correct.map(Number)) : null,
    // At the default threshold (the screen moves it over `curve`); null where undefined (nothing said true: no precision).
    threshold: DEFAULT_THRESHOLD,
    precision: at.precision,
    recall: at.recall,
    f1: at.f1,
    base_rate: at.base_rate,
    positives: points.filter((x) => x.expected).length,
    baseline: majorityBaseline(
      points.map((x) => String(x.expected)),
      ['false', 'true'],
      (v) => `always ${v}`,
    ),
    curve: n ? curve(points) : [],
    brier: n ? mean(points.map((x, i) => (x.p - y[i]!) ** 2)) : null,
    log_loss: n ? noulLogLoss(points) : null,
    auroc: auroc(
      points.map((x) => x.p),
      points.map((x) => x.expected),
    ),
    ...calibrationError(points.map((x, i) => ({ confidence: Math.max(x.p, 1 - x.p), correct: correct[i]! }))),
  };
}

function noulLogLoss(points: readonly NoulPoint[]): number {
  return -mean(points.map((x) => (x.expected ? Math.log(clip(x.p)) : Math.log(1 - clip(x.p)))));
}

export interface ChoicePoint {
  predicted: string;
  /** p_k for every option (absent options 0) */
  probabilities: Record<string, number>;
  expected: string;
}

/** p_k from an answer: its probabilities, else 1 for the chosen option and 0 for the others. */
export function choiceProbabilities(answer: { choice: string; probabilities?: Record<string, number> | undefined }): Record<string, number> {
  return answer.probabilities ?? { [answer.choice]: 1 };
}

export function choiceMetrics(points: readonly ChoicePoint[], options: readonly string[]) {
  const n = points.length;
  const confusion: Record<string, Record<string, number>> = {};
  const tally = new Map<string, { tp: number; fp: number; fn: number }>();
  const count = (o: string) => tally.get(o) ?? (tally.set(o, { tp: 0, fp: 0, fn: 0 }), tally.get(o)!);
  let right = 0;
  let brier = 0;
  let logLoss = 0;
  const optionSet = new Set(options);
  for (const x of points) {
    const row = (confusion[x.expected] ??= {});
    row[x.predicted] = (row[x.predicted] ?? 0) + 1;
    if (x.predicted === x.expected) {
      right += 1;
      count(x.expected).tp += 1;
    } else {
      count(x.predicted).fp += 1;
      count(x.expected).fn += 1;
    }
    // Σ over the question's options and any other label given a probability.
    for (const o of options) brier += ((x.probabilities[o] ?? 0) - (o === x.expected ? 1 : 0)) ** 2;
    for (const k in x.probabilities) if (!optionSet.has(k)) brier += (x.probabilities[k]! - (k === x.expected ? 1 : 0)) ** 2;
    logLoss -= Math.log(clip(x.probabilities[x.expected] ?? 0));
  }
  // Macro-F1 over the question's options that occur as expected or predicted.
  const f1s = options
    .filter((o) => tally.has(o))
    .map((o) => {
      const t = tally.get(o)!;
      return (2 * t.tp) / (2 * t.tp + t.fp + t.fn);
    });
  return {
    type: 'choice' as const,
    n,
    accuracy: n ? right / n : null,
    macro_f1: f1s.length ? mean(f1s) : null,
    brier: n ? brier / n : null,
    log_loss: n ? logLoss / n : null,
    ...calibrationError(points.map((x) => ({ confidence: x.probabilities[x.predicted] ?? 0, correct: x.predicted === x.expected }))),
    confusion,
    baseline: majorityBaseline(
      points.map((x) => x.expected),
      options,
      (v) => `always “${v}”`,
    ),
  };
}

export interface ScorePoint {
  score: number;
  probabilities?: Record<string, number> | undefined;
  expected: number;
}

/** The argmax level of the probabilities (lowest index on a tie), else round(score). */
export function scoreLevel(x: { score: number; probabilities?: Record<string, number> | undefined }): number {
  let best = -1;
  let bestP = -Infinity;
  for (const key in x.probabilities) {
    const p = x.probabilities[key]!;
    const level = Number(key);
    if (p > bestP || (p === bestP && level < best)) {
      bestP = p;
      best = level;
    }
  }
  return best < 0 ? Math.round(x.score) : best;
}

/** Quadratic weighted kappa of two ratings over levels 0..levels−1; null when undefined. */
export function quadraticWeightedKappa(rated: readonly number[], truth: readonly number[], levels: number): number | null {
  const n = rated.length;
  if (n === 0 || levels < 2) return null;
  const at = (v: number) => Math.min(levels - 1, Math.max(0, v));
  const observed = Array.from({ length: levels }, () => new Array<number>(levels).fill(0));
  const histTruth = new Array<number>(levels).fill(0);
  const histRated = new Array<number>(levels).fill(0);
  for (let i = 0; i < n; i += 1) {
    const e = at(truth[i]!);
    const r = at(rated[i]!);
    observed[e]![r]! += 1;
    histTruth[e]! += 1;
    histRated[r]! += 1;
  }
  let num = 0;
  let den = 0;
  for (let i = 0; i < levels; i += 1) {
    for (let j = 0; j < levels; j += 1) {
      const w = (i - j) ** 2 / (levels - 1) ** 2;
      num += w * observed[i]![j]!;
      den += (w * histTruth[i]! * histRated[j]!) / n;
    }
  }
  return den === 0 ? null : 1 - num / den;
}

export function scoreMetrics(points: readonly ScorePoint[], levels: number) {
  const n = points.length;
  const level = points.map(scoreLevel);
  return {
    type: 'score' as const,
    n,
    mae: n ? mean(points.map((x) => Math.abs(x.score - x.expected))) : null,
    exact: n ? mean(points.map((x, i) => Number(level[i] === x.expected))) : null,
    qwk: quadraticWeightedKappa(
      level,
      points.map((x) => x.expected),
      levels,
    ),
    baseline: majorityBaseline(
      points.map((x) => String(x.expected)),
      Array.from({ length: levels }, (_, i) => String(i)),
      (v) => `always level ${v}`,
    ),
  };
}

export function boxMetrics(points: readonly { box: Edges; expected: Edges }[], threshold = DEFAULT_IOU_THRESHOLD) {
  const ious = points.map((x) => iou(x.box, x.expected));
  return {
    type: 'box' as const,
    n: points.length,
    mean_iou: ious.length ? mean(ious) : null,
    pass_rate: ious.length ? mean(ious.map((v) => Number(v >= threshold))) : null,
    iou_threshold: threshold,
  };
}

/** The option names or level indexes a question's answers range over. */
export function questionLabels(question: Question): string[] {
  if (question.type === 'choice') return Object.keys(question.criteria);
  if (question.type === 'score') return question.criteria.map((_, i) => String(i));
  if (question.type === 'noul') return ['false', 'true'];
  return [];
}

export { percentile };
