import type { DatasetSummary, Expected } from '../../../shared/schemas/evaluation';
import type { BoxItem, TruthBox } from '../../../shared/schemas/inspector';
import { isoTime, type Clock } from '../clock';
import type { Datasets } from '../datasets/datasets';
import { GatewayError } from '../errors';
import type { BoxStorage } from '../store/ports';
import type { EvalResults } from '../evaluations/results/eval-results';
import { variantKeys } from '../../../shared/evaluations/variant-keys';
import { boxAnswersOf, expectedWithTruth, imageUrlOf, sizeFromHead, truthFromExpected, type Edges } from './box-review-rows';
import { BoxVerdicts, judgedPart, WHOLE_IMAGE, type VerdictRow } from './box-verdicts';

/** Characters of a state read to find its image's size (the start of its base64). */
const HEAD = 1600;

interface ItemRow {
  position: number;
  id: string;
  expected: Expected;
  width: number | null;
  height: number | null;
  /** true when the size was read before (it may still be unknown) */
  sized: boolean;
}

/** The newest answer of one model to an item, over every run of the dataset. */
interface NewestRow {
  position: number;
  run_id: string;
  variant: number;
  at: string;
  answers: string | Record<string, unknown>;
}

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
    private readonly storage: BoxStorage,
    private readonly clock: Clock,
    private readonly datasets: Datasets,
    private readonly evalResults: Pick<EvalResults, 'answersOf' | 'newestAnswers' | 'stored'>,
  ) {
    this.judgements = new BoxVerdicts(storage);
  }

  /** Ready datasets whose first item has an image. */
  imageDatasets(): Promise<DatasetSummary[]> {
    return this.datasets.withImages();
  }

  async items(datasetId: string, answers: Answers): Promise<BoxItem[]> {
    const dataset = await this.datasets.get(datasetId);
    const rows = await this.measure(datasetId, await this.itemRows(datasetId));
    const results = await this.answerMap(answers);
    const model = await this.modelOf(datasetId, answers);
    const verdicts = await this.judgements.rows(datasetId, model);
    const newest = await this.newest(datasetId, model);
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

  /** The dataset's items (without content) with the image sizes kept for them (one position only when given). */
  private async itemRows(datasetId: string, position?: number): Promise<ItemRow[]> {
    const [items, sizes] = await Promise.all([this.datasets.expectations(datasetId, position), this.storage.imageSizes(datasetId)]);
    if (position !== undefined && items.length === 0) throw new GatewayError('not_found', `No item at position ${position} of dataset "${datasetId}"`);
    return items.map((i) => {
      const size = sizes.get(i.id);
      return { position: i.position, id: i.id, expected: i.expected, width: size?.width ?? null, height: size?.height ?? null, sized: size !== undefined };
    });
  }

  async image(datasetId: string, position: number): Promise<{ id: string; data_url: string }> {
    const url = imageUrlOf((await this.datasets.item(datasetId, position)).state);
    if (!url) throw new GatewayError('not_found', `Item ${position} of dataset "${datasetId}" has no image`);
    return { id: String(position), data_url: url };
  }

  /** Writes truth as the item's expected box answers, or a verdict (whole image, or one question's answer) and its note. */
  async update(
    input: {
      dataset_id: string;
      position: number;
      truth?: TruthBox[] | undefined;
      question?: string | undefined;
      verdict?: BoxItem['verdict'] | undefined;
      note?: string | undefined;
    } & Answers,
  ): Promise<BoxItem> {
    const row = await this.datasets.item(input.dataset_id, input.position);
    // A run over another dataset is refused before anything is written.
    await this.modelOf(input.dataset_id, input);
    const now = isoTime(this.clock);
    let expected = row.expected;
    if (input.truth !== undefined) {
      expected = expectedWithTruth(row.expected, input.truth);
      await this.datasets.putExpected(input.dataset_id, input.position, expected);
    }
    if (input.verdict !== undefined || input.note !== undefined) {
      // A verdict is on one model's answer: the model of the answers under review ('' with none).
      const model = (await this.modelOf(input.dataset_id, input)) ?? '';
      const answers = (await this.answerMap(input, input.position)).get(input.position) ?? {};
      const truth = truthFromExpected(expected);
      const questions = [...new Set([...Object.keys(answers), ...truth.map((t) => t.label ?? 'box')])].sort();
      if (input.question !== undefined && !questions.includes(input.question))
        throw new GatewayError('bad_request', `question: item ${input.position} has no answer or truth for "${input.question}"`);
      // A verdict given now is on the answer as it stands now, against the truth as it stands now.
      await this.judgements.write({
        datasetId: input.dataset_id,
        itemId: row.id,
        model,
        question: input.question ?? null,
        verdict: input.verdict,
        note: input.note,
        judged: { answers, truth, run_id: input.run_id, variant: input.variant, at: await this.answeredAt(input, input.position) },
        now,
        questions,
      });
    }
    return this.one(input.dataset_id, input.position, input);
  }

  /** Refuses a run that is not over this dataset, or an item it does not have, before anything is sent. */
  async checkRun(datasetId: string, runId: string, position: number): Promise<void> {
    await this.modelOf(datasetId, { run_id: runId, variant: 0 });
    await this.datasets.item(datasetId, position);
  }

  /** Adds images as items after the dataset's last one (a new dataset when none is named); ids are file names, made unique. */
  async addImages(input: { dataset_id?: string | undefined; name: string; images: readonly { name: string; data_url: string }[] }): Promise<DatasetSummary> {
    if (input.dataset_id !== undefined) await this.datasets.get(input.dataset_id);
    // A new dataset is made with its first images, so none is left empty by a failure between.
    const id = input.dataset_id ?? (await this.datasets.create(input.name, [])).id;
    try {
      const added = await this.datasets.addItems(
        id,
        input.images.map((image) => ({ id: image.name, state: [{ type: 'image_url', image_url: { url: image.data_url } }] })),
      );
      await this.storage.keepImageSizes(
        id,
        added.map((a, i) => ({ item_id: a.id, ...sizeFromHead(input.images[i]!.data_url) })),
      );
    } catch (error) {
      if (input.dataset_id === undefined) await this.datasets.delete(id).catch(() => undefined);
      throw error;
    }
    return this.datasets.get(id);
  }

  /** Carries verdicts and notes over to a dataset made from the old review table, with the boxes they judged. */
  async keepVerdicts(
    datasetId: string,
    reviews: readonly { item_id: string; verdict: BoxItem['verdict']; note: string; answers: Record<string, Edges>; model: string | null }[],
  ): Promise<void> {
    const now = isoTime(this.clock);
    await this.storage.putVerdicts(
      datasetId,
      reviews
        .filter((r) => r.verdict !== null || r.note !== '')
        .map((r) => ({
          item_id: r.item_id,
          question: WHOLE_IMAGE,
          model: r.model ?? '',
          verdict: r.verdict,
          note: r.note,
          run_id: null,
          variant: 0,
          answered_at: null,
          answers: JSON.stringify(
            Object.fromEntries(
              Object.keys(r.answers)
                .sort()
                .map((k) => [k, r.answers[k]]),
            ),
          ),
          truth: null,
          updated_at: now,
        })),
    );
  }

  private async one(datasetId: string, position: number, answers: Answers): Promise<BoxItem> {
    const dataset = await this.datasets.get(datasetId);
    const row = (await this.measure(datasetId, await this.itemRows(datasetId, position)))[0]!;
    const model = await this.modelOf(datasetId, answers);
    const verdicts = (await this.judgements.rows(datasetId, model, row.id)).get(row.id) ?? [];
    return this.toItem({
      row,
      answers: (await this.answerMap(answers, position)).get(position) ?? {},
      verdicts,
      newest: (await this.newest(datasetId, model, position)).get(position),
      model,
      runId: answers.run_id,
      createdAt: dataset.created_at,
      history: await this.judgements.history(datasetId, row.id, model),
    });
  }

  /** The newest answer of `model` to each item over every run of the dataset (one item only when given). */
  private async newest(datasetId: string, model: string | null, position?: number): Promise<Map<number, NewestRow>> {
    if (model === null) return new Map();
    const rows = await this.evalResults.newestAnswers(datasetId, model, position);
    return new Map(rows.map((r) => [r.position, r]));
  }

  /** When the answer under review at `position` was given, or null with none. */
  private async answeredAt(answers: Answers, position: number): Promise<string | null> {
    if (answers.run_id === null) return null;
    return (await this.evalResults.answersOf(answers.run_id, answers.variant, position))[0]?.answered_at ?? null;
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
    const truth = truthFromExpected(o.row.expected);
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
  private async answerMap(answers: Answers, position?: number): Promise<Map<number, Record<string, Edges>>> {
    if (answers.run_id === null) return new Map();
    const rows = await this.evalResults.answersOf(answers.run_id, answers.variant, position);
    return new Map(rows.map((r) => [r.position, boxAnswersOf(r.answers)]));
  }

  /** The model of the answers under review, as the run names it; a run over another dataset is refused. */
  private async modelOf(datasetId: string, answers: Answers): Promise<string | null> {
    if (answers.run_id === null) return null;
    const run = await this.evalResults.stored(answers.run_id);
    if (run.dataset_id !== datasetId) throw new GatewayError('bad_request', `run_id: the evaluation run "${answers.run_id}" is over another dataset`);
    return answers.variant < run.variants.length ? variantKeys(run.variants)[answers.variant]! : null;
  }

  /**
   * Reads the size of each image not measured before, from the start of its content (a dataset made
   * elsewhere is read once, on its first listing), and keeps it.
   */
  private async measure(datasetId: string, rows: ItemRow[]): Promise<ItemRow[]> {
    const missing = rows.filter((r) => !r.sized);
    if (missing.length === 0) return rows;
    const sizes = new Map<string, { width: number | null; height: number | null }>();
    for (const r of missing) sizes.set(r.id, sizeFromHead((await this.datasets.contentHead(datasetId, r.position, HEAD)) ?? ''));
    await this.storage.keepImageSizes(
      datasetId,
      [...sizes].map(([item_id, size]) => ({ item_id, ...size })),
    );
    return rows.map((r) => (r.sized ? r : { ...r, ...sizes.get(r.id)!, sized: true }));
  }
}
