/** Items × models with right and wrong marked, and the filters of the results matrix: pure. */
import type { DatasetItem, EvalResultRow } from '../../../../shared/schemas/evaluation';
import type { Question } from '../../../../shared/schemas/question';
import { judge } from '../reports/report';
import { itemText } from './item-text';
import type { StoredEvalResult } from './storage';

export interface MatrixFilter {
  filter: 'all' | 'wrong' | 'disagree' | 'low';
  question?: string | undefined;
  below?: number;
}

/** One item's row: each of its results (`results`, the item's, by variant) judged against what the item expects; null when the filter leaves it out. */
export function matrixRow(
  item: DatasetItem,
  results: readonly StoredEvalResult[],
  questions: readonly [string, Question][],
  keys: readonly string[],
  options: MatrixFilter,
): EvalResultRow | null {
  const cells: EvalResultRow['cells'] = [];
  for (const res of results) {
    const answers = res.answers;
    const correct: Record<string, boolean | null> = {};
    const confidence: Record<string, number | null> = {};
    for (const [name, q] of questions) {
      const j = res.ok ? judge(q, answers[name], item.expected[name]) : { correct: null, confidence: null };
      correct[name] = j.correct;
      confidence[name] = j.confidence;
    }
    cells.push({ variant: keys[res.variant] ?? String(res.variant), ok: res.ok, answers, correct, confidence, error: res.error });
  }
  const marks = cells.flatMap((c) => Object.values(c.correct));
  const keep =
    options.filter === 'all' ||
    (options.filter === 'wrong' && (marks.includes(false) || cells.some((c) => !c.ok))) ||
    (options.filter === 'disagree' && questions.some(([name]) => new Set(cells.map((c) => JSON.stringify(summaryOf(c.answers[name])))).size > 1)) ||
    (options.filter === 'low' && cells.some((c) => Object.values(c.confidence).some((v) => v !== null && v < (options.below ?? 0.7))));
  return keep ? { position: item.position, id: item.id, text: itemText(item.state), expected: item.expected, cells } : null;
}

function summaryOf(answer: unknown): unknown {
  const a = answer as { type?: string; noul?: number; choice?: string; score?: number; probabilities?: Record<string, number>; box?: unknown } | undefined;
  if (!a) return null;
  if (a.type === 'noul') return (a.noul ?? 0) >= 0.5;
  if (a.type === 'choice') return a.choice;
  if (a.type === 'score') return Math.round(a.score ?? 0);
  return a.box ?? null;
}
