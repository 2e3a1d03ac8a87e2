import { describe, expect, it } from 'vitest';
import { boxPlace } from './TruthList';

describe('a truth box in words', () => {
  it('gives its edges in image pixels when the image size is known', () => {
    // 400 × 300 image: 0.1 of the width is 40 px, 0.5 of the height is 150 px.
    expect(boxPlace({ left: 0.1, right: 0.435, top: 0.2, bottom: 0.5 }, { width: 400, height: 300 })).toBe('x 40–174, y 60–150 px');
  });

  it('gives shares of the image when its size is not known yet', () => {
    expect(boxPlace({ left: 0.1, right: 0.4, top: 0.2, bottom: 0.5 }, null)).toBe('x 0.10–0.40, y 0.20–0.50 of the image');
  });
});
