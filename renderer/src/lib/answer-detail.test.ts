import { describe, expect, it } from 'vitest';
import { choiceConfidence, scoredLevel } from './answer-detail';

describe('scoredLevel', () => {
  it('is the most probable level, the lowest on a tie, with its name', () => {
    // Expected score 0.99, but level 0 is the most probable: the metrics count it as level 0.
    expect(
      scoredLevel({ type: 'score', score: 0.993, probabilities: { '0': 0.338, '1': 0.331, '2': 0.331 }, legend: { '0': 'low', '1': 'medium', '2': 'high' } }),
    ).toBe('level 0 (low)');
    // A level written as "name: guidance" is named by its name alone.
    expect(
      scoredLevel({ type: 'score', score: 1.9, probabilities: { '2': 0.9, '1': 0.1 }, legend: { '2': 'angry: furious, unacceptable, cancel, lawyer' } }),
    ).toBe('level 2 (angry)');
    expect(scoredLevel({ type: 'score', score: 1.5, probabilities: { '2': 0.5, '1': 0.5 } })).toBe('level 1');
  });

  it('rounds the score when there are no probabilities, and is null for other answers', () => {
    expect(scoredLevel({ type: 'score', score: 1.6 })).toBe('level 2');
    expect(scoredLevel({ type: 'noul', noul: 0.4 })).toBeNull();
    expect(scoredLevel(undefined)).toBeNull();
  });
});

describe('choiceConfidence', () => {
  it('is named confidence, not p (it is 1 − H/ln n, not a probability), for choice answers only', () => {
    expect(choiceConfidence({ type: 'choice', choice: 'billing', confidence: 0.643 })).toBe('confidence 0.64');
    expect(choiceConfidence({ type: 'score', score: 1 })).toBeNull();
  });
});
