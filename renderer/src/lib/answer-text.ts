import type { Edges } from '../../../shared/geometry/iou';
/**
 * Answers and expected answers in words: a yes/no answer as what it says (yes at P(true) ≥ 0.5)
 * with its probability, a score as the level it is scored as, an expected answer as its value.
 */
import { scoredLevelIndex } from './answer-detail';

type AnyAnswer = { type?: string; noul?: number; choice?: string; score?: number; box?: Edges } | undefined;

const boxText = (b: Edges) => `[${[b.top, b.left, b.bottom, b.right].map((v) => v.toFixed(2)).join(' ')}]`;

export function answerText(answer: unknown): string {
  const a = answer as AnyAnswer;
  if (!a) return '—';
  // What it says, then its P(true): "no (0.10)" is a no whose P(true) is 0.10.
  if (a.type === 'noul') return `${(a.noul ?? 0) >= 0.5 ? 'yes' : 'no'} (${(a.noul ?? 0).toFixed(2)})`;
  if (a.type === 'choice') return a.choice ?? '—';
  // The level it is scored as (what the mark judges), with the score beside it: 0.99 may well be level 0.
  if (a.type === 'score') return `level ${scoredLevelIndex(a) ?? '?'} (${(a.score ?? 0).toFixed(2)})`;
  if (a.type === 'box' && a.box) return boxText(a.box);
  return '—';
}

/** An expected answer as people write it: yes/no, the option, "level 2", a box's edges; "none" when absent. */
export function expectedText(value: unknown): string {
  if (value === undefined || value === null) return 'none';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number') return `level ${value}`;
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && 'top' in value) return boxText(value as Edges);
  return JSON.stringify(value);
}

/** Every expected answer of an item: "urgent: yes · category: billing". */
export function expectedLine(expected: Record<string, unknown>): string {
  const entries = Object.entries(expected);
  return entries.length === 0 ? 'no expected answers' : entries.map(([q, v]) => `${q}: ${expectedText(v)}`).join(' · ');
}
