import type { BoxItem } from '../../../../shared/schemas/inspector';

export type Verdict = BoxItem['verdict'];

export const VERDICT_WORD = { accepted: 'Accepted', rejected: 'Rejected' } as const;

/** The verdicts a button gives, its word and its class while that verdict is set. */
const GIVE = [
  { verdict: 'accepted', word: 'Accept', on: 'verdict-on' },
  { verdict: 'rejected', word: 'Reject', on: 'verdict-on verdict-rejected' },
] as const;

/** Accept, Reject and Clear for one answer or the whole image: a verdict is set, never toggled. */
export function VerdictButtons({ name, current, onVerdict }: { name: string; current: Verdict; onVerdict: (v: Verdict) => void }) {
  return (
    <span className="verdict-buttons">
      {GIVE.map(({ verdict, word, on }) => (
        <button
          key={verdict}
          type="button"
          className={current === verdict ? on : 'secondary'}
          aria-pressed={current === verdict}
          onClick={() => onVerdict(verdict)}
          aria-label={`${word} ${name}`}
        >
          {word}
        </button>
      ))}
      <button type="button" className="secondary" disabled={current === null} onClick={() => onVerdict(null)} aria-label={`Clear ${name}`}>
        Clear
      </button>
    </span>
  );
}
