import { describe, expect, it } from 'vitest';
import { imageTokens } from './image-tokens';

describe('image tokens', () => {
  it('follows the published examples', () => {
    // OpenAI's examples: 1024 × 1024 → 768 × 768, 4 tiles: 85 + 4 × 170 = 765.
    expect(imageTokens(1024, 1024)).toBe(765);
    // 2048 × 4096 → fits 1024 × 2048 → 768 × 1536, 2 × 3 tiles: 85 + 6 × 170 = 1105.
    expect(imageTokens(2048, 4096)).toBe(1105);
    // A small image is not scaled up: 400 × 300 is one tile, 255.
    expect(imageTokens(400, 300)).toBe(255);
  });
});
