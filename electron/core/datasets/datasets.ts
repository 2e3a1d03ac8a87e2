import { randomUUID } from 'node:crypto';
import type { Writable } from 'node:stream';
import type { DatasetItem, DatasetSummary, Expected, ImportProblem, ImportReport } from '../../../shared/schemas/evaluation';
import type { Question } from '../../../shared/schemas/question';
import { isoTime, type Clock } from '../clock';
import { GatewayError } from '../errors';
import type { DatasetStorage, StoredDataset } from '../store/ports';
import { itemsLabelledFor } from './dataset-fit';
import { checkExpected, expectedMisfits, validateRow, type ExpectedGroup, type RawRow, type ValidRow } from './dataset-rows';

/** Rows written per transaction while importing. */
const BATCH = 500;
/** Problems listed in a report (all are counted). */
export const MAX_LISTED_PROBLEMS = 200;

/** Labelled datasets: imported all-or-nothing (or valid rows only), browsed in pages, edited, exported. */
export class Datasets {
  private constructor(
    private readonly storage: DatasetStorage,
    private readonly clock: Clock,
  ) {}

  static async open(storage: DatasetStorage, clock: Clock): Promise<Datasets> {
    // An import cut off by a killed process left a dataset that never became ready.
    await storage.dropUnfinished();
    return new Datasets(storage, clock);
  }

  /** Each dataset's expected answers grouped by question and value, made once per revision of the items (moved by triggers, whoever writes). */
  private readonly expectedCache = new Map<string, { revision: number; groups: ExpectedGroup[] }>();

  /**
   * The dataset's expected answers by question and value, with how many items give each and one of
   * them: a few rows however many items (boxes are grouped by question alone, one of them shown).
   */
  async expectedGroups(datasetId: string): Promise<ExpectedGroup[]> {
    const revision = this.storage.changeToken();
    let cached = this.expectedCache.get(datasetId);
    if (!cached || cached.revision !== revision) {
      cached = { revision, groups: await this.storage.expectedGroups(datasetId) };
      this.expectedCache.set(datasetId, cached);
    }
    return cached.groups;
  }

  /**
   * Refuses a question set that cannot take the dataset's expected answers (a question of the same
   * name of another kind, an option it lacks, a level out of its range): its metrics would be
   * meaningless. Answers to questions the set does not ask are left alone.
   */
  async assertFits(datasetId: string, questions: Record<string, Question>): Promise<void> {
    const misfits = expectedMisfits(await this.expectedGroups(datasetId), questions);
    if (misfits.length === 0) return;
    const shown = misfits.slice(0, 5).join('; ') + (misfits.length > 5 ? `; and ${misfits.length - 5} more` : '');
    throw new GatewayError(
      'bad_request',
      `dataset "${(await this.get(datasetId)).name}" has expected answers this question set cannot take: ${shown}. Choose the question set the dataset was made for, or correct those answers`,
    );
  }

  private async summary(d: StoredDataset): Promise<DatasetSummary> {
    const labelled: Record<string, number> = {};
    for (const g of await this.expectedGroups(d.id)) labelled[g.name] = (labelled[g.name] ?? 0) + g.items;
    return { id: d.id, name: d.name, items: d.items, labelled, created_at: d.created_at, sample: d.sample };
  }

  async list(): Promise<DatasetSummary[]> {
    return Promise.all((await this.storage.list()).map((d) => this.summary(d)));
  }

  async get(id: string): Promise<DatasetSummary> {
    return this.summary(await this.stored(id));
  }

  /** How many items a dataset has, without counting its labels (which reads every item). */
  async itemCount(id: string): Promise<number> {
    return (await this.stored(id)).items;
  }

  private async stored(id: string): Promise<StoredDataset> {
    const d = await this.storage.get(id);
    if (!d) throw new GatewayError('not_found', `No dataset with id "${id}"`);
    return d;
  }

  /**
   * Reads every row, checks it against the questions and stores the valid ones in batches. With
   * `validOnly` false (the default) nothing is kept when any row is wrong; the report lists every
   * problem (the first MAX_LISTED_PROBLEMS) with file, row and field.
   */
  async import(options: {
    name: string;
    rows: AsyncIterable<RawRow>;
    questions: Record<string, Question>;
    validOnly?: boolean;
    /** Read each answer that has a suggestion as suggested (dataset-rows.ts), counted in the report's `taken`. */
    takeSuggestions?: boolean;
  }): Promise<ImportReport> {
    const id = `ds-${randomUUID()}`;
    await this.storage.beginImport({ id, name: options.name, created_at: isoTime(this.clock) });
    const problems: ImportProblem[] = [];
    let problemRows = 0;
    let taken = 0;
    let position = 0;
    let batch: ValidRow[] = [];
    const seen = new Map<string, number>();
    const flush = async () => {
      const rows = batch;
      batch = [];
      await this.storage.appendItems(
        id,
        rows.map((r) => ({ position: position++, id: r.id, state: r.state, expected: r.expected })),
      );
    };
    try {
      for await (const raw of options.rows) {
        let checked = validateRow(raw, options.questions, { takeSuggestions: options.takeSuggestions === true });
        const first = 'row' in checked ? seen.get(checked.row.id) : undefined;
        if ('row' in checked && first !== undefined)
          checked = { problems: [{ file: raw.file, row: raw.row, field: 'id', message: `id "${checked.row.id}" appears twice (first at row ${first})` }] };
        if ('problems' in checked) {
          problemRows += 1;
          for (const p of checked.problems) if (problems.length < MAX_LISTED_PROBLEMS) problems.push(p);
          continue;
        }
        seen.set(checked.row.id, raw.row);
        taken += checked.taken;
        // All-or-nothing: once anything is wrong, keep checking but stop writing.
        if (problemRows > 0 && !options.validOnly) continue;
        batch.push(checked.row);
        if (batch.length >= BATCH) await flush();
      }
      // Nothing valid to keep makes no dataset, even when only the valid rows were asked for.
      if (problemRows > 0 && (!options.validOnly || position + batch.length === 0)) {
        await this.storage.remove(id);
        return { dataset: null, imported: 0, skipped: problemRows, problems };
      }
      await flush();
      await this.storage.finishImport(id, position);
    } catch (error) {
      await this.storage.remove(id);
      throw error;
    }
    return { dataset: await this.get(id), imported: position, skipped: problemRows, problems, ...(taken > 0 ? { taken } : {}) };
  }

  /** Stores items that are already valid (saved from runs or box reviews). */
  async create(name: string, items: readonly ValidRow[], options: { sample?: boolean } = {}): Promise<DatasetSummary> {
    const id = `ds-${randomUUID()}`;
    await this.storage.create(
      { id, name, items: items.length, created_at: isoTime(this.clock), sample: options.sample ?? false },
      items.map((r, position) => ({ position, id: r.id, state: r.state, expected: r.expected })),
    );
    return this.get(id);
  }

  /** The dataset of this id, made empty under `name` when there is none (the human stage's queue): made once whoever asks first. */
  async ensure(id: string, name: string): Promise<DatasetSummary> {
    if (!(await this.storage.get(id))) {
      await this.storage.create({ id, name, items: 0, created_at: isoTime(this.clock), sample: false }, []).catch(async (error: unknown) => {
        // Another process made it meanwhile.
        if (!(await this.storage.get(id))) throw error;
      });
    }
    return this.get(id);
  }

  /** Adds items after the last one (ids made unique as "id (2)"…) with no expected answers; where each went. */
  async addItems(datasetId: string, items: readonly { id: string; state: unknown }[]): Promise<{ position: number; id: string }[]> {
    await this.stored(datasetId);
    return this.storage.addItems(datasetId, items);
  }

  async items(datasetId: string, page: { offset: number; limit: number; search?: string | undefined }): Promise<{ total: number; items: DatasetItem[] }> {
    await this.stored(datasetId);
    const found = await this.storage.page(datasetId, page);
    return { total: found.total, items: found.items.map(asItem) };
  }

  /** Every item in dataset order, a page at a time (for runs and exports of any size). */
  async *iterate(datasetId: string, pageSize = 1000): AsyncGenerator<DatasetItem> {
    for (let after = -1; ;) {
      const rows = await this.storage.itemsAfter(datasetId, after, pageSize);
      for (const r of rows) yield asItem(r);
      if (rows.length < pageSize) return;
      after = rows[rows.length - 1]!.position;
    }
  }

  /** Every item's position, id and expected answers in order, without their content (reports read these). */
  async expectations(datasetId: string, position?: number): Promise<{ position: number; id: string; expected: Expected }[]> {
    return (await this.storage.expectations(datasetId, position)) as { position: number; id: string; expected: Expected }[];
  }

  /** The start of an item's content as stored (JSON text): enough to read an image's size without loading it. */
  contentHead(datasetId: string, position: number, chars: number): Promise<string | undefined> {
    return this.storage.contentHead(datasetId, position, chars);
  }

  /** Per dataset, how many items carry an expected answer to one of the questions, and whether its items are images. */
  async fitFor(questions: readonly string[]): Promise<{ dataset_id: string; labelled_items: number; images: boolean }[]> {
    const images = new Set(await this.storage.withImageFirst());
    return Promise.all(
      (await this.storage.list()).map(async (d) => ({
        dataset_id: d.id,
        labelled_items: itemsLabelledFor(await this.storage.expectations(d.id), questions),
        images: images.has(d.id),
      })),
    );
  }

  /** Ready datasets whose first item holds an image. */
  async withImages(): Promise<DatasetSummary[]> {
    const ids = new Set(await this.storage.withImageFirst());
    return (await this.list()).filter((d) => ids.has(d.id));
  }

  private readonly largestCache = new Map<string, { revision: number; n: number; positions: number[] }>();

  /**
   * The `n` items with the longest stored state in the whole dataset (text and image data alike),
   * longest first: where one request costs the most. A scan of the dataset, kept until dataset
   * items change.
   */
  async largest(datasetId: string, n = 3): Promise<DatasetItem[]> {
    await this.stored(datasetId); // not found, named, before anything is read
    const revision = this.storage.changeToken();
    let cached = this.largestCache.get(datasetId);
    if (!cached || cached.revision !== revision || cached.n !== n) {
      cached = { revision, n, positions: await this.storage.largest(datasetId, n) };
      this.largestCache.set(datasetId, cached);
    }
    return Promise.all(cached.positions.map((position) => this.item(datasetId, position)));
  }

  async item(datasetId: string, position: number): Promise<DatasetItem> {
    const found = await this.storage.item(datasetId, position);
    if (!found) throw new GatewayError('not_found', `No item at position ${position} of dataset "${datasetId}"`);
    return asItem(found);
  }

  /** Replaces one item's expected answers, each checked against the questions. */
  async updateExpected(datasetId: string, position: number, expected: Expected, questions: Record<string, Question>): Promise<DatasetItem> {
    const item = await this.item(datasetId, position);
    const checked: Expected = {};
    for (const [name, value] of Object.entries(expected)) {
      const q = Object.hasOwn(questions, name) ? questions[name] : undefined;
      if (!q) throw new GatewayError('bad_request', `expected.${name}: unknown question "${name}"`);
      const result = checkExpected(q, value);
      if ('message' in result) throw new GatewayError('bad_request', `expected.${name}: ${result.message}`);
      checked[name] = result.value;
    }
    await this.storage.setExpected(datasetId, position, checked);
    return { ...item, expected: checked };
  }

  /** Writes expected answers as they are (already checked by the caller, e.g. box truth). */
  async putExpected(datasetId: string, position: number, expected: Expected): Promise<void> {
    if (!(await this.storage.setExpected(datasetId, position, expected)))
      throw new GatewayError('not_found', `No item at position ${position} of dataset "${datasetId}"`);
  }

  async delete(id: string): Promise<{ id: string }> {
    await this.get(id);
    await this.storage.remove(id);
    this.expectedCache.delete(id);
    this.largestCache.delete(id);
    return { id };
  }

  /** Writes the dataset as JSONL or CSV (state as text, or JSON for structured states). */
  async export(id: string, format: 'jsonl' | 'csv', out: Writable | { write(text: string): unknown }): Promise<void> {
    const summary = await this.get(id);
    const names = Object.keys(summary.labelled).sort();
    const write = async (text: string) => {
      if (!(out as { write(t: string): boolean }).write(text) && 'once' in out) await new Promise((r) => (out as Writable).once('drain', r));
    };
    if (format === 'csv') await write(`${['id', 'state', ...names.map((n) => `expected.${n}`)].map(csvCell).join(',')}\n`);
    for await (const item of this.iterate(id)) {
      if (format === 'jsonl') await write(`${JSON.stringify({ id: item.id, state: item.state, expected: item.expected })}\n`);
      else {
        const state = typeof item.state === 'string' ? item.state : JSON.stringify(item.state);
        const cells = names.map((n) => {
          const v = item.expected[n];
          return v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
        });
        await write(`${[item.id, state, ...cells].map(csvCell).join(',')}\n`);
      }
    }
  }
}

const asItem = (r: { position: number; id: string; state: unknown; expected: Record<string, unknown> }): DatasetItem => ({
  position: r.position,
  id: r.id,
  state: r.state,
  expected: r.expected as Expected,
});

export function csvCell(value: string): string {
  return /[",\r\n]/.test(value) || /^\s|\s$/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}
