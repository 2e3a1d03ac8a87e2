import { describe, expect, it } from 'vitest';
import type { EvalResultRow } from '../../../../shared/schemas/evaluation';
import { cellText } from './MatrixRow';
import { answerText, expectedLine, expectedText } from '../../lib/answer-text';

const row = (cells: EvalResultRow['cells'], expected: Record<string, unknown> = {}): EvalResultRow =>
  ({ position: 3, id: 'item-3', text: 'x', expected, cells }) as unknown as EvalResultRow;
const cell = (over: Partial<EvalResultRow['cells'][number]>): EvalResultRow['cells'][number] => ({
  variant: 'a/model',
  ok: true,
  answers: {},
  correct: {},
  confidence: {},
  error: null,
  ...over,
});

describe('results matrix cells', () => {
  it('shows a score as the level it is scored as, with the score beside it', () => {
    // Level 0 is the most probable although the score is high: the mark judges level 0.
    expect(answerText({ type: 'score', score: 0.99, probabilities: { '0': 0.6, '1': 0.1, '2': 0.3 } })).toBe('level 0 · mean 0.99');
    // No probabilities: the score rounded.
    expect(answerText({ type: 'score', score: 1.6 })).toBe('level 2 · mean 1.60');
  });

  it('shows a yes/no answer as what it says, with its P(yes) named beside it', () => {
    // P(yes) 0.10 is a "no", and the cell says so; "no (0.10)" read as 10% sure of the no.
    expect(answerText({ type: 'noul', noul: 0.1 })).toBe('no · P(yes) 0.10');
    expect(answerText({ type: 'noul', noul: 0.5 })).toBe('yes · P(yes) 0.50');
  });

  it('shows a score with its level named and its mean, and a box with its IoU and its edges named', () => {
    const score = { type: 'score', score: 1.23, probabilities: { '0': 0.1, '1': 0.5, '2': 0.4 }, legend: { '1': 'annoyed: some frustration' } };
    expect(answerText(score)).toBe('level 1 (annoyed) · mean 1.23');
    // The answer covers the left half of the expected box: IoU 0.5.
    const expected = { top: 0.1, left: 0.1, bottom: 0.5, right: 0.5 };
    const box = { type: 'box', box: { top: 0.1, left: 0.1, bottom: 0.5, right: 0.3 } };
    expect(answerText(box, expected)).toBe('IoU 0.50 · t 0.10 l 0.10 b 0.50 r 0.30');
    expect(answerText(box)).toBe('t 0.10 l 0.10 b 0.50 r 0.30');
  });

  it('tells an item never sent apart from an unlabelled one and from a failure', () => {
    const answered = cell({ answers: { late: { type: 'noul', noul: 0.8 } }, correct: { late: null } });
    expect(cellText(row([answered]), answered, 'late', null)).toBe('yes · P(yes) 0.80');
    const right = cell({ answers: { late: { type: 'noul', noul: 0.8 } }, correct: { late: true } });
    expect(cellText(row([right], { late: true }), right, 'late', true)).toBe('yes · P(yes) 0.80 ✓');
    expect(cellText(row([], { late: true }), undefined, 'late', undefined)).toBe('not sent');
    const failed = cell({ ok: false, error: 'upstream 503' });
    expect(cellText(row([failed]), failed, 'late', undefined)).toBe('failed');
    // A row whose page has not arrived yet says nothing.
    expect(cellText(undefined, undefined, 'late', undefined)).toBe('');
  });

  it('writes expected answers in words, not JSON', () => {
    expect(expectedText(true)).toBe('yes');
    expect(expectedText(false)).toBe('no');
    expect(expectedText(2)).toBe('level 2');
    expect(expectedText('billing')).toBe('billing');
    expect(expectedText({ top: 0.1, left: 0.2, bottom: 0.5, right: 0.75 })).toBe('t 0.10 l 0.20 b 0.50 r 0.75');
    expect(expectedLine({ urgent: true, category: 'billing' })).toBe('urgent: yes · category: billing');
  });
});
