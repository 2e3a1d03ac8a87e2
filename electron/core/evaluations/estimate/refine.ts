/**
 * Refining a run's expected cost from its answered items. The estimate counts the tokens of a sample
 * of items; the tokens of a request grow with its item's state, so a run's first items (often
 * shorter or longer than the average) say little against the average request. Instead each model's
 * estimated tokens are fitted as a line in the length of an item's state, and the tokens its answered
 * requests measured are set against what that line says for those same items: the expected cost of
 * that model is scaled by the ratio (its prices stay those routing is expected to pay).
 */
import type { RunEstimate } from '../../../../shared/schemas/evaluation';

/** A request's estimated tokens as `fixed + per_char × characters of the item's state (as stored, JSON)`. */
export interface TokenFit {
  fixed: number;
  per_char: number;
}

/** Least squares over the sampled items; a flat line through the mean when their lengths are all alike. */
export function fitTokens(points: readonly { chars: number; tokens: number }[]): TokenFit {
  if (points.length === 0) return { fixed: 0, per_char: 0 };
  const n = points.length;
  const mx = points.reduce((s, p) => s + p.chars, 0) / n;
  const my = points.reduce((s, p) => s + p.tokens, 0) / n;
  const sxx = points.reduce((s, p) => s + (p.chars - mx) ** 2, 0);
  const sxy = points.reduce((s, p) => s + (p.chars - mx) * (p.tokens - my), 0);
  const per_char = sxx > 0 ? sxy / sxx : 0;
  return { fixed: my - per_char * mx, per_char };
}

/** What one model's answered requests measured: how many, the characters of their items' states, their tokens. */
export interface Answered {
  variant: number;
  n: number;
  chars: number;
  tokens: number;
}

/**
 * The run's expected cost with each model's expectation scaled by its measured tokens against the
 * fitted tokens of the same items; a model with nothing answered yet takes the ratio of all the
 * answered requests. Null when an expected cost is unknown or nothing is answered.
 */
export function refinedExpectation(variants: readonly { expected_usd: number | null; fit: TokenFit }[], answered: readonly Answered[]): number | null {
  if (variants.some((v) => v.expected_usd === null)) return null;
  const ratios = new Map<number, { measured: number; fitted: number }>();
  for (const a of answered) {
    const v = variants[a.variant];
    if (!v) continue;
    const fitted = a.n * v.fit.fixed + a.chars * v.fit.per_char;
    if (fitted > 0) ratios.set(a.variant, { measured: a.tokens, fitted });
  }
  if (ratios.size === 0) return null;
  const all = [...ratios.values()].reduce((s, r) => ({ measured: s.measured + r.measured, fitted: s.fitted + r.fitted }), { measured: 0, fitted: 0 });
  return variants.reduce((sum, v, i) => {
    const r = ratios.get(i) ?? all;
    return sum + v.expected_usd! * (r.measured / r.fitted);
  }, 0);
}

/** Answered requests before the expected cost is refined from what they cost. */
export const MIN_FOR_EXPECTATION = 5;

/**
 * The run's expected cost now: what is spent, and for each model's items not yet answered, what its
 * answered items cost each (over MIN_FOR_EXPECTATION of them, every cost known); a model with fewer
 * answered takes its share of the estimate scaled by its measured tokens against the fit
 * (refinedExpectation's ratio), or without an estimate the mean spend per answered item of the
 * others. So it is never below what is spent, and once items are answered it follows what they
 * cost, whichever endpoints routing sent them to. Null before MIN_FOR_EXPECTATION requests are
 * answered, or when a model's cost per item is unknown.
 */
export function runExpectation(
  answered: readonly (Answered & { cost: number | null; unknown: number })[],
  run: { items: number; variants: number; spent: number },
  estimate: RunEstimate | null,
): { expected_usd: number | null; expected_from: number } {
  const n = answered.reduce((s, a) => s + a.n, 0);
  if (n < MIN_FOR_EXPECTATION || run.items === 0) return { expected_usd: null, expected_from: n };
  const measured = (a: (typeof answered)[number] | undefined) => (a && a.n >= MIN_FOR_EXPECTATION && a.unknown === 0 && a.cost !== null ? a.cost / a.n : null);
  const known = answered.map(measured).filter((x): x is number => x !== null);
  let expected = run.spent;
  for (let v = 0; v < run.variants; v += 1) {
    const a = answered.find((x) => x.variant === v);
    let perItem = measured(a);
    if (perItem === null) perItem = fromEstimate(estimate, v, run.items, answered);
    if (perItem === null && known.length > 0) perItem = known.reduce((s, x) => s + x, 0) / known.length;
    if (perItem === null) return { expected_usd: null, expected_from: n };
    expected += Math.max(0, run.items - (a?.n ?? 0)) * perItem;
  }
  return { expected_usd: expected, expected_from: n };
}

/** A model's expected cost per item from the estimate, scaled by what the answered tokens say against its fit. */
function fromEstimate(estimate: RunEstimate | null, variant: number, items: number, answered: readonly Answered[]): number | null {
  const v = estimate?.variants?.[variant];
  if (!v || v.expected_usd === null) return null;
  const scaled = refinedExpectation(
    [{ ...v, expected_usd: v.expected_usd }],
    answered.filter((a) => a.variant === variant).map((a) => ({ ...a, variant: 0 })),
  );
  return (scaled ?? v.expected_usd) / items;
}
