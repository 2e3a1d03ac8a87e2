/**
 * USD per item of a model, over the items whose cost is known; null when none is. The screen shows
 * it per 1,000 items, the command line's report per item: both read it from here.
 */
export function costPerItem(m: { items: number; cost_unknown: number; cost_usd: number }): number | null {
  const priced = m.items - m.cost_unknown;
  return priced > 0 ? m.cost_usd / priced : null;
}
