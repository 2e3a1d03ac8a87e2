import type { TokenAlternatives } from '../providers/types';
import type { LabelSet } from './labels';

export interface LabelDistribution {
  /** Probability per option key, renormalised over the valid labels; sums to 1. */
  probabilities: Record<string, number>;
  /** Mass the model put on valid labels before renormalising, in [0, 1]. */
  coverage: number;
}

/** Folds spelling variants: leading/trailing space, case, and a trailing ")" "." or ":". */
export function foldToken(token: string): string {
  return token
    .trim()
    .replace(/[).:]+$/, '')
    .toLowerCase();
}

/**
 * Label probabilities from the alternatives at the answer position: sums the probability mass
 * of every variant of each label. Null when the provider gave no alternatives.
 */
export function labelDistribution(tokens: readonly TokenAlternatives[] | null, labels: LabelSet): LabelDistribution | null {
  const position = tokens?.[0];
  if (!position) return null;
  const alternatives = position.top.length > 0 ? position.top : [{ token: position.token, logprob: position.logprob }];
  const wanted = new Map(labels.labels.map((label, i) => [label.toLowerCase(), labels.keys[i]!]));
  const mass = new Map<string, number>(labels.keys.map((k) => [k, 0]));
  const seen = new Set<string>();
  for (const alt of alternatives) {
    // The same token listed twice would count twice.
    if (seen.has(alt.token)) continue;
    seen.add(alt.token);
    const key = wanted.get(foldToken(alt.token));
    if (key !== undefined) mass.set(key, mass.get(key)! + Math.exp(alt.logprob));
  }
  const coverage = Math.min(
    1,
    [...mass.values()].reduce((a, b) => a + b, 0),
  );
  if (coverage <= 0) return { probabilities: Object.fromEntries(labels.keys.map((k) => [k, 0])), coverage: 0 };
  const total = [...mass.values()].reduce((a, b) => a + b, 0);
  return { probabilities: Object.fromEntries([...mass.entries()].map(([k, m]) => [k, m / total])), coverage };
}

/**
 * Rounds probabilities to `digits` places so that they still sum to 1 and the largest stays the
 * largest (largest-remainder rounding; ties keep the caller's order).
 */
export function roundDistribution(probabilities: Record<string, number>, digits = 6): Record<string, number> {
  const scale = 10 ** digits;
  const entries = Object.entries(probabilities);
  const floors = entries.map(([k, p]) => ({ k, p, units: Math.floor(p * scale), rest: p * scale - Math.floor(p * scale) }));
  let missing = scale - floors.reduce((n, f) => n + f.units, 0);
  // Remainders that differ only by the error of p * scale are ordered by p itself, so of two
  // near-equal probabilities the larger gets the unit (else it could round below the smaller).
  const byRest = [...floors].sort((a, b) => (Math.abs(b.rest - a.rest) > 1e-9 ? b.rest - a.rest : b.p - a.p));
  for (const f of byRest) {
    if (missing <= 0) break;
    f.units += 1;
    missing -= 1;
  }
  // Rounding may at most tie the leader with a runner-up that took the last unit; give it back.
  const leader = floors.find((f) => f.k === argmax(probabilities))!;
  const rival = floors.find((f) => f !== leader && f.units >= leader.units);
  if (rival && rival.units > 0) {
    rival.units -= 1;
    leader.units += 1;
  }
  return Object.fromEntries(floors.map((f) => [f.k, f.units / scale]));
}

/** The first key with the highest probability (ties: first in the caller's order). */
export function argmax(probabilities: Record<string, number>): string {
  let best: string | null = null;
  for (const [k, p] of Object.entries(probabilities)) if (best === null || p > probabilities[best]!) best = k;
  return best!;
}

/** Expected level, sum of i * p(i) (the G-Eval weighting). */
export const expectedLevel = (probabilities: Record<string, number>): number =>
  Object.entries(probabilities).reduce((sum, [level, p]) => sum + Number(level) * p, 0);
