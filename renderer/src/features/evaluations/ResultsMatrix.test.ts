import { describe, expect, it } from 'vitest';
import type { EvalResultRow } from '../../../../shared/schemas/evaluation';
import { answerText, cellText } from './ResultsMatrix';

const row = (cells: EvalResultRow['cells'], expected: Record<string, unknown> = {}): EvalResultRow => ({ position: 3, id: 'item-3', expected, cells }) as unknown as EvalResultRow;
const cell = (over: Partial<EvalResultRow['cells'][number]>): EvalResultRow['cells'][number] => ({ variant: 'a/model', ok: true, answers: {}, correct: {}, confidence: {}, error: null, ...over });

describe('results matrix cells', () => {
  it('shows a score as the level it is scored as, with the score beside it', () => {
    // Level 0 is the most probable although the score is high: the mark judges level 0.
    expect(answerText({ type: 'score', score: 0.99, probabilities: { '0': 0.6, '1': 0.1, '2': 0.3 } })).toBe('L0 (0.99)');
    // No probabilities: the score rounded.
    expect(answerText({ type: 'score', score: 1.6 })).toBe('L2 (1.60)');
  });

  it('tells an item never sent apart from an unlabelled one and from a failure', () => {
    const answered = cell({ answers: { late: { type: 'noul', noul: 0.8 } }, correct: { late: null } });
    expect(cellText(row([answered]), answered, 'late', null)).toBe('0.80');
    const right = cell({ answers: { late: { type: 'noul', noul: 0.8 } }, correct: { late: true } });
    expect(cellText(row([right], { late: true }), right, 'late', true)).toBe('0.80 ✓');
    expect(cellText(row([], { late: true }), undefined, 'late', undefined)).toBe('not sent');
    const failed = cell({ ok: false, error: 'upstream 503' });
    expect(cellText(row([failed]), failed, 'late', undefined)).toBe('failed');
    // A row whose page has not arrived yet says nothing.
    expect(cellText(undefined, undefined, 'late', undefined)).toBe('');
  });
});
