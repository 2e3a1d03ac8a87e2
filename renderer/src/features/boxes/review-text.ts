import type { BoxItem } from '../../../../shared/schemas/inspector';
import { answersOf, iousOf } from './review';

/**
 * What is said where the review moves (WCAG 4.1.3): the image now shown, how far along the queue
 * it is, and what there is to judge on it, as the review bar shows it.
 */
export function imageLine(item: Pick<BoxItem, 'name' | 'answer' | 'answers' | 'truth'>, at: number, of: number): string {
  const scores = iousOf(item);
  const answered = Object.keys(answersOf(item));
  const judged = answered.map((q) => (q in scores ? `${q} IoU ${scores[q]!.toFixed(3)}` : `${q} no truth`));
  const what = judged.length > 0 ? judged.join(', ') : item.truth.length > 0 ? 'no answer yet' : 'no answer and no truth yet';
  return `${item.name}, image ${at + 1} of ${of}: ${what}.`;
}

/** A verdict given, on one answer or on the whole image (question null), or cleared. */
export function verdictLine(question: string | null, verdict: BoxItem['verdict']): string {
  const what = question === null ? 'The whole image' : question;
  return verdict === null ? `${what}: verdict cleared.` : `${what} ${verdict}.`;
}
