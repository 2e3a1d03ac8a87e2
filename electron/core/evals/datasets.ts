import { randomUUID } from 'node:crypto';
import type { Writable } from 'node:stream';
import type { DatasetItem, DatasetSummary, Expected, ImportProblem, ImportReport } from '../../../shared/schemas/evaluation';
import type { Question } from '../../../shared/schemas/question';
import { isoTime, type Clock } from '../clock';
import { GatewayError } from '../errors';
import type { Store } from '../store/sqlite/database';
import { checkExpected, expectedMisfits, validateRow, type ExpectedGroup, type RawRow, type ValidRow } from './dataset-rows';

interface DatasetRow {
  id: string;
  name: string;
  status: 'importing' | 'ready';
  item_count: number;
  created_at: string;
  sample: number;
}

interface ItemRow {
  position: number;
  id: string;
  state: string;
  expected: string;
}

/** Rows written per transaction while importing. */
const BATCH = 500;
/** Problems listed in a report (all are counted). */
export const MAX_LISTED_PROBLEMS = 200;

const toItem = (r: ItemRow): DatasetItem => ({
  position: r.position,
  id: r.id,
  state: JSON.parse(r.state) as unknown,
  expected: JSON.parse(r.expected) as Expected,
});

/** Labelled datasets in SQLite: imported all-or-nothing (or valid rows only), browsed in pages, edited, exported. */
export class Datasets {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {
    // An import cut off by a killed process left a dataset that never became ready.
    this.store.run("DELETE FROM datasets WHERE status = 'importing'");
  }

  /** Each dataset's expected answers grouped by question and value, made once per revision of the items (moved by triggers, whoever writes). */
  private readonly expectedCache = new Map<string, { revision: number; groups: ExpectedGroup[] }>();

  /**
   * The dataset's expected answers by question and value, with how many items give each and one of
   * them: a few rows however many items (boxes are grouped by question alone, one of them shown).
   */
  expectedGroups(datasetId: string): ExpectedGroup[] {
    const revision = this.store.revision('items');
    let cached = this.expectedCache.get(datasetId);
    if (!cached || cached.revision !== revision) {
      const rows = this.store.all<{ name: string; type: string; value: string | number | null; sample: string; items: number; example: string }>(
        `SELECT j.key AS name, j.type AS type, CASE WHEN j.type IN ('object', 'array') THEN NULL ELSE j.value END AS value,
           MIN(CASE WHEN j.type IN ('object', 'array') THEN j.value END) AS sample, COUNT(*) AS items, MIN(d.id) AS example
         FROM dataset_items d, json_each(d.expected) j WHERE d.dataset_id = ? GROUP BY 1, 2, 3`,
        [datasetId],
      );
      const valueOf = (r: (typeof rows)[number]): unknown =>
        r.type === 'true'
          ? true
          : r.type === 'false'
            ? false
            : r.type === 'null'
              ? null
              : r.type === 'object' || r.type === 'array'
                ? JSON.parse(r.sample)
                : r.value;
      cached = { revision, groups: rows.map((r) => ({ name: r.name, value: valueOf(r), items: r.items, example: r.example })) };
      this.expectedCache.set(datasetId, cached);
    }
    return cached.groups;
  }

  /**
   * Refuses a question set that cannot take the dataset's expected answers (a question of the same
   * name of another kind, an option it lacks, a level out of its range): its metrics would be
   * meaningless. Answers to questions the set does not ask are left alone.
   */
  assertFits(datasetId: string, questions: Record<string, Question>): void {
    const misfits = expectedMisfits(this.expectedGroups(datasetId), questions);
    if (misfits.length === 0) return;
    const shown = misfits.slice(0, 5).join('; ') + (misfits.length > 5 ? `; and ${misfits.length - 5} more` : '');
    throw new GatewayError(
      'bad_request',
      `dataset "${this.get(datasetId).name}" has expected answers this question set cannot take: ${shown}. Choose the question set the dataset was made for, or correct those answers`,
    );
  }

  private summary(row: DatasetRow): DatasetSummary {
    const labelled: Record<string, number> = {};
    for (const g of this.expectedGroups(row.id)) labelled[g.name] = (labelled[g.name] ?? 0) + g.items;
    return { id: row.id, name: row.name, items: row.item_count, labelled, created_at: row.created_at, sample: row.sample === 1 };
  }

  list(): DatasetSummary[] {
    return this.store.all<DatasetRow>("SELECT * FROM datasets WHERE status = 'ready' ORDER BY created_at DESC").map((r) => this.summary(r));
  }

  get(id: string): DatasetSummary {
    return this.summary(this.row(id));
  }

  /** How many items a dataset has, without counting its labels (which reads every item). */
  itemCount(id: string): number {
    return this.row(id).item_count;
  }

  private row(id: string): DatasetRow {
    const row = this.store.get<DatasetRow>("SELECT * FROM datasets WHERE id = ? AND status = 'ready'", [id]);
    if (!row) throw new GatewayError('not_found', `No dataset with id "${id}"`);
    return row;
  }

  /**
   * Reads every row, checks it against the questions and stores the valid ones in batches. With
   * `validOnly` false (the default) nothing is kept when any row is wrong; the report lists every
   * problem (the first MAX_LISTED_PROBLEMS) with file, row and field.
   */
  async import(options: { name: string; rows: AsyncIterable<RawRow>; questions: Record<string, Question>; validOnly?: boolean }): Promise<ImportReport> {
    const id = `ds-${randomUUID()}`;
    this.store.run("INSERT INTO datasets (id, name, status, created_at) VALUES (?, ?, 'importing', ?)", [id, options.name, isoTime(this.clock)]);
    const problems: ImportProblem[] = [];
    let problemRows = 0;
    let position = 0;
    let batch: ValidRow[] = [];
    const seen = new Map<string, number>();
    const flush = () => {
      const rows = batch;
      batch = [];
      this.store.transaction(() => {
        for (const r of rows)
          this.store.run('INSERT INTO dataset_items (dataset_id, position, id, state, expected) VALUES (?, ?, ?, ?, ?)', [
            id,
            position++,
            r.id,
            JSON.stringify(r.state),
            JSON.stringify(r.expected),
          ]);
      });
    };
    try {
      for await (const raw of options.rows) {
        let checked = validateRow(raw, options.questions);
        const first = 'row' in checked ? seen.get(checked.row.id) : undefined;
        if ('row' in checked && first !== undefined)
          checked = { problems: [{ file: raw.file, row: raw.row, field: 'id', message: `id "${checked.row.id}" appears twice (first at row ${first})` }] };
        if ('problems' in checked) {
          problemRows += 1;
          for (const p of checked.problems) if (problems.length < MAX_LISTED_PROBLEMS) problems.push(p);
          continue;
        }
        seen.set(checked.row.id, raw.row);
        // All-or-nothing: once anything is wrong, keep checking but stop writing.
        if (problemRows > 0 && !options.validOnly) continue;
        batch.push(checked.row);
        if (batch.length >= BATCH) flush();
      }
      // Nothing valid to keep makes no dataset, even when only the valid rows were asked for.
      if (problemRows > 0 && (!options.validOnly || position + batch.length === 0)) {
        this.store.run('DELETE FROM datasets WHERE id = ?', [id]);
        return { dataset: null, imported: 0, skipped: problemRows, problems };
      }
      flush();
      this.store.run("UPDATE datasets SET status = 'ready', item_count = ? WHERE id = ?", [position, id]);
    } catch (error) {
      this.store.run('DELETE FROM datasets WHERE id = ?', [id]);
      throw error;
    }
    return { dataset: this.get(id), imported: position, skipped: problemRows, problems };
  }

  /** Stores items that are already valid (saved from runs or box reviews). */
  create(name: string, items: readonly ValidRow[], options: { sample?: boolean } = {}): DatasetSummary {
    const id = `ds-${randomUUID()}`;
    this.store.transaction(() => {
      this.store.run("INSERT INTO datasets (id, name, status, item_count, created_at, sample) VALUES (?, ?, 'ready', ?, ?, ?)", [
        id,
        name,
        items.length,
        isoTime(this.clock),
        options.sample ? 1 : 0,
      ]);
      items.forEach((r, position) =>
        this.store.run('INSERT INTO dataset_items (dataset_id, position, id, state, expected) VALUES (?, ?, ?, ?, ?)', [
          id,
          position,
          r.id,
          JSON.stringify(r.state),
          JSON.stringify(r.expected),
        ]),
      );
    });
    return this.get(id);
  }

  items(datasetId: string, page: { offset: number; limit: number; search?: string | undefined }): { total: number; items: DatasetItem[] } {
    this.get(datasetId);
    const where = page.search ? 'dataset_id = ? AND (id LIKE ? OR state LIKE ?)' : 'dataset_id = ?';
    const params = page.search ? [datasetId, `%${page.search}%`, `%${page.search}%`] : [datasetId];
    const total = this.store.get<{ n: number }>(`SELECT COUNT(*) AS n FROM dataset_items WHERE ${where}`, params)!.n;
    const rows = this.store.all<ItemRow>(`SELECT position, id, state, expected FROM dataset_items WHERE ${where} ORDER BY position LIMIT ? OFFSET ?`, [
      ...params,
      page.limit,
      page.offset,
    ]);
    return { total, items: rows.map(toItem) };
  }

  /** Every item in dataset order, one at a time (for runs and exports of any size). */
  *iterate(datasetId: string, pageSize = 1000): Generator<DatasetItem> {
    for (let offset = 0; ; offset += pageSize) {
      const rows = this.store.all<ItemRow>('SELECT position, id, state, expected FROM dataset_items WHERE dataset_id = ? ORDER BY position LIMIT ? OFFSET ?', [
        datasetId,
        pageSize,
        offset,
      ]);
      for (const r of rows) yield toItem(r);
      if (rows.length < pageSize) return;
    }
  }

  private readonly largestCache = new Map<string, { revision: number; n: number; positions: number[] }>();

  /**
   * The `n` items with the longest stored state in the whole dataset (text and image data alike),
   * longest first: where one request costs the most. A scan of the dataset, kept until dataset
   * items change.
   */
  largest(datasetId: string, n = 3): DatasetItem[] {
    this.row(datasetId); // not found, named, before anything is read
    const revision = this.store.revision('items');
    let cached = this.largestCache.get(datasetId);
    if (!cached || cached.revision !== revision || cached.n !== n) {
      const rows = this.store.all<{ position: number }>(
        'SELECT position FROM dataset_items WHERE dataset_id = ? ORDER BY length(state) DESC, position LIMIT ?',
        [datasetId, n],
      );
      cached = { revision, n, positions: rows.map((r) => r.position) };
      this.largestCache.set(datasetId, cached);
    }
    return cached.positions.map((position) => this.item(datasetId, position));
  }

  item(datasetId: string, position: number): DatasetItem {
    const row = this.store.get<ItemRow>('SELECT position, id, state, expected FROM dataset_items WHERE dataset_id = ? AND position = ?', [datasetId, position]);
    if (!row) throw new GatewayError('not_found', `No item at position ${position} of dataset "${datasetId}"`);
    return toItem(row);
  }

  /** Replaces one item's expected answers, each checked against the questions. */
  updateExpected(datasetId: string, position: number, expected: Expected, questions: Record<string, Question>): DatasetItem {
    const item = this.item(datasetId, position);
    const checked: Expected = {};
    for (const [name, value] of Object.entries(expected)) {
      const q = Object.hasOwn(questions, name) ? questions[name] : undefined;
      if (!q) throw new GatewayError('bad_request', `expected.${name}: unknown question "${name}"`);
      const result = checkExpected(q, value);
      if ('message' in result) throw new GatewayError('bad_request', `expected.${name}: ${result.message}`);
      checked[name] = result.value;
    }
    this.store.run('UPDATE dataset_items SET expected = ? WHERE dataset_id = ? AND position = ?', [JSON.stringify(checked), datasetId, position]);
    return { ...item, expected: checked };
  }

  delete(id: string): { id: string } {
    this.get(id);
    this.store.run('DELETE FROM datasets WHERE id = ?', [id]);
    this.expectedCache.delete(id);
    this.largestCache.delete(id);
    return { id };
  }

  /** Writes the dataset as JSONL or CSV (state as text, or JSON for structured states). */
  async export(id: string, format: 'jsonl' | 'csv', out: Writable | { write(text: string): unknown }): Promise<void> {
    const summary = this.get(id);
    const names = Object.keys(summary.labelled).sort();
    const write = async (text: string) => {
      if (!(out as { write(t: string): boolean }).write(text) && 'once' in out) await new Promise((r) => (out as Writable).once('drain', r));
    };
    if (format === 'csv') await write(`${['id', 'state', ...names.map((n) => `expected.${n}`)].map(csvCell).join(',')}\n`);
    for (const item of this.iterate(id)) {
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

export function csvCell(value: string): string {
  return /[",\r\n]/.test(value) || /^\s|\s$/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}
