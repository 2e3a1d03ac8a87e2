import type { BoxItem } from '../../../../shared/schemas/inspector';
import { answersOf, iousOf } from './review';
import { verdictOwner } from './stale';

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

/**
 * The image's verdict in one line, under its verdict buttons: with verdicts per answer, which
 * questions' answers were rejected and which accepted (a rejected badge is not a rejected card);
 * a verdict on the whole image is said as one. Then whose answers were judged. Null when nothing is judged.
 */
export function verdictSummary(item: Pick<BoxItem, 'verdict' | 'verdicts' | 'verdict_model'>): string | null {
  // Some answers judged and others not leave the image without a verdict of its own; they are still said.
  const owner = verdictOwner(item) ?? (Object.keys(item.verdicts).length > 0 ? (item.verdict_model ?? 'model unknown') : null);
  if (owner === null) return null;
  const by = (verdict: 'accepted' | 'rejected') =>
    Object.entries(item.verdicts)
      .filter(([, v]) => v.verdict === verdict)
      .map(([q]) => q)
      .sort();
  const rejected = by('rejected');
  const accepted = by('accepted');
  if (Object.values(item.verdicts).every((v) => v.whole_image)) return `${item.verdict === 'accepted' ? 'Accepted' : 'Rejected'} · on the answer of ${owner}`;
  const parts = [...(rejected.length > 0 ? [`Rejected: ${rejected.join(', ')}`] : []), ...(accepted.length > 0 ? [`Accepted: ${accepted.join(', ')}`] : [])];
  return `${parts.join(' · ')} · on the answers of ${owner}`;
}
