/**
 * Temperature scaling (issue 12): noul p' = σ(logit(p)/T); choice and score p'_k = softmax(ln p_k / T).
 * For noul the two are the same map over {p, 1 − p}, so one function serves all three.
 */
import { MAX_TEMPERATURE, type CalibrationSummary } from '../../../../shared/schemas/evaluation';
import { calibrationError, CLIP } from '../reports/metrics';

export const MIN_TEMPERATURE = 0.05;

/** One labelled answer as a distribution over labels, the label it predicted and the expected one. */
export interface CalibrationPoint {
  /** 0-based position of the item in dataset order */
  position: number;
  probabilities: Record<string, number>;
  predicted: string;
  expected: string;
}

const clip = (p: number) => Math.min(1 - CLIP, Math.max(CLIP, p));

/** softmax(ln p_k / T); labels with p = 0 stay 0. */
export function scaleProbabilities(probabilities: Record<string, number>, temperature: number): Record<string, number> {
  const entries = Object.entries(probabilities);
  const logits = entries.map(([, p]) => (p <= 0 ? -Infinity : Math.log(p) / temperature));
  const top = Math.max(...logits);
  if (!Number.isFinite(top)) return { ...probabilities };
  const weights = logits.map((l) => Math.exp(l - top));
  const total = weights.reduce((a, b) => a + b, 0);
  return Object.fromEntries(entries.map(([k], i) => [k, weights[i]! / total]));
}

/** The calibrated noul probability: σ(logit(p)/T), with p clipped away from 0 and 1. */
export function scaleNoul(p: number, temperature: number): number {
  const c = clip(p);
  return 1 / (1 + Math.exp(-Math.log(c / (1 - c)) / temperature));
}

/** A point as log-probabilities, so a temperature costs arithmetic only (fits try ~80 of them). */
interface Prepared {
  logs: Float64Array;
  expected: number;
  predicted: number;
  correct: boolean;
}

function prepare(points: readonly CalibrationPoint[]): Prepared[] {
  return points.map((x) => {
    const keys = Object.keys(x.probabilities);
    for (const k of [x.expected, x.predicted]) if (!keys.includes(k)) keys.push(k);
    const logs = Float64Array.from(keys, (k) => {
      const p = x.probabilities[k] ?? 0;
      return p <= 0 ? -Infinity : Math.log(p);
    });
    return { logs, expected: keys.indexOf(x.expected), predicted: keys.indexOf(x.predicted), correct: x.predicted === x.expected };
  });
}

const LOG_MIN = Math.log(CLIP);
const LOG_MAX = Math.log1p(-CLIP);

/** ln p'_k and ln p'_j at temperature T (softmax of ln p / T), without building a distribution. */
function scaledLog(x: Prepared, temperature: number, k: number): number {
  let top = -Infinity;
  for (const l of x.logs) if (l / temperature > top) top = l / temperature;
  if (!Number.isFinite(top)) return -Infinity;
  let sum = 0;
  for (const l of x.logs) sum += Math.exp(l / temperature - top);
  return x.logs[k]! / temperature - top - Math.log(sum);
}

function preparedLogLoss(points: readonly Prepared[], temperature: number): number {
  let total = 0;
  for (const x of points) total -= Math.min(LOG_MAX, Math.max(LOG_MIN, scaledLog(x, temperature, x.expected)));
  return total / points.length;
}

export function logLoss(points: readonly CalibrationPoint[], temperature = 1): number {
  return preparedLogLoss(prepare(points), temperature);
}

export function expectedCalibrationError(points: readonly CalibrationPoint[], temperature = 1): number | null {
  return calibrationError(prepare(points).map((x) => ({ confidence: Math.exp(scaledLog(x, temperature, x.predicted)), correct: x.correct }))).ece;
}

/** T minimising log loss, by golden-section search over ln T in [ln 0.05, ln 20] (60 steps: a bracket of 1e-12). */
export function fitTemperature(points: readonly CalibrationPoint[]): number {
  const prepared = prepare(points);
  const f = (u: number) => preparedLogLoss(prepared, Math.exp(u));
  let a = Math.log(MIN_TEMPERATURE);
  let b = Math.log(MAX_TEMPERATURE);
  const g = (Math.sqrt(5) - 1) / 2;
  let c = b - g * (b - a);
  let d = a + g * (b - a);
  let fc = f(c);
  let fd = f(d);
  for (let i = 0; i < 60; i += 1) {
    if (fc <= fd) {
      b = d;
      d = c;
      fd = fc;
      c = b - g * (b - a);
      fc = f(c);
    } else {
      a = c;
      c = d;
      fc = fd;
      d = a + g * (b - a);
      fd = f(d);
    }
  }
  return Math.exp((a + b) / 2);
}

/** Fit on even positions, report before and after on odd positions; null when either half is empty. */
export function calibrate(points: readonly CalibrationPoint[]): CalibrationSummary | null {
  const fit = points.filter((x) => x.position % 2 === 0);
  const held = points.filter((x) => x.position % 2 === 1);
  if (fit.length === 0 || held.length === 0) return null;
  const temperature = fitTemperature(fit);
  return {
    temperature,
    ece_before: expectedCalibrationError(held),
    ece_after: expectedCalibrationError(held, temperature),
    log_loss_before: logLoss(held),
    log_loss_after: logLoss(held, temperature),
  };
}
