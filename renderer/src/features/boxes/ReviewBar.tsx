import type { BoxItem } from '../../../../shared/schemas/inspector';
import { colourOf } from './palette';
import { answersOf, iousOf } from './review';
import { ReviewKeys, useVerdictKey } from './ReviewKeys';
import { staleAdvice, staleLabel } from './stale';
import { verdictSummary } from './review-text';

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

export type Verdict = BoxItem['verdict'];

interface Props {
  item: BoxItem;
  threshold: number;
  /** The box questions, in legend order. */
  labels: readonly string[];
  /** Verdicts per question's answer are kept for datasets; images from before datasets take one per image. */
  perQuestion: boolean;
  /** The question under review: A, R and C act on its answer. */
  focus: string | null;
  onFocus: (question: string) => void;
  /** A verdict set (never toggled) on one question's answer, or on the whole image (question null); null clears it. */
  onVerdict: (question: string | null, verdict: Verdict) => void;
  onNote: (question: string | null, note: string) => void;
  hidden: ReadonlySet<string>;
  onToggleHidden: (question: string) => void;
  autoAdvance: boolean;
  onAutoAdvance: (on: boolean) => void;
  onStep: (step: 1 | -1) => void;
  models: RunModels | null;
  runImage: RunImage;
}

/** The questions an item has an answer or a truth box for, in legend order. */
export function reviewQuestions(item: BoxItem, labels: readonly string[]): string[] {
  const present = new Set([...Object.keys(answersOf(item)), ...item.truth.map((t) => t.label ?? 'box')]);
  return [...labels.filter((l) => present.has(l)), ...[...present].filter((q) => !labels.includes(q)).sort()];
}

/** The verdict every answer of the image has, or null when they differ or some have none. */
function wholeVerdict(item: BoxItem, questions: readonly string[], perQuestion: boolean): Verdict {
  if (!perQuestion) return item.verdict;
  const verdicts = questions.map((q) => item.verdicts[q]?.verdict ?? null);
  return verdicts.length > 0 && verdicts.every((v) => v !== null && v === verdicts[0]) ? verdicts[0]! : null;
}

const VERDICT_WORD = { accepted: 'Accepted', rejected: 'Rejected' } as const;

function VerdictButtons({ name, current, onVerdict }: { name: string; current: Verdict; onVerdict: (v: Verdict) => void }) {
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

/**
 * The review of one image as a list of its answers (as Label Studio reviews each region): per
 * question the IoU, whether it is drawn, and a verdict set on that answer alone; a verdict on the
 * whole image; the note of the verdict under review (a note belongs to its verdict, so an answer
 * without one takes none); verdicts replaced or cleared, with their notes; moving on.
 */
export function ReviewBar({
  item,
  threshold,
  labels,
  perQuestion,
  focus,
  onFocus,
  onVerdict,
  onNote,
  hidden,
  onToggleHidden,
  autoAdvance,
  onAutoAdvance,
  onStep,
  models,
  runImage,
}: Props) {
  const scores = iousOf(item);
  const answers = answersOf(item);
  const questions = reviewQuestions(item, labels);
  const summary = verdictSummary(item);
  const focused = perQuestion ? (focus && questions.includes(focus) ? focus : (questions[0] ?? null)) : null;
  const focusedVerdict = focused ? (item.verdicts[focused] ?? null) : null;
  const noteOn = perQuestion ? focusedVerdict : item.verdict ? { verdict: item.verdict, note: item.note, whole_image: true } : null;
  const passing = Object.values(scores).filter((s) => s >= threshold).length;
  const confirmKey = useVerdictKey(item.verdict);
  return (
    <div className="box-review">
      {models && models.names.length > 1 ? (
        <div className="toolbar">
          <label htmlFor="review-model">Judging the answers of</label>
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
          Judging the answers of {item.model}
        </p>
      ) : null}
      <strong data-testid="iou">
        {Object.keys(scores).length === 0
          ? 'IoU: not available yet'
          : Object.keys(scores).length === 1
            ? `IoU ${Object.values(scores)[0]!.toFixed(3)} · ${Object.values(scores)[0]! >= threshold ? 'pass' : 'fail'}`
            : `${passing} of ${Object.keys(scores).length} pass`}
      </strong>
      {perQuestion ? (
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
      ) : null}
      <div className="toolbar whole-image">
        <span className="small">{perQuestion ? 'Whole image' : 'Verdict'}</span>
        {/* Pressed when every answer has that verdict: a rejection of one answer is not a rejection of the image. */}
        <VerdictButtons
          name={perQuestion ? 'every answer' : 'the image'}
          current={wholeVerdict(item, questions, perQuestion)}
          onVerdict={(next) => onVerdict(null, next)}
        />
      </div>
      {summary ? (
        <p className="small" data-testid="verdict-owner">
          {summary}
        </p>
      ) : null}
      {item.stale ? (
        <p className="text-stale small" role="status" data-testid="stale-verdict">
          {staleAdvice(item, confirmKey)}
        </p>
      ) : null}
      <label htmlFor="box-note">
        {noteOn ? `Note on the ${noteOn.verdict === 'accepted' ? 'acceptance' : 'rejection'} of ${perQuestion && focused ? focused : 'the image'}` : 'Note'}
      </label>
      <textarea
        id="box-note"
        rows={2}
        disabled={!noteOn}
        placeholder={noteOn ? '' : 'Give a verdict first: a note is kept with the verdict it explains'}
        defaultValue={noteOn?.note ?? ''}
        key={`${item.id}-${item.verdict_model ?? ''}-${focused ?? ''}-${noteOn?.verdict ?? ''}-note`}
        onBlur={(e) => noteOn && e.target.value !== noteOn.note && onNote(perQuestion ? focused : null, e.target.value)}
      />
      {item.history.length > 0 ? (
        <details className="verdict-history">
          <summary className="small">Earlier verdicts ({item.history.length})</summary>
          <ul className="plain-list small">
            {item.history.map((h, i) => (
              <li key={i}>
                {VERDICT_WORD[h.verdict]} {h.question === '' ? 'the image' : h.question}
                {h.note ? `: “${h.note}”` : ''} <span className="muted">({h.ended_at.slice(0, 16).replace('T', ' ')})</span>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      <div className="toolbar">
        <button type="button" className="secondary" onClick={() => onStep(-1)} title="K or [">
          Previous
        </button>
        <button type="button" className="secondary" onClick={() => onStep(1)} title="J or ]">
          Next
        </button>
        <button
          type="button"
          className="secondary"
          disabled={runImage.blocked !== null || runImage.pending}
          onClick={() => runImage.onRun(false)}
          title={runImage.blocked ?? 'G: send this image again to the model under review (Shift+G: to every model of the run)'}
        >
          {runImage.pending ? 'Running on this image…' : 'Run on this image'}
        </button>
      </div>
      <label className="checkbox small">
        <input type="checkbox" checked={autoAdvance} onChange={(e) => onAutoAdvance(e.target.checked)} /> Next image once every answer has a verdict
      </label>
      <ReviewKeys perQuestion={perQuestion} />
    </div>
  );
}
