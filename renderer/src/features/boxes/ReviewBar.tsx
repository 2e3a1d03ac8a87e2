import type { BoxItem } from '../../../../shared/schemas/inspector';
import { iousOf } from './review';
import { staleAdvice, verdictOwner } from './stale';

/** The models of the run under review, by their place in it. */
export interface RunModels {
  names: readonly string[];
  variant: number;
  onVariant: (variant: number) => void;
}

/** "Run on this image": why it cannot run now (null when it can), and what to do. */
export interface RunImage {
  blocked: string | null;
  pending: boolean;
  onRun: (every: boolean) => void;
}

interface Props {
  item: BoxItem;
  threshold: number;
  autoAdvance: boolean;
  onAutoAdvance: (on: boolean) => void;
  onVerdict: (verdict: BoxItem['verdict']) => void;
  onNote: (note: string) => void;
  onStep: (step: 1 | -1) => void;
  models: RunModels | null;
  runImage: RunImage;
}

/**
 * IoU per question, whose answer is judged (and switching to another model of the run), the verdict
 * (marked stale, with why, when the item was run again or its truth edited since), the note, moving
 * on, and running the box questions on this image again.
 */
export function ReviewBar({ item, threshold, autoAdvance, onAutoAdvance, onVerdict, onNote, onStep, models, runImage }: Props) {
  const scores = Object.entries(iousOf(item));
  const worst = scores.length > 0 ? Math.min(...scores.map(([, s]) => s)) : null;
  const owner = verdictOwner(item);
  return (
    <div className="box-review">
      {models && models.names.length > 1 ? (
        <div className="toolbar">
          <label htmlFor="review-model">Judging the answer of</label>
          <select id="review-model" value={models.variant} onChange={(e) => models.onVariant(Number(e.target.value))}>
            {models.names.map((name, i) => (
              <option key={`${i}-${name}`} value={i}>
                {name}
              </option>
            ))}
          </select>
        </div>
      ) : item.model ? (
        <p className="muted small" data-testid="judged-model">
          Judging the answer of {item.model}
        </p>
      ) : null}
      <div className="toolbar">
        <strong data-testid="iou">{worst === null ? 'IoU: not available yet' : scores.length === 1 ? `IoU ${worst.toFixed(3)} · ${worst >= threshold ? 'pass' : 'fail'}` : `${scores.filter(([, s]) => s >= threshold).length} of ${scores.length} pass`}</strong>
        {scores.length > 1
          ? scores.map(([q, s]) => (
              <span key={q} className={`small ${s >= threshold ? 'text-ok' : 'text-error'}`} data-testid={`iou-${q}`}>
                {q} {s.toFixed(3)}
              </span>
            ))
          : null}
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
        <button type="button" className="secondary" disabled={runImage.blocked !== null || runImage.pending} onClick={() => runImage.onRun(false)} title={runImage.blocked ?? 'G: send this image again to the model under review (Shift+G: to every model of the run)'}>
          {runImage.pending ? 'Running on this image…' : 'Run on this image'}
        </button>
        <label className="checkbox">
          <input type="checkbox" checked={autoAdvance} onChange={(e) => onAutoAdvance(e.target.checked)} /> Next image after a verdict
        </label>
      </div>
      {owner ? (
        <p className="small" data-testid="verdict-owner">
          {item.verdict === 'accepted' ? 'Accepted' : 'Rejected'} · on the answer of {owner}
        </p>
      ) : null}
      {item.stale ? (
        <p className="text-stale small" role="status" data-testid="stale-verdict">
          {staleAdvice(item)}
        </p>
      ) : null}
      <label htmlFor="box-note">Note</label>
      <textarea id="box-note" rows={2} defaultValue={item.note} key={`${item.id}-${item.verdict_model ?? ''}-note`} onBlur={(e) => e.target.value !== item.note && onNote(e.target.value)} />
      <p className="muted small">Keys: A accept · R reject · J or ] next · K or [ previous · G run on this image (Shift+G: every model of the run) · outside text fields.</p>
    </div>
  );
}
