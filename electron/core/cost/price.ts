/**
 * The one price formula: USD for tokens and calls at an endpoint's prices. What a request is charged
 * (decisions/usage.ts), what a budget holds for it, what it is expected to cost (cost-model.ts) and
 * what ZDR would cost are all this, on different counts.
 */
import type { Prices } from '../catalog/types';

/** What one upstream call bills: tokens by class, and the images it carried where an endpoint prices images. */
export interface Billed {
  /** every input token, cached and cache-written ones included */
  input: number;
  cached?: number;
  written?: number;
  output: number;
  images?: number;
}

/** USD for one call; null when a price it needs is unknown (output unpriced is fine when none is billed). */
export function priceCall(p: Prices, b: Billed): number | null {
  const cached = b.cached ?? 0;
  const written = b.written ?? 0;
  if (p.prompt === null || (b.output > 0 && p.completion === null)) return null;
  const uncached = Math.max(0, b.input - cached - written);
  return (
    uncached * p.prompt +
    cached * (p.cacheRead ?? p.prompt) +
    written * (p.cacheWrite ?? p.prompt) +
    b.output * (p.completion ?? 0) +
    (p.request ?? 0) +
    (p.image ?? 0) * (b.images ?? 0)
  );
}

/** The most one call can cost with at most these tokens: input at its dearest class (uncached, cache read or cache write). */
export function priceCeiling(p: Prices, call: { input: number; output: number }): number | null {
  if (p.prompt === null || p.completion === null) return null;
  const input = Math.max(p.prompt, p.cacheRead ?? 0, p.cacheWrite ?? 0);
  return call.input * input + call.output * p.completion + (p.request ?? 0);
}

/** USD per 1,000 requests of `input` and `output` tokens each at list prices (one call each); null when a price is unknown. */
export function listPricePerThousand(p: Prices, traffic: { input: number; output: number }): number | null {
  const one = priceCall(p, { input: traffic.input, output: traffic.output });
  return one === null ? null : 1000 * one;
}
