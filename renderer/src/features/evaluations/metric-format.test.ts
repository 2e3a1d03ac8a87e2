import { describe, expect, it } from 'vitest';
import { bestOf, intervalText, marksLegend, provisionalReason } from './metric-format';

describe('reading metrics', () => {
  it("marks the best of a row by the metric's direction, clear only when the others' intervals stay short of it", () => {
    const wide = [
      { low: 0.5, high: 0.9 },
      { low: 0.4, high: 0.8 },
    ];
    expect(bestOf('accuracy', [0.7, 0.6], wide)).toEqual({ index: 0, clear: false });
    expect(
      bestOf(
        'accuracy',
        [0.9, 0.5],
        [
          { low: 0.85, high: 0.95 },
          { low: 0.4, high: 0.6 },
        ],
      ),
    ).toEqual({ index: 0, clear: true });
    // Lower is better for ECE.
    expect(bestOf('ece', [0.2, 0.05], [null, null])).toEqual({ index: 1, clear: false });
    expect(bestOf('accuracy', [0.7, 0.7], wide)).toBeNull();
    expect(bestOf('accuracy', [0.7], wide)).toBeNull();
    expect(bestOf('n', [3, 4], wide)).toBeNull();
  });
  it('says why figures are provisional', () => {
    expect(provisionalReason(0, 30, false)).toBe('no judged items yet');
    expect(provisionalReason(1, 30, true)).toBe('run in progress, 1 judged so far');
    expect(provisionalReason(12, 30, false)).toMatch(/^only 12 judged items \(fewer than 30\)/);
    expect(provisionalReason(40, 30, false)).toBeNull();
  });
  it('writes an interval bracketed, with true minus signs', () => {
    expect(intervalText({ low: -0.0704, high: 0.07 })).toBe('[−0.07, 0.07]');
    // A bound short of 0 keeps its first significant digit: the interval does not touch 0.
    expect(intervalText({ low: -0.0213, high: -0.0004 })).toBe('[−0.02, −0.0004]');
    expect(intervalText({ low: -0.001, high: 0 })).toBe('[−0.001, 0.00]');
    expect(intervalText({ low: -1e-9, high: 0.0049 })).toBe('[0.00, 0.005]');
    expect(intervalText(null)).toBe('');
  });
});

describe('the legend of the best-in-a-row marks', () => {
  it('says how to read them where a question shows them, and when they appear where none does', () => {
    expect(marksLegend([40, 12], 30, false)).toMatch(/^★ best in the row/);
    // Twenty items, fewer than 30: no question shows a mark, so the legend says when they come.
    expect(marksLegend([20, 20], 30, false)).toBe('The best in each row is marked (★, ☆) from 30 judged items; fewer here.');
    expect(marksLegend([40], 30, true)).toBe('The best in each row is marked (★, ☆) once the run has ended.');
  });
});
