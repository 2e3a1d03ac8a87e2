import type { BoxItem } from '../../../../shared/schemas/inspector';

export type Verdict = BoxItem['verdict'];

export const VERDICT_WORD = { accepted: 'Accepted', rejected: 'Rejected' } as const;

/** Accept, Reject and Clear for one answer or the whole image: a verdict is set, never toggled. */
export function VerdictButtons({ name, current, onVerdict }: { name: string; current: Verdict; onVerdict: (v: Verdict) => void }) {
  return (
    <span className="verdict-buttons">
      <button
        type="button"
        className={current === 'accepted' ? 'verdict-on' : 'secondary'}
        aria-pressed={current === 'accepted'}
        onClick={() => onVerdict('accepted')}
        aria-label={`Accept ${name}`}
      >
        Accept
      </button>
      <button
        type="button"
        className={current === 'rejected' ? 'verdict-on verdict-rejected' : 'secondary'}
        aria-pressed={current === 'rejected'}
        onClick={() => onVerdict('rejected')}
        aria-label={`Reject ${name}`}
      >
        Reject
      </button>
      <button type="button" className="secondary" disabled={current === null} onClick={() => onVerdict(null)} aria-label={`Clear ${name}`}>
        Clear
      </button>
    </span>
  );
}
