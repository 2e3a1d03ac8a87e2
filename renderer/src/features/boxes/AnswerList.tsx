import type { BoxItem } from '../../../../shared/schemas/inspector';
import { colourOf } from './palette';
import { answersOf, iousOf } from './review';
import { staleLabel } from './stale';
import { VERDICT_WORD, VerdictButtons, type Verdict } from './VerdictButtons';

interface Props {
  item: BoxItem;
  /** The questions reviewed on this image, in legend order. */
  questions: readonly string[];
  labels: readonly string[];
  threshold: number;
  /** The question under review. */
  focused: string | null;
  onFocus: (question: string) => void;
  onVerdict: (question: string | null, verdict: Verdict) => void;
  hidden: ReadonlySet<string>;
  onToggleHidden: (question: string) => void;
}

/** Each question's answer on the image: whether it is drawn, its IoU, and its own verdict with what it says. */
export function AnswerList({ item, questions, labels, threshold, focused, onFocus, onVerdict, hidden, onToggleHidden }: Props) {
  const scores = iousOf(item);
  const answers = answersOf(item);
  return (
    <ul className="plain-list answer-list" aria-label="Answers to review">
      {questions.map((q) => {
        const v = item.verdicts[q] ?? null;
        const s = scores[q];
        return (
          <li key={q} aria-current={q === focused ? 'true' : undefined} data-question={q} onClick={() => onFocus(q)}>
            <div className="answer-row-head">
              <label className="answer-visible" title={hidden.has(q) ? 'Draw this answer' : 'Hide this answer from the image'}>
                <input
                  type="checkbox"
                  checked={!hidden.has(q)}
                  disabled={!(q in answers)}
                  onChange={() => onToggleHidden(q)}
                  aria-label={`Show the answer to ${q}`}
                />
                <span className="swatch" style={{ background: colourOf(q, labels) }} aria-hidden="true" />
              </label>
              <button type="button" className="link-button answer-name" onClick={() => onFocus(q)}>
                {q}
              </button>
              <span className={`small ${s === undefined ? 'muted' : s >= threshold ? 'text-ok' : 'text-error'}`} data-testid={`iou-${q}`}>
                {s === undefined ? (q in answers ? 'no truth' : 'no answer') : `IoU ${s.toFixed(3)}`}
              </span>
            </div>
            <div className="answer-row-verdict">
              <VerdictButtons name={q} current={v?.verdict ?? null} onVerdict={(next) => onVerdict(q, next)} />
              <span className={`small ${v?.stale ? 'text-stale' : 'muted'}`} data-testid={`verdict-${q}`}>
                {v
                  ? `${VERDICT_WORD[v.verdict]}${v.whole_image ? ' with the image' : ''}${v.stale ? ` · stale: ${staleLabel(v.stale_reason)}` : ''}`
                  : 'no verdict'}
              </span>
            </div>
          </li>
        );
      })}
    </ul>
  );
}

/** Verdicts replaced or cleared on the image, newest first, each with the note written for it. */
export function VerdictHistory({ history }: { history: BoxItem['history'] }) {
  if (history.length === 0) return null;
  return (
    <details className="verdict-history">
      <summary className="small">Earlier verdicts ({history.length})</summary>
      <ul className="plain-list small">
        {history.map((h, i) => (
          <li key={i}>
            {VERDICT_WORD[h.verdict]} {h.question === '' ? 'the image' : h.question}
            {h.note ? `: “${h.note}”` : ''} <span className="muted">({h.ended_at.slice(0, 16).replace('T', ' ')})</span>
          </li>
        ))}
      </ul>
    </details>
  );
}
