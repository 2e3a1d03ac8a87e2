import type { BoxItem } from '../../../../shared/schemas/inspector';

/** Why a verdict is stale, as the queue says it: in words, and short enough for a queue row (the difference first). */
const STALE_WORDS: Record<NonNullable<BoxItem['stale_reason']>, { label: string; short: string }> = {
  rerun_unchanged: { label: 're-run since verdict (answer unchanged)', short: 're-run: answer unchanged' },
  rerun_changed: { label: 're-run since verdict (answer changed)', short: 're-run: answer changed' },
  truth_changed: { label: 'truth edited since verdict', short: 'truth edited since' },
  answers_differ: { label: 'verdict on other answers', short: 'verdict on other answers' },
};

/** Short words for a stale verdict, as the queue shows them. */
export function staleLabel(reason: BoxItem['stale_reason']): string {
  return (reason && STALE_WORDS[reason]?.label) ?? 'stale';
}

/** The same, short enough for a queue row, the difference first. */
export function staleShort(reason: BoxItem['stale_reason']): string {
  return (reason && STALE_WORDS[reason]?.short) ?? 'stale';
}

/**
 * What a stale verdict means and what to do, as the review bar says it. `confirmKey` is the key that
 * gives the same verdict again (A or R unless changed in Settings), null when that shortcut is off.
 */
export function staleAdvice(item: Pick<BoxItem, 'verdict' | 'stale_reason'>, confirmKey: string | null = item.verdict === 'accepted' ? 'A' : 'R'): string {
  const given = item.verdict === 'accepted' ? 'Accepted' : 'Rejected';
  const confirm = confirmKey ? `Press ${confirmKey} to confirm it.` : `${item.verdict === 'accepted' ? 'Accept' : 'Reject'} it again to confirm it.`;
  switch (item.stale_reason) {
    case 'rerun_unchanged':
      return `Re-run since verdict (answer unchanged): ${given.toLowerCase()} before the item was run again, and the new answer has the same boxes. ${confirm}`;
    case 'rerun_changed':
      return `Re-run since verdict (answer changed): ${given.toLowerCase()} before the item was run again, and the new answer has other boxes. Check them and give the verdict again.`;
    case 'truth_changed':
      return `Truth edited since verdict: ${given.toLowerCase()} against other truth boxes. Check the IoU and give the verdict again.`;
    default:
      return `${given} on other answers: the boxes shown are not those judged (another run). Check them and give the verdict again.`;
  }
}

/** Who gave the answer a verdict is on: its model, or "model unknown" for verdicts given before they were per model. */
export const verdictOwner = (item: Pick<BoxItem, 'verdict' | 'verdict_model'>): string | null =>
  item.verdict === null ? null : (item.verdict_model ?? 'model unknown');
