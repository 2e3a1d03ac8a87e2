/**
 * Box verdicts of one item and model: a verdict on the whole image (question '') or on one
 * question's answer. Verdicts are set, never toggled: setting the verdict an answer already has
 * keeps it (and its note); another verdict, or clearing it, moves the old one and the note written
 * for it to the item's history, so a note never stays behind on an unjudged answer.
 */
import type { BoxItem, TruthBox } from '../../../shared/schemas/inspector';
import { GatewayError } from '../errors';
import type { BoxStorage, StoredVerdict } from '../store/ports';
import type { Edges } from './box-review-rows';

/** The row of a verdict on every box question of the item at once. */
export const WHOLE_IMAGE = '';

export type Verdict = 'accepted' | 'rejected';

/** A stored verdict as review reads it: `judged_at` is when the answer judged was given (null: not known). */
export interface VerdictRow extends Omit<StoredVerdict, 'answered_at' | 'verdict'> {
  verdict: Verdict | null;
  judged_at: string | null;
}

const asRow = ({ answered_at, ...v }: StoredVerdict): VerdictRow => ({ ...v, verdict: v.verdict, judged_at: answered_at });
const asStored = ({ judged_at, ...v }: VerdictRow): StoredVerdict => ({ ...v, answered_at: judged_at });

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

export class BoxVerdicts {
  constructor(private readonly storage: BoxStorage) {}

  /** Rows by item for `model` (and those whose model is unknown, which the model's own rows replace), one item only when given. */
  async rows(datasetId: string, model: string | null, itemId?: string): Promise<Map<string, VerdictRow[]>> {
    const models = model === null || model === '' ? [''] : [model, ''];
    const rows = (await this.storage.verdicts(datasetId, models, itemId)).map(asRow);
    // By item, the model's own rows first.
    rows.sort((a, b) => (a.item_id < b.item_id ? -1 : a.item_id > b.item_id ? 1 : (a.model === '' ? 1 : 0) - (b.model === '' ? 1 : 0)));
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
  history(datasetId: string, itemId: string, model: string | null): Promise<BoxItem['history']> {
    return this.storage.history(datasetId, itemId, model ?? '');
  }

  /**
   * Sets (or clears, with null) the verdict on the whole image or on one question, and/or its note.
   * A note needs a verdict to go with; a question's verdict on an item judged as a whole first
   * splits the whole-image verdict into one per question, each keeping its verdict and note.
   */
  write(input: VerdictWrite & { datasetId: string }): Promise<void> {
    return this.storage.changeVerdicts(input.datasetId, input.itemId, input.model, (stored, unknownModel) => {
      const change = planVerdicts(input, stored.map(asRow), unknownModel.map(asRow));
      return { rows: change.rows.map(asStored), ended: change.ended.map(asStored), at: input.now };
    });
  }
}

/** A verdict and/or note written on one item and model, on the whole image (question null) or one question. */
export interface VerdictWrite {
  itemId: string;
  model: string;
  question: string | null;
  verdict?: Verdict | null | undefined;
  note?: string | undefined;
  judged: Judged;
  now: string;
  questions: readonly string[];
}

/**
 * The rows of one item and model after a verdict or note is written, and the rows that ended (to
 * the history): worked out on the rows as they are, in the transaction that writes them.
 */
export function planVerdicts(
  input: VerdictWrite,
  stored: readonly VerdictRow[],
  unknownModel: readonly VerdictRow[],
): { rows: VerdictRow[]; ended: VerdictRow[] } {
  const question = input.question ?? WHOLE_IMAGE;
  let rows = [...stored];
  const ended: VerdictRow[] = [];
  const end = (r: VerdictRow) => {
    ended.push(r);
    rows = rows.filter((x) => x.question !== r.question);
  };
  // A first verdict on this model carries the note of one whose model is not known.
  const carried = rows.length === 0 ? (unknownModel.find((r) => r.question === WHOLE_IMAGE)?.note ?? '') : '';
  if (question !== WHOLE_IMAGE) rows = split(input, rows);
  if (question === WHOLE_IMAGE && input.verdict !== undefined) {
    // A verdict on the whole image replaces those on its questions.
    for (const r of rows.filter((r) => r.question !== WHOLE_IMAGE)) end(r);
  }
  const current = rows.find((r) => r.question === question);
  if (input.verdict === null) {
    if (current) end(current);
    if (question === WHOLE_IMAGE) for (const r of [...rows]) end(r);
    return { rows, ended };
  }
  if (input.verdict !== undefined) {
    const part = judgedPart(input.judged, question);
    const judged = { run_id: input.judged.run_id, variant: input.judged.variant, judged_at: input.judged.at, answers: part.answers, truth: part.truth };
    if (current && current.verdict === input.verdict) {
      // Set again: the same verdict, now on the answers as they stand; its note stays.
      rows = rows.map((r) => (r === current ? { ...r, ...judged, updated_at: input.now } : r));
    } else {
      if (current) end(current);
      rows.push({
        item_id: input.itemId,
        question,
        model: input.model,
        verdict: input.verdict,
        note: current ? '' : carried,
        ...judged,
        updated_at: input.now,
      });
    }
  }
  if (input.note !== undefined) {
    const judged = rows.find((r) => r.question === question && r.verdict !== null);
    if (!judged)
      throw new GatewayError(
        'bad_request',
        `note: ${question === WHOLE_IMAGE ? 'the image' : `the answer to "${question}"`} has no verdict yet; a note is kept with the verdict it explains`,
      );
    rows = rows.map((r) => (r === judged ? { ...r, note: input.note!, updated_at: input.now } : r));
  }
  return { rows, ended };
}

/** A whole-image verdict becomes one verdict per question (same verdict, note and judged answers), before one question's changes. */
function split(input: { itemId: string; model: string; judged: Judged; questions: readonly string[] }, rows: VerdictRow[]): VerdictRow[] {
  const whole = rows.find((r) => r.question === WHOLE_IMAGE);
  if (!whole) return rows;
  const judgedAnswers = JSON.parse(whole.answers) as Record<string, Edges>;
  const judgedTruth = whole.truth === null ? input.judged.truth : (JSON.parse(whole.truth) as TruthBox[]);
  const out = rows.filter((r) => r.question !== WHOLE_IMAGE);
  for (const q of input.questions) {
    if (rows.some((r) => r.question === q)) continue;
    const part = judgedPart({ answers: judgedAnswers, truth: judgedTruth }, q);
    out.push({ ...whole, question: q, answers: part.answers, truth: whole.truth === null ? null : part.truth });
  }
  return out;
}
