import { createHash } from 'node:crypto';

/**
 * What a strict loopback decision host answers when no fixture holds the request: a distribution
 * per question that depends only on the question (a hash of it), rounded as the host rounds, each
 * value rounded on its own so that sums drift as real hosts' do (0.99, 1.01). The choice is the most
 * likely option before rounding, the score the mean before rounding (then rounded), and the
 * confidence a separate statistic (1 − normalised entropy), as TypeSafe and Perplexity document theirs.
 * Tests compare what the gateway passes on with what the host recorded it sent, never with these
 * formulas.
 */
export interface HostDistribution {
  /** Rounded, in option order. */
  probabilities: number[];
  /** Index of the chosen option. */
  chosen: number;
  /** Σ i·p(i), rounded. */
  mean: number;
  confidence: number;
}

export function hostDistribution(seed: string, n: number, decimals: number): HostDistribution {
  const bytes = createHash('sha256').update(seed).digest();
  const weights = Array.from({ length: n }, (_, i) => 1 + bytes[i % bytes.length]! * (1 + (i % 3)));
  const total = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((w) => w / total);
  const round = (x: number) => Number(x.toFixed(decimals));
  const chosen = exact.indexOf(Math.max(...exact));
  const entropy = -exact.reduce((s, p) => s + p * Math.log(p), 0);
  return {
    probabilities: exact.map(round),
    chosen,
    mean: round(exact.reduce((s, p, i) => s + i * p, 0)),
    confidence: n < 2 ? 1 : round(1 - entropy / Math.log(n)),
  };
}

/** P(true) for a yes/no question, rounded. */
export const hostProbability = (seed: string, decimals: number): number => hostDistribution(seed, 2, decimals).probabilities[0]!;

/** Tokens as the loopback hosts count them (4 characters a token): only what they report back. */
export const hostTokens = (text: string): number => Math.max(1, Math.ceil(text.length / 4));
