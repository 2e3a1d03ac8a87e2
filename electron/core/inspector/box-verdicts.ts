/**
 * Box verdicts of one item and model: a verdict on the whole image (question '') or on one
 * question's answer. Verdicts are set, never toggled: setting the verdict an answer already has
 * keeps it (and its note); another verdict, or clearing it, moves the old one and the note written
 * for it to the item's history, so a note never stays behind on an unjudged answer.
 */
import type { BoxItem, TruthBox } from '../../../shared/schemas/inspector';
import { GatewayError } from '../errors';
import type { Store } from '../store/sqlite/database';
import type { Edges } from './box-review-rows';

/** The row of a verdict on every box question of the item at once. */
export const WHOLE_IMAGE = '';

export type Verdict = 'accepted' | 'rejected';

export interface VerdictRow {
  item_id: string;
  question: string;
  /** '' when the model is not known (a verdict given before verdicts were per model) */
  model: string;
  verdict: Verdict | null;
  note: string;
  /** the boxes judged, by question, as JSON */
  answers: string;
  /** the truth judged against, as JSON (null before it was kept) */
  truth: string | null;
  run_id: string | null;
  variant: number;
  /** when the answer judged was given (null: not known) */
  judged_at: string | null;
  updated_at: string;
}

/** What a verdict is given on: the answers and truth as they stand, and the run and time of the answers. */
export interface Judged {
  answers: Record<string, Edges>;
  truth: TruthBox[];
  run_id: string | null;
  variant: number;
  at: string | null;
}

/** The part of the answers and truth one verdict judges: all of them, or one question's. */
export function judgedPart(judged: Pick<Judged, 'answers' | 'truth'>, question: string): { answers: string; truth: string } {
  if (question === WHOLE_IMAGE) return { answers: JSON.stringify(judged.answers), truth: JSON.stringify(judged.truth) };
  const answer = judged.answers[question];
  return { answers: JSON.stringify(answer ? { [question]: answer } : {}), truth: JSON.stringify(judged.truth.filter((t) => (t.label ?? 'box') === question)) };
}

const COLUMNS =
  'v.item_id AS item_id, v.question AS question, v.model AS model, v.verdict AS verdict, v.note AS note, v.answers AS answers, v.truth AS truth, v.run_id AS run_id, v.variant AS variant, COALESCE(v.answered_at, r.created_at) AS judged_at, v.updated_at AS updated_at';
const FROM = 'box_verdicts v LEFT JOIN eval_runs r ON r.id = v.run_id';

export class BoxVerdicts {
  constructor(private readonly store: Store) {}

  /** Rows by item for `model` (and those whose model is unknown, which the model's own rows replace), one item only when given. */
  rows(datasetId: string, model: string | null, itemId?: string): Map<string, VerdictRow[]> {
    const rows = this.store.all<VerdictRow>(
      `SELECT ${COLUMNS} FROM ${FROM} WHERE v.dataset_id = ? AND v.model IN (?, '')${itemId === undefined ? '' : ' AND v.item_id = ?'} ORDER BY v.item_id, v.model = '' DESC`,
      [datasetId, model ?? '', ...(itemId === undefined ? [] : [itemId])],
    );
    const out = new Map<string, VerdictRow[]>();
    for (const r of rows) {
      const list = out.get(r.item_id) ?? [];
      // The model's own rows win over rows whose model is unknown.
      const known = list.filter((x) => x.model !== '');
      out.set(r.item_id, r.model !== '' ? [...known, r] : known.length > 0 ? list : [...list, r]);
    }
    return out;
  }

  /** Verdicts replaced or cleared, newest first, with the note each had. */
  history(datasetId: string, itemId: string, model: string | null): BoxItem['history'] {
    return this.store.all<{ question: string; verdict: Verdict; note: string; given_at: string; ended_at: string }>(
      'SELECT question, verdict, note, given_at, ended_at FROM box_verdict_history WHERE dataset_id = ? AND item_id = ? AND model = ? ORDER BY ended_at DESC, rowid DESC LIMIT 20',
      [datasetId, itemId, model ?? ''],
    );
  }

  /**
   * Sets (or clears, with null) the verdict on the whole image or on one question, and/or its note.
   * A note needs a verdict to go with; a question's verdict on an item judged as a whole first
   * splits the whole-image verdict into one per question, each keeping its verdict and note.
   */
  write(input: {
    datasetId: string;
    itemId: string;
    model: string;
    question: string | null;
    verdict?: Verdict | null | undefined;
    note?: string | undefined;
    judged: Judged;
    now: string;
    questions: readonly string[];
  }): void {
    const question = input.question ?? WHOLE_IMAGE;
    const key = [input.datasetId, input.itemId];
    this.store.transaction(() => {
      const mine = () =>
        this.store.all<VerdictRow>(`SELECT ${COLUMNS} FROM ${FROM} WHERE v.dataset_id = ? AND v.item_id = ? AND v.model = ?`, [...key, input.model]);
      // A first verdict on this model carries the note of one whose model is not known.
      const carried =
        mine().length === 0
          ? (this.store.get<{ note: string }>("SELECT note FROM box_verdicts WHERE dataset_id = ? AND item_id = ? AND question = '' AND model = ''", key)
              ?.note ?? '')
          : '';
      if (question !== WHOLE_IMAGE) this.split(input, mine());
      if (question === WHOLE_IMAGE && input.verdict !== undefined) {
        // A verdict on the whole image replaces those on its questions.
        for (const r of mine().filter((r) => r.question !== WHOLE_IMAGE)) this.end(input, r);
      }
      const current = mine().find((r) => r.question === question);
      if (input.verdict === null) {
        if (current) this.end(input, current);
        if (question === WHOLE_IMAGE) for (const r of mine()) this.end(input, r);
        return;
      }
      if (input.verdict !== undefined) {
        const part = judgedPart(input.judged, question);
        if (current && current.verdict === input.verdict) {
          // Set again: the same verdict, now on the answers as they stand; its note stays.
          this.store.run(
            'UPDATE box_verdicts SET run_id = ?, variant = ?, answered_at = ?, answers = ?, truth = ?, updated_at = ? WHERE dataset_id = ? AND item_id = ? AND question = ? AND model = ?',
            [input.judged.run_id, input.judged.variant, input.judged.at, part.answers, part.truth, input.now, ...key, question, input.model],
          );
        } else {
          if (current) this.end(input, current);
          this.store.run(
            'INSERT INTO box_verdicts (dataset_id, item_id, question, model, verdict, note, run_id, variant, answered_at, answers, truth, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
            [
              ...key,
              question,
              input.model,
              input.verdict,
              current ? '' : carried,
              input.judged.run_id,
              input.judged.variant,
              input.judged.at,
              part.answers,
              part.truth,
              input.now,
            ],
          );
        }
      }
      if (input.note !== undefined) {
        const judged = mine().find((r) => r.question === question && r.verdict !== null);
        if (!judged)
          throw new GatewayError(
            'bad_request',
            `note: ${question === WHOLE_IMAGE ? 'the image' : `the answer to "${question}"`} has no verdict yet; a note is kept with the verdict it explains`,
          );
        this.store.run('UPDATE box_verdicts SET note = ?, updated_at = ? WHERE dataset_id = ? AND item_id = ? AND question = ? AND model = ?', [
          input.note,
          input.now,
          ...key,
          question,
          input.model,
        ]);
      }
    });
  }

  /** A whole-image verdict becomes one verdict per question (same verdict, note and judged answers), before one question's changes. */
  private split(input: { datasetId: string; itemId: string; model: string; judged: Judged; questions: readonly string[] }, rows: VerdictRow[]): void {
    const whole = rows.find((r) => r.question === WHOLE_IMAGE);
    if (!whole) return;
    const judgedAnswers = JSON.parse(whole.answers) as Record<string, Edges>;
    const judgedTruth = whole.truth === null ? input.judged.truth : (JSON.parse(whole.truth) as TruthBox[]);
    for (const q of input.questions) {
      if (rows.some((r) => r.question === q)) continue;
      const part = judgedPart({ answers: judgedAnswers, truth: judgedTruth }, q);
      this.store.run(
        'INSERT INTO box_verdicts (dataset_id, item_id, question, model, verdict, note, run_id, variant, answered_at, answers, truth, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        [
          input.datasetId,
          input.itemId,
          q,
          input.model,
          whole.verdict,
          whole.note,
          whole.run_id,
          whole.variant,
          whole.judged_at,
          part.answers,
          whole.truth === null ? null : part.truth,
          whole.updated_at,
        ],
      );
    }
    this.store.run('DELETE FROM box_verdicts WHERE dataset_id = ? AND item_id = ? AND question = ? AND model = ?', [
      input.datasetId,
      input.itemId,
      WHOLE_IMAGE,
      input.model,
    ]);
  }

  /** A verdict replaced or cleared goes to the history with its note. */
  private end(input: { datasetId: string; itemId: string; model: string; now: string }, row: VerdictRow): void {
    if (row.verdict !== null) {
      this.store.run(
        'INSERT INTO box_verdict_history (dataset_id, item_id, question, model, verdict, note, given_at, ended_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        [input.datasetId, input.itemId, row.question, input.model, row.verdict, row.note, row.updated_at, input.now],
      );
    }
    this.store.run('DELETE FROM box_verdicts WHERE dataset_id = ? AND item_id = ? AND question = ? AND model = ?', [
      input.datasetId,
      input.itemId,
      row.question,
      input.model,
    ]);
  }
}
