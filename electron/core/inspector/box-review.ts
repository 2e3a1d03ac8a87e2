import type { DatasetSummary, Expected } from '../../../shared/schemas/evaluation';
import type { BoxItem, TruthBox } from '../../../shared/schemas/inspector';
import { isoTime, type Clock } from '../clock';
import type { Datasets } from '../evals/datasets';
import { GatewayError } from '../errors';
import type { Store } from '../store/sqlite/database';
import { boxAnswersOf, expectedWithTruth, imageUrlOf, sizeFromHead, truthFromExpected, type Edges } from './box-review-rows';
import { BoxVerdicts, judgedPart, WHOLE_IMAGE, type VerdictRow } from './box-verdicts';

/** Characters of a state read to find its image's size (the start of its base64). */
const HEAD = 1600;

interface ItemRow {
  position: number;
  id: string;
  expected: string;
  width: number | null;
  height: number | null;
  /** 1 when the size was read before (it may still be unknown) */
  sized: number;
}

const ITEM_COLUMNS = 'i.position AS position, i.id AS id, i.expected AS expected, s.width AS width, s.height AS height, s.item_id IS NOT NULL AS sized';
const ITEM_FROM = 'dataset_items i LEFT JOIN box_image_sizes s ON s.dataset_id = i.dataset_id AND s.item_id = i.id';

/** The newest answer of one model to an item, over every run of the dataset. */
interface NewestRow {
  position: number;
  run_id: string;
  variant: number;
  at: string;
  answers: string;
}

/** When a result was answered: its own time, or its run's start for results stored before that was kept. */
const ANSWERED_AT = 'COALESCE(res.answered_at, r.created_at)';
/** A run's model as the run names it: "model (label)" when it has a label (see variantKeys). */
const MODEL_OF_RESULT =
  "COALESCE(json_extract(r.variants, '$[' || res.variant || '].model') || ' (' || json_extract(r.variants, '$[' || res.variant || '].label') || ')', json_extract(r.variants, '$[' || res.variant || '].model'))";

/**
 * Why a verdict no longer holds, or null: a newer answer of the same model to the item (with the
 * boxes judged, or other ones), truth edited since, or answers shown that are not those judged.
 */
export function staleReason(
  v: Pick<VerdictRow, 'answers' | 'truth' | 'run_id' | 'variant' | 'judged_at'>,
  now: { answers: string; truth: string; newest: Pick<NewestRow, 'run_id' | 'variant' | 'at' | 'answers'> | undefined },
  question: string = WHOLE_IMAGE,
): BoxItem['stale_reason'] {
  const n = now.newest;
  const judgedIt = n !== undefined && n.run_id === v.run_id && n.variant === v.variant && n.at === v.judged_at;
  if (n !== undefined && !judgedIt && (v.judged_at === null || n.at >= v.judged_at))
    return judgedPart({ answers: boxAnswersOf(n.answers), truth: [] }, question).answers === v.answers ? 'rerun_unchanged' : 'rerun_changed';
  if (v.truth !== null && v.truth !== now.truth) return 'truth_changed';
  if (v.answers !== now.answers) return 'answers_differ';
  return null;
}

/** Which answers are under review: one variant (model) of one evaluation run, or none. */
export interface Answers {
  run_id: string | null;
  variant: number;
}

/**
 * Box review over a dataset: its items are the images, their expected box answers the truth, an
 * evaluation run's results the answers. Verdicts and notes are kept per item with the boxes they
 * judged, so a verdict whose answers changed since (another run, a retried item) shows as stale.
 */
export class BoxReview {
  private readonly judgements: BoxVerdicts;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly datasets: Datasets,
  ) {
    this.judgements = new BoxVerdicts(store);
  }

  /** Ready datasets whose first item has an image. */
  imageDatasets(): DatasetSummary[] {
    const ids = new Set(
      this.store
        .all<{ id: string }>(
          "SELECT d.id AS id FROM datasets d JOIN dataset_items i ON i.dataset_id = d.id AND i.position = 0 WHERE d.status = 'ready' AND instr(substr(i.state, 1, 200), 'data:image/') > 0",
        )
        .map((r) => r.id),
    );
    return this.datasets.list().filter((d) => ids.has(d.id));
  }

  items(datasetId: string, answers: Answers): BoxItem[] {
    const dataset = this.datasets.get(datasetId);
    const rows = this.measure(
      datasetId,
      this.store.all<ItemRow>(`SELECT ${ITEM_COLUMNS} FROM ${ITEM_FROM} WHERE i.dataset_id = ? ORDER BY i.position`, [datasetId]),
    );
    const results = this.answerMap(answers);
    const model = this.modelOf(datasetId, answers);
    const verdicts = this.judgements.rows(datasetId, model);
    const newest = this.newest(datasetId, model);
    return rows.map((r) =>
      this.toItem({
        row: r,
        answers: results.get(r.position) ?? {},
        verdicts: verdicts.get(r.id) ?? [],
        newest: newest.get(r.position),
        model,
        runId: answers.run_id,
        createdAt: dataset.created_at,
        history: [],
      }),
    );
  }

  image(datasetId: string, position: number): { id: string; data_url: string } {
    const url = imageUrlOf(JSON.parse(this.stateRow(datasetId, position).state) as unknown);
    if (!url) throw new GatewayError('not_found', `Item ${position} of dataset "${datasetId}" has no image`);
    return { id: String(position), data_url: url };
  }

  /** Writes truth as the item's expected box answers, or a verdict (whole image, or one question's answer) and its note. */
  update(
    input: {
      dataset_id: string;
      position: number;
      truth?: TruthBox[] | undefined;
      question?: string | undefined;
      verdict?: BoxItem['verdict'] | undefined;
      note?: string | undefined;
    } & Answers,
  ): BoxItem {
    const row = this.stateRow(input.dataset_id, input.position);
    // A run over another dataset is refused before anything is written.
    this.modelOf(input.dataset_id, input);
    const now = isoTime(this.clock);
    if (input.truth !== undefined) {
      const expected = expectedWithTruth(JSON.parse(row.expected) as Expected, input.truth);
      this.store.run('UPDATE dataset_items SET expected = ? WHERE dataset_id = ? AND position = ?', [
        JSON.stringify(expected),
        input.dataset_id,
        input.position,
      ]);
    }
    if (input.verdict !== undefined || input.note !== undefined) {
      // A verdict is on one model's answer: the model of the answers under review ('' with none).
      const model = this.modelOf(input.dataset_id, input) ?? '';
      const answers = this.answerMap(input, input.position).get(input.position) ?? {};
      const truth = truthFromExpected(JSON.parse(this.stateRow(input.dataset_id, input.position).expected) as Expected);
      const questions = [...new Set([...Object.keys(answers), ...truth.map((t) => t.label ?? 'box')])].sort();
      if (input.question !== undefined && !questions.includes(input.question))
        throw new GatewayError('bad_request', `question: item ${input.position} has no answer or truth for "${input.question}"`);
      // A verdict given now is on the answer as it stands now, against the truth as it stands now.
      this.judgements.write({
        datasetId: input.dataset_id,
        itemId: row.id,
        model,
        question: input.question ?? null,
        verdict: input.verdict,
        note: input.note,
        judged: { answers, truth, run_id: input.run_id, variant: input.variant, at: this.answeredAt(input, input.position) },
        now,
        questions,
      });
    }
    return this.one(input.dataset_id, input.position, input);
  }

  /** Refuses a run that is not over this dataset, or an item it does not have, before anything is sent. */
  checkRun(datasetId: string, runId: string, position: number): void {
    this.modelOf(datasetId, { run_id: runId, variant: 0 });
    this.stateRow(datasetId, position);
  }

  /** Adds images as items after the dataset's last one (a new dataset when none is named); ids are file names, made unique. */
  addImages(input: { dataset_id?: string | undefined; name: string; images: readonly { name: string; data_url: string }[] }): DatasetSummary {
    // A new dataset and its first images are stored together, or neither is.
    return this.store.transaction(() => {
      const id = input.dataset_id ?? this.datasets.create(input.name, []).id;
      let position = this.datasets.get(id).items;
      for (const image of input.images) {
        let itemId = image.name;
        for (let n = 2; this.store.get('SELECT 1 FROM dataset_items WHERE dataset_id = ? AND id = ?', [id, itemId]); n += 1) itemId = `${image.name} (${n})`;
        const state = [{ type: 'image_url', image_url: { url: image.data_url } }];
        this.store.run("INSERT INTO dataset_items (dataset_id, position, id, state, expected) VALUES (?, ?, ?, ?, '{}')", [
          id,
          position++,
          itemId,
          JSON.stringify(state),
        ]);
        this.keepSize(id, itemId, sizeFromHead(image.data_url));
      }
      this.store.run('UPDATE datasets SET item_count = ? WHERE id = ?', [position, id]);
      return this.datasets.get(id);
    });
  }

  /** Carries verdicts and notes over to a dataset made from the old review table, with the boxes they judged. */
  keepVerdicts(
    datasetId: string,
    reviews: readonly { item_id: string; verdict: BoxItem['verdict']; note: string; answers: Record<string, Edges>; model: string | null }[],
  ): void {
    const now = isoTime(this.clock);
    this.store.transaction(() => {
      for (const r of reviews) {
        if (r.verdict === null && r.note === '') continue;
        const sorted = Object.fromEntries(
          Object.keys(r.answers)
            .sort()
            .map((k) => [k, r.answers[k]]),
        );
        this.store.run(
          'INSERT OR REPLACE INTO box_verdicts (dataset_id, item_id, question, model, verdict, note, run_id, variant, answers, updated_at) VALUES (?, ?, ?, ?, ?, ?, NULL, 0, ?, ?)',
          [datasetId, r.item_id, WHOLE_IMAGE, r.model ?? '', r.verdict, r.note, JSON.stringify(sorted), now],
        );
      }
    });
  }

  private one(datasetId: string, position: number, answers: Answers): BoxItem {
    const dataset = this.datasets.get(datasetId);
    const row = this.measure(datasetId, [
      this.store.get<ItemRow>(`SELECT ${ITEM_COLUMNS} FROM ${ITEM_FROM} WHERE i.dataset_id = ? AND i.position = ?`, [datasetId, position])!,
    ])[0]!;
    const model = this.modelOf(datasetId, answers);
    const verdicts = this.judgements.rows(datasetId, model, row.id).get(row.id) ?? [];
    return this.toItem({
      row,
      answers: this.answerMap(answers, position).get(position) ?? {},
      verdicts,
      newest: this.newest(datasetId, model, position).get(position),
      model,
      runId: answers.run_id,
      createdAt: dataset.created_at,
      history: this.judgements.history(datasetId, row.id, model),
    });
  }

  /** The newest answer of `model` to each item over every run of the dataset (one item only when given). */
  private newest(datasetId: string, model: string | null, position?: number): Map<number, NewestRow> {
    if (model === null) return new Map();
    const rows = this.store.all<NewestRow>(
      `SELECT res.position AS position, res.run_id AS run_id, res.variant AS variant, MAX(${ANSWERED_AT}) AS at, res.answers AS answers
       FROM eval_results res JOIN eval_runs r ON r.id = res.run_id
       WHERE r.dataset_id = ? AND res.ok = 1 AND ${MODEL_OF_RESULT} = ?${position === undefined ? '' : ' AND res.position = ?'}
       GROUP BY res.position`,
      [datasetId, model, ...(position === undefined ? [] : [position])],
    );
    return new Map(rows.map((r) => [r.position, r]));
  }

  /** When the answer under review at `position` was given, or null with none. */
  private answeredAt(answers: Answers, position: number): string | null {
    if (answers.run_id === null) return null;
    return (
      this.store.get<{ at: string }>(
        `SELECT ${ANSWERED_AT} AS at FROM eval_results res JOIN eval_runs r ON r.id = res.run_id WHERE res.run_id = ? AND res.variant = ? AND res.position = ? AND res.ok = 1`,
        [answers.run_id, answers.variant, position],
      )?.at ?? null
    );
  }

  private truthJson(datasetId: string, position: number): string {
    return JSON.stringify(truthFromExpected(JSON.parse(this.stateRow(datasetId, position).expected) as Expected));
  }

  private toItem(o: {
    row: ItemRow;
    answers: Record<string, Edges>;
    verdicts: VerdictRow[];
    newest: NewestRow | undefined;
    model: string | null;
    runId: string | null;
    createdAt: string;
    history: BoxItem['history'];
  }): BoxItem {
    const first = Object.values(o.answers)[0] ?? null;
    const truth = truthFromExpected(JSON.parse(o.row.expected) as Expected);
    const judged = { answers: o.answers, truth };
    const whole = o.verdicts.find((v) => v.question === WHOLE_IMAGE && v.verdict !== null);
    const reasonOf = (v: VerdictRow, question: string) => staleReason(v, { ...judgedPart(judged, question), newest: o.newest }, question);
    // Each question's verdict: its own, else the whole image's.
    const questions = [...new Set([...Object.keys(o.answers), ...truth.map((t) => t.label ?? 'box')])].sort();
    const verdicts: BoxItem['verdicts'] = {};
    for (const q of questions) {
      const own = o.verdicts.find((v) => v.question === q && v.verdict !== null);
      const v = own ?? whole;
      if (!v) continue;
      const reason = own ? reasonOf(own, q) : reasonOf(whole!, WHOLE_IMAGE);
      verdicts[q] = { verdict: v.verdict!, note: v.note, whole_image: !own, stale: reason !== null, stale_reason: reason };
    }
    const perQuestion = o.verdicts.filter((v) => v.question !== WHOLE_IMAGE && v.verdict !== null);
    // The item's verdict: the whole image's; with verdicts per question, rejected when any is, accepted when every answered one is.
    const answered = Object.keys(o.answers);
    const summary: BoxItem['verdict'] =
      perQuestion.length === 0
        ? (whole?.verdict ?? null)
        : Object.values(verdicts).some((v) => v.verdict === 'rejected')
          ? 'rejected'
          : answered.length > 0 && answered.every((q) => verdicts[q]?.verdict === 'accepted')
            ? 'accepted'
            : null;
    const reasons = perQuestion.length === 0 ? (whole ? [reasonOf(whole, WHOLE_IMAGE)] : []) : Object.values(verdicts).map((v) => v.stale_reason);
    const reason = reasons.find((r) => r !== null) ?? null;
    const owner = whole ?? perQuestion[0];
    return {
      id: String(o.row.position),
      name: o.row.id,
      data_url: '',
      truth,
      answer: first,
      answers: o.answers,
      model: Object.keys(o.answers).length > 0 ? o.model : null,
      run_id: o.runId,
      verdict: summary,
      stale: summary !== null && reason !== null,
      stale_reason: summary !== null ? reason : null,
      verdict_model: owner && owner.model !== '' ? owner.model : null,
      note:
        perQuestion.length === 0
          ? (o.verdicts.find((v) => v.question === WHOLE_IMAGE)?.note ?? '')
          : perQuestion
              .filter((v) => v.note !== '')
              .map((v) => `${v.question}: ${v.note}`)
              .join('; '),
      verdicts,
      history: o.history,
      width: o.row.width,
      height: o.row.height,
      created_at: o.createdAt,
    };
  }

  /** Box answers by item position for one run variant (one position only when given). */
  private answerMap(answers: Answers, position?: number): Map<number, Record<string, Edges>> {
    if (answers.run_id === null) return new Map();
    const where = position === undefined ? '' : ' AND position = ?';
    const rows = this.store.all<{ position: number; answers: string }>(
      `SELECT position, answers FROM eval_results WHERE run_id = ? AND variant = ? AND ok = 1${where}`,
      [answers.run_id, answers.variant, ...(position === undefined ? [] : [position])],
    );
    return new Map(rows.map((r) => [r.position, boxAnswersOf(r.answers)]));
  }

  private modelOf(datasetId: string, answers: Answers): string | null {
    if (answers.run_id === null) return null;
    const row = this.store.get<{ variants: string; dataset_id: string }>('SELECT variants, dataset_id FROM eval_runs WHERE id = ?', [answers.run_id]);
    if (!row) throw new GatewayError('not_found', `No evaluation run with id "${answers.run_id}"`);
    if (row.dataset_id !== datasetId) throw new GatewayError('bad_request', `run_id: the evaluation run "${answers.run_id}" is over another dataset`);
    const v = (JSON.parse(row.variants) as { model?: string; label?: string }[])[answers.variant];
    return v?.model ? (v.label ? `${v.model} (${v.label})` : v.model) : null;
  }

  /**
   * Reads the size of each image not measured before, from the start of its state (a dataset made
   * elsewhere is read once, on its first listing), and keeps it.
   */
  private measure(datasetId: string, rows: ItemRow[]): ItemRow[] {
    const missing = rows.filter((r) => !r.sized);
    if (missing.length === 0) return rows;
    const sizes = new Map<string, { width: number | null; height: number | null }>();
    this.store.transaction(() => {
      for (const r of missing) {
        const head =
          this.store.get<{ head: string }>(`SELECT substr(state, 1, ${HEAD}) AS head FROM dataset_items WHERE dataset_id = ? AND position = ?`, [
            datasetId,
            r.position,
          ])?.head ?? '';
        const size = sizeFromHead(head);
        this.keepSize(datasetId, r.id, size);
        sizes.set(r.id, size);
      }
    });
    return rows.map((r) => (r.sized ? r : { ...r, ...sizes.get(r.id)!, sized: 1 }));
  }

  private keepSize(datasetId: string, itemId: string, size: { width: number | null; height: number | null }): void {
    this.store.run('INSERT OR REPLACE INTO box_image_sizes (dataset_id, item_id, width, height) VALUES (?, ?, ?, ?)', [
      datasetId,
      itemId,
      size.width,
      size.height,
    ]);
  }

  private stateRow(datasetId: string, position: number): { id: string; state: string; expected: string } {
    const row = this.store.get<{ id: string; state: string; expected: string }>(
      'SELECT id, state, expected FROM dataset_items WHERE dataset_id = ? AND position = ?',
      [datasetId, position],
    );
    if (!row) throw new GatewayError('not_found', `No item at position ${position} of dataset "${datasetId}"`);
    return row;
  }
}
