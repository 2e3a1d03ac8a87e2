import type { BoxItem } from '../../../../shared/schemas/inspector';
import { answersOf, iousOf } from './review';
import { ReviewKeys, useVerdictKey } from './ReviewKeys';
import { staleAdvice } from './stale';
import { AnswerList, VerdictHistory } from './AnswerList';
import { VerdictButtons, type Verdict } from './VerdictButtons';
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

export type { Verdict } from './VerdictButtons';

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

/** The IoU line: none yet, the one answer's with pass or fail, or how many of the answers pass. */
function iouHeadline(scores: Record<string, number>, threshold: number): string {
  const values = Object.values(scores);
  if (values.length === 0) return 'IoU: not available yet';
  if (values.length === 1) return `IoU ${values[0]!.toFixed(3)} · ${values[0]! >= threshold ? 'pass' : 'fail'}`;
  return `${values.filter((s) => s >= threshold).length} of ${values.length} pass`;
}

/** The verdict whose note is edited: the focused answer's, or the image's; null when there is none to explain. */
function noteTarget(item: BoxItem, perQuestion: boolean, focused: string | null) {
  const focusedVerdict = focused ? (item.verdicts[focused] ?? null) : null;
  return perQuestion ? focusedVerdict : item.verdict ? { verdict: item.verdict, note: item.note, whole_image: true } : null;
}

/** The note of the verdict under review, saved when it loses focus; none without a verdict. */
function NoteField({ item, perQuestion, focused, onNote }: Pick<Props, 'item' | 'perQuestion' | 'onNote'> & { focused: string | null }) {
  const noteOn = noteTarget(item, perQuestion, focused);
  return (
    <>
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
    </>
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
  const questions = reviewQuestions(item, labels);
  const summary = verdictSummary(item);
  const focused = perQuestion ? (focus && questions.includes(focus) ? focus : (questions[0] ?? null)) : null;
  const confirmKey = useVerdictKey(item.verdict);
  return (
    <div className="box-review">
      <JudgedModel models={models} model={item.model} />
      <strong data-testid="iou">{iouHeadline(scores, threshold)}</strong>
      {perQuestion ? (
        <AnswerList
          item={item}
          questions={questions}
          labels={labels}
          threshold={threshold}
          focused={focused}
          onFocus={onFocus}
          onVerdict={onVerdict}
          hidden={hidden}
          onToggleHidden={onToggleHidden}
        />
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
      <NoteField item={item} perQuestion={perQuestion} focused={focused} onNote={onNote} />
      <VerdictHistory history={item.history} />
      <StepTools onStep={onStep} runImage={runImage} autoAdvance={autoAdvance} onAutoAdvance={onAutoAdvance} />
      <ReviewKeys perQuestion={perQuestion} />
    </div>
  );
}

/** Whose answers are judged: a choice among the run's models, or the one model named. */
function JudgedModel({ models, model }: { models: RunModels | null; model: string | null }) {
  return models && models.names.length > 1 ? (
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
  ) : model ? (
    <p className="muted small" data-testid="judged-model">
      Judging the answers of {model}
    </p>
  ) : null;
}

/** Moving on: the previous and next image, running this image again, and moving on by itself once every answer is judged. */
function StepTools({ onStep, runImage, autoAdvance, onAutoAdvance }: Pick<Props, 'onStep' | 'runImage' | 'autoAdvance' | 'onAutoAdvance'>) {
  return (
    <>
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
    </>
  );
}
