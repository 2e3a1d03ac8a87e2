/**
 * The level a score answer is scored as, with its name: the most probable level (the lowest on a
 * tie), else the score rounded, as the metrics count it. A score of 0.99 may well be level 0.
 */
export function scoredLevel(answer: unknown): string | null {
  const best = scoredLevelIndex(answer);
  if (best === null) return null;
  const legend = (answer as { legend?: Record<string, unknown> }).legend?.[String(best)];
  // The level's name: its guidance up to a colon ("angry: furious, …" is "angry"), at most 40 characters.
  const text = typeof legend === 'string' ? legend.split(':')[0]!.trim() : '';
  const name = text.length > 40 ? `${text.slice(0, 39)}…` : text;
  return `level ${best}${name ? ` (${name})` : ''}`;
}

/** The index of the level a score answer is scored as (see `scoredLevel`); null for any other answer. */
export function scoredLevelIndex(answer: unknown): number | null {
  const a = answer as { type?: string; score?: number; probabilities?: Record<string, number> } | undefined;
  if (a?.type !== 'score') return null;
  let best: number | null = null;
  let bestP = -Infinity;
  for (const [key, p] of Object.entries(a.probabilities ?? {})) {
    const level = Number(key);
    if (p > bestP || (p === bestP && best !== null && level < best)) {
      bestP = p;
      best = level;
    }
  }
  if (best === null && typeof a.score === 'number') best = Math.round(a.score);
  return best;
}

/**
 * A choice answer's confidence beside the option, so a calibrated answer shows what changed. Named
 * confidence, not p: it is 1 − H/ln n, how concentrated the distribution is (docs/API.md), not the
 * probability of the option.
 */
export function choiceConfidence(answer: unknown): string | null {
  const a = answer as { type?: string; confidence?: number } | undefined;
  return a?.type === 'choice' && typeof a.confidence === 'number' ? `confidence ${a.confidence.toFixed(2)}` : null;
}
