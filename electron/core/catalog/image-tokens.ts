/**
 * Input tokens an image counts as, by OpenAI's published rule for "high" detail (platform.openai.com,
 * Images and vision, "Calculating costs"): the image is scaled to fit in 2048 × 2048, then so that
 * its shortest side is 768 (never scaled up), and counts 85 tokens plus 170 for each 512-pixel tile
 * it covers. Other providers count differently (Anthropic about width × height / 750); this rule is
 * what estimates assume, and what the simulated providers bill.
 */
export function imageTokens(width: number, height: number): number {
  if (!(width > 0 && height > 0)) return 85;
  let w = width;
  let h = height;
  const fit = Math.min(1, 2048 / Math.max(w, h));
  w *= fit;
  h *= fit;
  const shortest = Math.min(1, 768 / Math.min(w, h));
  w *= shortest;
  h *= shortest;
  return 85 + 170 * Math.ceil(w / 512) * Math.ceil(h / 512);
}
