import { iou, type Edges } from '../../../shared/geometry/iou';
/**
 * Answers and expected answers in words: a yes/no answer as what it says (yes at P(yes) ≥ 0.5)
 * with its P(yes) named, a score as the level it is scored as with its mean, a box with its IoU
 * against the expected box and its edges named, an expected answer as its value.
 */
import { scoredLevel } from './answer-detail';

type AnyAnswer = { type?: string; noul?: number; choice?: string; score?: number; box?: Edges } | undefined;

/** A box's edges, each named by its initial (top, left, bottom, right), as fractions of the image. */
const boxText = (b: Edges) => `t ${b.top.toFixed(2)} l ${b.left.toFixed(2)} b ${b.bottom.toFixed(2)} r ${b.right.toFixed(2)}`;

const isBox = (v: unknown): v is Edges => typeof v === 'object' && v !== null && 'top' in v && 'left' in v && 'bottom' in v && 'right' in v;

/** An answer in words; `expected`, when given, is what a box answer's IoU is taken against. */
export function answerText(answer: unknown, expected?: unknown): string {
  const a = answer as AnyAnswer;
  if (!a) return '—';
  // What it says, then its P(yes) named: "no (0.10)" read as 10% sure of the no.
  if (a.type === 'noul') return `${(a.noul ?? 0) >= 0.5 ? 'yes' : 'no'} · P(yes) ${(a.noul ?? 0).toFixed(2)}`;
  if (a.type === 'choice') return a.choice ?? '—';
  // The level it is scored as (what the mark judges), with the mean beside it: a mean of 0.99 may well be level 0.
  if (a.type === 'score') return `${scoredLevel(a) ?? 'level ?'} · mean ${(a.score ?? 0).toFixed(2)}`;
  if (a.type === 'box' && a.box) return isBox(expected) ? `IoU ${iou(expected, a.box).toFixed(2)} · ${boxText(a.box)}` : boxText(a.box);
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
