/**
 * The report's metrics over items that each count `w[i]` times: what a bootstrap resample is (an
 * item drawn twice counts twice). With every weight 1 they equal the metrics of metrics.ts, which
 * the tests check, so each is also a second implementation of its definition.
 */
import { BINS } from './metrics';

export type Weights = ArrayLike<number>;

export function weightedMean(values: ArrayLike<number>, w: Weights): number | null {
  let sum = 0;
  let total = 0;
  for (let i = 0; i < values.length; i += 1) {
    sum += w[i]! * values[i]!;
    total += w[i]!;
  }
  return total === 0 ? null : sum / total;
}

/**
 * AUROC as the weighted share of (positive, negative) pairs ranked right, ties counting ½, over
 * items in ascending score order (`order`): one pass, so a resample costs no sort.
 */
export function weightedAuroc(order: ArrayLike<number>, scores: ArrayLike<number>, labels: ArrayLike<boolean>, w: Weights): number | null {
  let negativesBelow = 0;
  let wins = 0;
  let positives = 0;
  let negatives = 0;
  for (let i = 0; i < order.length;) {
    // A run of equal scores: its negatives count ½ for its positives, and whole for those above it.
    let j = i;
    let groupPos = 0;
    let groupNeg = 0;
    while (j < order.length && scores[order[j]!] === scores[order[i]!]) {
      const k = order[j]!;
      if (labels[k]) groupPos += w[k]!;
      else groupNeg += w[k]!;
      j += 1;
    }
    wins += groupPos * (negativesBelow + groupNeg / 2);
    negativesBelow += groupNeg;
    positives += groupPos;
    negatives += groupNeg;
    i = j;
  }
  return positives === 0 || negatives === 0 ? null : wins / (positives * negatives);
}

/** ECE over the same 10 equal-width bins as calibrationError. */
export function weightedEce(confidence: ArrayLike<number>, correct: ArrayLike<boolean>, w: Weights): number | null {
  const count = new Float64Array(BINS);
  const conf = new Float64Array(BINS);
  const right = new Float64Array(BINS);
  let total = 0;
  for (let i = 0; i < confidence.length; i += 1) {
    const b = Math.min(BINS - 1, Math.max(0, Math.floor(confidence[i]! * BINS)));
    count[b] = count[b]! + w[i]!;
    conf[b] = conf[b]! + w[i]! * confidence[i]!;
    if (correct[i]) right[b] = right[b]! + w[i]!;
    total += w[i]!;
  }
  if (total === 0) return null;
  let ece = 0;
  for (let b = 0; b < BINS; b += 1) if (count[b]! > 0) ece += (count[b]! / total) * Math.abs(right[b]! / count[b]! - conf[b]! / count[b]!);
  return ece;
}

/** Binary F1 = 2TP / (2TP + FP + FN); null when nothing was true or said true. */
export function weightedF1(said: ArrayLike<boolean>, truth: ArrayLike<boolean>, w: Weights): number | null {
  let tp = 0;
  let wrong = 0;
  for (let i = 0; i < said.length; i += 1) {
    if (said[i] && truth[i]) tp += w[i]!;
    else if (said[i] !== truth[i]) wrong += w[i]!;
  }
  return 2 * tp + wrong === 0 ? null : (2 * tp) / (2 * tp + wrong);
}

/** Macro-F1 over the labels (by index) that occur as expected or predicted, as choiceMetrics counts it. */
export function weightedMacroF1(predicted: ArrayLike<number>, expected: ArrayLike<number>, labels: number, w: Weights): number | null {
  const tp = new Float64Array(labels);
  const fp = new Float64Array(labels);
  const fn = new Float64Array(labels);
  for (let i = 0; i < predicted.length; i += 1) {
    if (w[i] === 0) continue;
    const e = expected[i]!;
    const p = predicted[i]!;
    if (p === e) tp[e] = tp[e]! + w[i]!;
    else {
      if (p >= 0) fp[p] = fp[p]! + w[i]!;
      fn[e] = fn[e]! + w[i]!;
    }
  }
  let sum = 0;
  let occurring = 0;
  for (let k = 0; k < labels; k += 1) {
    const d = 2 * tp[k]! + fp[k]! + fn[k]!;
    if (d === 0) continue;
    sum += (2 * tp[k]!) / d;
    occurring += 1;
  }
  return occurring === 0 ? null : sum / occurring;
}

/** Quadratic weighted kappa of levels 0..levels−1, each item counted by its weight. */
export function weightedQwk(rated: ArrayLike<number>, truth: ArrayLike<number>, levels: number, w: Weights): number | null {
  if (levels < 2) return null;
  const at = (v: number) => Math.min(levels - 1, Math.max(0, v));
  const observed = new Float64Array(levels * levels);
  const histTruth = new Float64Array(levels);
  const histRated = new Float64Array(levels);
  let n = 0;
  for (let i = 0; i < rated.length; i += 1) {
    if (w[i] === 0) continue;
    const e = at(truth[i]!);
    const r = at(rated[i]!);
    observed[e * levels + r] = observed[e * levels + r]! + w[i]!;
    histTruth[e] = histTruth[e]! + w[i]!;
    histRated[r] = histRated[r]! + w[i]!;
    n += w[i]!;
  }
  if (n === 0) return null;
  let num = 0;
  let den = 0;
  for (let i = 0; i < levels; i += 1) {
    for (let j = 0; j < levels; j += 1) {
      const weight = (i - j) ** 2 / (levels - 1) ** 2;
      num += weight * observed[i * levels + j]!;
      den += (weight * histTruth[i]! * histRated[j]!) / n;
    }
  }
  return den === 0 ? null : 1 - num / den;
}
