import type { BoxItem } from '../../../../shared/schemas/inspector';
import { iousOf } from './review';

interface Props {
  item: BoxItem;
  threshold: number;
  autoAdvance: boolean;
  onAutoAdvance: (on: boolean) => void;
  onVerdict: (verdict: BoxItem['verdict']) => void;
  onNote: (note: string) => void;
  onStep: (step: 1 | -1) => void;
}

/** IoU per question, the verdict (marked stale when the answers it judged have changed), the note, and moving on. */
export function ReviewBar({ item, threshold, autoAdvance, onAutoAdvance, onVerdict, onNote, onStep }: Props) {
  const scores = Object.entries(iousOf(item));
  const worst = scores.length > 0 ? Math.min(...scores.map(([, s]) => s)) : null;
  return (
    <div className="box-review">
      <div className="toolbar">
        <strong data-testid="iou">{worst === null ? 'IoU: not available yet' : scores.length === 1 ? `IoU ${worst.toFixed(3)} · ${worst >= threshold ? 'pass' : 'fail'}` : `${scores.filter(([, s]) => s >= threshold).length} of ${scores.length} pass`}</strong>
        {scores.length > 1
          ? scores.map(([q, s]) => (
              <span key={q} className={`small ${s >= threshold ? 'text-ok' : 'text-error'}`} data-testid={`iou-${q}`}>
                {q} {s.toFixed(3)}
              </span>
            ))
          : null}
        {item.model ? <span className="muted small">answered by {item.model}</span> : null}
      </div>
      <div className="toolbar">
        <button type="button" className={item.verdict === 'accepted' ? '' : 'secondary'} onClick={() => onVerdict(item.verdict === 'accepted' ? null : 'accepted')} aria-pressed={item.verdict === 'accepted'} title="A">
          Accept
        </button>
        <button type="button" className={item.verdict === 'rejected' ? '' : 'secondary'} onClick={() => onVerdict(item.verdict === 'rejected' ? null : 'rejected')} aria-pressed={item.verdict === 'rejected'} title="R">
          Reject
        </button>
        <button type="button" className="secondary" onClick={() => onStep(-1)} title="K or [">
          Previous
        </button>
        <button type="button" className="secondary" onClick={() => onStep(1)} title="J or ]">
          Next
        </button>
        <label className="checkbox">
          <input type="checkbox" checked={autoAdvance} onChange={(e) => onAutoAdvance(e.target.checked)} /> Next image after a verdict
        </label>
      </div>
      {item.stale ? (
        <p className="text-stale small" role="status">
          {item.verdict === 'accepted' ? 'Accepted' : 'Rejected'} on other answers: the boxes under review have changed since (another run, or an item sent again). Check them and give the verdict again.
        </p>
      ) : null}
      <label htmlFor="box-note">Note</label>
      <textarea id="box-note" rows={2} defaultValue={item.note} key={`${item.id}-note`} onBlur={(e) => e.target.value !== item.note && onNote(e.target.value)} />
      <p className="muted small">Keys: A accept · R reject · J or ] next · K or [ previous (outside text fields).</p>
    </div>
  );
}
