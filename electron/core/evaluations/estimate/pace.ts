/**
 * How fast a run will send one model's requests, from how long that model's newest answered items
 * took in any run (sending, our own work on images and prompts, the answer: an endpoint's time to a
 * first token leaves most of that out). An item's time grows with its tokens (a larger image, a
 * longer text), so the times are fitted on the tokens: a line by least squares, neither part below
 * zero; with items all of one size, their mean.
 */
import type { Pace } from '../../cost/cost-model';
import type { EvalResults } from '../results/eval-results';

/** A model's newest answered items whose times set a run's pace. */
export const PACE_ITEMS = 200;

export interface ItemTimeFit {
  /** ms of an item before its tokens count */
  base: number;
  /** ms per token (input and output) */
  perToken: number;
  items: number;
  /** The fewest and most tokens of the fitted items: outside them the line is not followed (its nearer end is taken). */
  minTokens: number;
  maxTokens: number;
}

/** The line through items' times against their tokens; null without items. */
export function fitItemTime(rows: readonly { ms: number; tokens: number }[]): ItemTimeFit | null {
  const n = rows.length;
  if (n === 0) return null;
  const range = { minTokens: Math.min(...rows.map((r) => r.tokens)), maxTokens: Math.max(...rows.map((r) => r.tokens)) };
  const meanTokens = rows.reduce((s, r) => s + r.tokens, 0) / n;
  const meanMs = rows.reduce((s, r) => s + r.ms, 0) / n;
  const squares = rows.reduce((s, r) => s + (r.tokens - meanTokens) ** 2, 0);
  // Items of one size say nothing of how time grows with size.
  if (squares <= 1e-9 * Math.max(1, meanTokens ** 2) * n) return { base: meanMs, perToken: 0, items: n, ...range };
  const slope = Math.max(0, rows.reduce((s, r) => s + (r.tokens - meanTokens) * (r.ms - meanMs), 0) / squares);
  const base = meanMs - slope * meanTokens;
  // A line that would cross below zero at no tokens goes through the origin instead (time in proportion to tokens).
  if (base < 0) return { base: 0, perToken: rows.reduce((s, r) => s + r.ms * r.tokens, 0) / rows.reduce((s, r) => s + r.tokens ** 2, 0), items: n, ...range };
  return { base, perToken: slope, items: n, ...range };
}

/**
 * The fit's time for items of `tokens`, within the tokens it was fitted on: a line through items of
 * a few hundred tokens says little of one of several thousand (a provider's time to a first token
 * grows far more slowly than a prompt), so past its items the nearer end is taken.
 */
export function timeAt(fit: ItemTimeFit, tokens: number): number {
  return fit.base + fit.perToken * Math.min(fit.maxTokens, Math.max(fit.minTokens, tokens));
}

/**
 * Which providers answered the fitted items, as shares (an item answered by several is counted for
 * the first): the endpoints' speeds are weighed against this mix, as the fit's times came from it.
 */
export function providerMix(rows: readonly { provider: string | null }[]): Map<string, number> {
  const mix = new Map<string, number>();
  const named = rows.filter((r) => r.provider !== null);
  for (const r of named) {
    const first = r.provider!.split(', ')[0]!;
    mix.set(first, (mix.get(first) ?? 0) + 1 / named.length);
  }
  return mix;
}

/** A run's pace for one model: its workers shared by the run's models, each request as long as the fit says, on the mix of providers it was fitted on. */
export function runPace(fit: ItemTimeFit | null, model: string, concurrency: number, models: number, mix: ReadonlyMap<string, number> = new Map()): Pace {
  return {
    concurrency: concurrency / Math.max(1, models),
    itemTime: fit
      ? (tokens) => ({
          ms: timeAt(fit, tokens),
          source: `fitted on the tokens of ${model}'s newest ${fit.items} answered item${fit.items === 1 ? '' : 's'}`,
        })
      : null,
    mix,
  };
}

/** The pace of `model`'s requests in a run of `models` models at `concurrency`, from its newest answered items in any run. */
export async function modelPace(results: Pick<EvalResults, 'recentItemTimes'>, model: string, concurrency: number, models: number): Promise<Pace> {
  const rows = await results.recentItemTimes(model, PACE_ITEMS);
  return runPace(fitItemTime(rows), model, concurrency, models, providerMix(rows));
}
