/**
 * Temperature scaling (issue 12): noul p' = σ(logit(p)/T); choice and score p'_k = softmax(ln p_k / T).
 * For noul the two are the same map over {p, 1 − p}, so one function serves all three.
 */
import type { CalibrationSummary } from '../../../shared/schemas/evaluation';
import { calibrationError, CLIP } from './metrics';

export const MIN_TEMPERATURE = 0.05;
export const MAX_TEMPERATURE = 20;

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

export function logLoss(points: readonly CalibrationPoint[], temperature = 1): number {
  let total = 0;
  for (const x of points) total -= Math.log(clip(scaleProbabilities(x.probabilities, temperature)[x.expected] ?? 0));
  return total / points.length;
}

export function expectedCalibrationError(points: readonly CalibrationPoint[], temperature = 1): number | null {
  return calibrationError(
    points.map((x) => {
      const p = scaleProbabilities(x.probabilities, temperature);
      return { confidence: p[x.predicted] ?? 0, correct: x.predicted === x.expected };
    }),
  ).ece;
}

/** T minimising log loss, by golden-section search over ln T in [ln 0.05, ln 20]. */
export function fitTemperature(points: readonly CalibrationPoint[]): number {
  const f = (u: number) => logLoss(points, Math.exp(u));
  let a = Math.log(MIN_TEMPERATURE);
  let b = Math.log(MAX_TEMPERATURE);
  const g = (Math.sqrt(5) - 1) / 2;
  let c = b - g * (b - a);
  let d = a + g * (b - a);
  let fc = f(c);
  let fd = f(d);
  for (let i = 0; i < 80; i += 1) {
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
