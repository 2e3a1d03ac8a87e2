import { describe, expect, it } from 'vitest';
import { answeredValue, examplesAsJsonl, expectedChoices, matchesExpected } from './examples';

describe('examples tried in place', () => {
  it('offers the answers a question can have, in words', () => {
    expect(expectedChoices({ type: 'noul', instructions: 'Urgent?' })).toEqual([
      ['true', 'yes'],
      ['false', 'no'],
    ]);
    expect(expectedChoices({ type: 'score', instructions: 'Tone?', criteria: ['calm: polite', 'angry'] })).toEqual([
      ['0', 'level 0 (calm)'],
      ['1', 'level 1 (angry)'],
    ]);
  });
  it('judges an answer against what it should have been', () => {
    expect(matchesExpected({ type: 'noul', noul: 0.8 }, 'true')).toBe(true);
    expect(matchesExpected({ type: 'noul', noul: 0.2 }, 'true')).toBe(false);
    expect(matchesExpected({ type: 'choice', choice: 'billing' }, '')).toBeNull();
    // The most likely level, not the rounded expectation: 0.99 with level 0 most likely is level 0.
    expect(answeredValue({ type: 'score', score: 0.99, probabilities: { '0': 0.5, '1': 0.01, '2': 0.49 } })).toBe('0');
  });
  it('writes the examples as dataset rows with typed expected answers', () => {
    const jsonl = examplesAsJsonl([{ key: 'a', text: 'Charged twice', expected: { urgent: 'true', tone: '2', category: '' } }], {
      urgent: { type: 'noul', instructions: 'Urgent?' },
      tone: { type: 'score', instructions: 'Tone?', criteria: ['calm', 'annoyed', 'angry'] },
      category: { type: 'choice', instructions: 'What?', criteria: { billing: null } },
    } as never);
    expect(JSON.parse(jsonl)).toEqual({ id: 'example-1', state: 'Charged twice', expected: { urgent: true, tone: 2 } });
  });
});
