import { describe, expect, it } from 'vitest';
import { describeCascade, describeCondition } from './describe';

describe('a cascade condition in words', () => {
  it('names the question and the figure each leaf reads', () => {
    expect(describeCondition({ question: 'topic', confidenceBelow: 0.62 })).toBe('topic: confidence below 0.62');
    expect(describeCondition({ question: 'late', probabilityBetween: [0.4, 0.6] })).toBe('late: P(yes) from 0.4 to 0.6');
  });

  it('says which questions a leaf without a question reads', () => {
    expect(describeCondition({ confidenceBelow: 0.5 })).toBe('any choice, score or box question: confidence below 0.5');
    expect(describeCondition({ probabilityBetween: [0.3, 0.7] })).toBe('any yes/no question: P(yes) from 0.3 to 0.7');
  });

  it('reads combinators and their nesting', () => {
    expect(
      describeCondition({
        atLeast: {
          count: 2,
          conditions: [
            { question: 'a', confidenceBelow: 0.5 },
            { any: [{ question: 'b', probabilityBetween: [0.4, 0.6] }, { all: [{ confidenceBelow: 0.9 }, { question: 'c', confidenceBelow: 0.1 }] }] },
            { question: 'd', confidenceBelow: 0.7 },
          ],
        },
      }),
    ).toBe(
      'at least 2 of (a: confidence below 0.5; any of (b: P(yes) from 0.4 to 0.6; all of (any choice, score or box question: confidence below 0.9; c: confidence below 0.1)); d: confidence below 0.7)',
    );
  });

  it('puts both models before the condition', () => {
    expect(describeCascade('sandbox/cheap-mini', 'sandbox/sharp-large', { question: 'topic', confidenceBelow: 0.62 })).toBe(
      'sandbox/cheap-mini → sandbox/sharp-large, when topic: confidence below 0.62',
    );
    expect(describeCascade(null, 'm2', { confidenceBelow: 0.5 })).toBe('a first model → m2, when any choice, score or box question: confidence below 0.5');
  });
});
