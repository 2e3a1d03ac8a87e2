import { describe, expect, it } from 'vitest';
import { sharedLabels } from './chart-labels';

describe('sharedLabels', () => {
  it('names every model at one place once, on the first of them, and each other model on its own', () => {
    const points = [
      { model: 'sandbox/baseline-text', cost: 0.0359, value: 0.65 },
      { model: 'sandbox/sharp-large', cost: 2.64, value: 0.95 },
      { model: 'sandbox/skewed-small', cost: 0.03590001, value: 0.6500001 },
    ];
    expect(sharedLabels(points)).toEqual(['baseline-text, skewed-small', 'sharp-large', '']);
  });

  it('keeps apart points that differ in what the tooltip shows', () => {
    expect(
      sharedLabels([
        { model: 'a/x', cost: 1, value: 0.5 },
        { model: 'a/y', cost: 1, value: 0.501 },
      ]),
    ).toEqual(['x', 'y']);
  });
});
