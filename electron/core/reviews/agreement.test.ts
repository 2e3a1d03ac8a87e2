import { describe, expect, it } from 'vitest';
import { agreement } from './agreement';
import type { StoredReview } from './storage';

const review = (
  position: number,
  reviewer: string,
  answers: Record<string, unknown>,
  at = `2026-03-0${reviewer === 'a' ? 1 : 2}T00:00:00.000Z`,
): StoredReview => ({
  position,
  reviewer,
  at,
  answers,
  flagged: false,
  second_wanted: reviewer === 'a',
});

describe("reviewers' agreement", () => {
  it("is Cohen's kappa per question with its interval, worked as in the textbook's 2×2 example", () => {
    // 50 items: both yes 20, both no 15, a yes b no 5, a no b yes 10 (po = 0.7, pe = 0.5·0.6 + 0.5·0.4 = 0.5, kappa = 0.4).
    const cells: [boolean, boolean, number][] = [
      [true, true, 20],
      [false, false, 15],
      [true, false, 5],
      [false, true, 10],
    ];
    const reviews: StoredReview[] = [];
    let position = 0;
    for (const [a, b, count] of cells)
      for (let i = 0; i < count; i += 1, position += 1) reviews.push(review(position, 'a', { late: a }), review(position, 'b', { late: b }));
    const [late] = agreement(reviews);
    expect(late!.pairs).toBe(50);
    expect(late!.observed).toBeCloseTo(0.7, 10);
    expect(late!.kappa).toBeCloseTo(0.4, 10);
    // SE = sqrt(0.7·0.3 / (50·0.25)) = 0.1296…
    expect(late!.low).toBeCloseTo(0.4 - 1.96 * Math.sqrt(0.21 / 12.5), 10);
    expect(late!.high).toBeCloseTo(0.4 + 1.96 * Math.sqrt(0.21 / 12.5), 10);
  });

  it('leaves out items reviewed once, flagged reviews and box answers; no kappa when chance agreement is certain', () => {
    const reviews = [
      review(0, 'a', { mood: 'calm', area: { top: 0, bottom: 1, left: 0, right: 1 } }),
      review(0, 'b', { mood: 'calm', area: { top: 0, bottom: 1, left: 0, right: 1 } }),
      review(1, 'a', { mood: 'calm' }),
      { ...review(2, 'a', { mood: 'angry' }) },
      { ...review(2, 'b', {}), flagged: true },
    ];
    expect(agreement(reviews)).toEqual([{ question: 'mood', pairs: 1, observed: 1, kappa: null, low: null, high: null }]);
  });
});
