import type { BoxItem } from '../../../../shared/schemas/inspector';
import type { BoxImage } from '../../../../shared/box-formats/types';
import { iou } from '../../../../shared/geometry/iou';

/** A box question: its name is the label of its truth boxes; the instructions say what to locate. */
export interface BoxQuestion {
  name: string;
  instructions: string;
}

/** The question an unlabelled truth box (from before labels) and a lone answer belong to. */
export const DEFAULT_QUESTION = 'box';

/** The questions a new workbench starts with: one box around the main object. */
export const DEFAULT_QUESTIONS: readonly BoxQuestion[] = [{ name: DEFAULT_QUESTION, instructions: 'the main object' }];

const labelOf = (b: { label?: string | undefined }) => b.label ?? DEFAULT_QUESTION;

/** The model's answers by question, counting an older item's single answer as question "box". */
export function answersOf(item: Pick<BoxItem, 'answer' | 'answers'>): BoxItem['answers'] {
  if (Object.keys(item.answers).length > 0) return item.answers;
  return item.answer ? { [DEFAULT_QUESTION]: item.answer } : {};
}

/** IoU per question that has both a truth box and an answer on this item. */
export function iousOf(item: Pick<BoxItem, 'answer' | 'answers' | 'truth'>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [q, answer] of Object.entries(answersOf(item))) {
    const truth = item.truth.find((t) => labelOf(t) === q);
    if (truth) out[q] = iou(truth, answer);
  }
  return out;
}

/** The item's lowest IoU over its questions (the one a reviewer must look at), or null. */
export function worstIou(item: Pick<BoxItem, 'answer' | 'answers' | 'truth'>, question?: string): number | null {
  const scores = Object.entries(iousOf(item))
    .filter(([q]) => question === undefined || q === question)
    .map(([, s]) => s);
  return scores.length > 0 ? Math.min(...scores) : null;
}

export type VerdictFilter = 'any' | 'unreviewed' | 'accepted' | 'rejected' | 'stale';

export interface QueueFilter {
  verdict: VerdictFilter;
  /** IoU bounds, inclusive; an item with no IoU passes only when both are open. */
  minIou: number | null;
  maxIou: number | null;
  /** Only items with this question (as truth or answer); undefined for all. */
  question: string | undefined;
}

export const NO_FILTER: QueueFilter = { verdict: 'any', minIou: null, maxIou: null, question: undefined };

/**
 * The verdict a filter looks at: with a question, the one on that question's answer (its own, or the
 * whole image's given to every answer); without one, or on an image judged before verdicts were per
 * answer, the image's.
 */
export function verdictOn(
  item: Pick<BoxItem, 'verdict' | 'stale' | 'verdicts'>,
  question: string | undefined,
): { verdict: BoxItem['verdict']; stale: boolean } {
  if (question === undefined || Object.keys(item.verdicts).length === 0) return { verdict: item.verdict, stale: item.stale };
  const own = item.verdicts[question];
  return own ? { verdict: own.verdict, stale: own.stale } : { verdict: null, stale: false };
}

export function matches(item: BoxItem, f: QueueFilter): boolean {
  const { verdict, stale } = verdictOn(item, f.question);
  if (f.verdict === 'unreviewed' && verdict !== null) return false;
  if ((f.verdict === 'accepted' || f.verdict === 'rejected') && verdict !== f.verdict) return false;
  if (f.verdict === 'stale' && !stale) return false;
  if (f.question !== undefined && !item.truth.some((t) => labelOf(t) === f.question) && !(f.question in answersOf(item))) return false;
  if (f.minIou === null && f.maxIou === null) return true;
  const score = worstIou(item, f.question);
  if (score === null) return false;
  return (f.minIou === null || score >= f.minIou) && (f.maxIou === null || score <= f.maxIou);
}

/** The id after (or before) `id` in the queue; the first one when `id` is not in it; null at the end. */
export function neighbour(ids: readonly string[], id: string | null, step: 1 | -1): string | null {
  const at = id === null ? -1 : ids.indexOf(id);
  if (at < 0) return ids[0] ?? null;
  return ids[at + step] ?? null;
}

/**
 * Questions to run and draw: those chosen, then any label found on truth boxes. The starting
 * question ("box", untouched) is left out when every truth box is labelled: a dataset whose truth
 * names its objects would otherwise be run with an extra question no truth answers.
 */
export function questionsFor(chosen: readonly BoxQuestion[], items: readonly BoxItem[]): BoxQuestion[] {
  const untouched = chosen.length === 1 && chosen[0]!.name === DEFAULT_QUESTIONS[0]!.name && chosen[0]!.instructions === DEFAULT_QUESTIONS[0]!.instructions;
  const truths = items.flatMap((item) => item.truth);
  const allLabelled = truths.length > 0 && truths.every((t) => t.label && t.label !== DEFAULT_QUESTION);
  const out = untouched && allLabelled ? [] : [...chosen];
  for (const t of truths) if (t.label && !out.some((q) => q.name === t.label)) out.push({ name: t.label, instructions: t.label });
  return out;
}

/** Items as the export formats see them: labelled truth, answers with their IoU, the review. */
export function toBoxImages(items: readonly BoxItem[]): BoxImage[] {
  return items.map((item) => {
    const scores = iousOf(item);
    return {
      file: item.name,
      width: item.width,
      height: item.height,
      truth: item.truth.map((t) => ({ label: labelOf(t), top: t.top, left: t.left, bottom: t.bottom, right: t.right })),
      answers: Object.entries(answersOf(item)).map(([label, b]) => ({ label, ...b, iou: scores[label] ?? null, model: item.model })),
      review: { verdict: item.verdict, stale: item.stale, note: item.note },
      // Per answer when the item has verdicts per question (datasets); images from before datasets have one per image.
      ...(Object.keys(item.verdicts).length > 0
        ? { reviews: Object.fromEntries(Object.entries(item.verdicts).map(([q, v]) => [q, { verdict: v.verdict, stale: v.stale, note: v.note }])) }
        : {}),
    };
  });
}
