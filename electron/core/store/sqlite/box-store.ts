import type { BoxStorage, StoredBoxItem, StoredVerdict, StoredVerdictEnd, VerdictChange } from '../ports';
import type { Store } from './database';
import { ITEM_COLUMNS, itemValues, toItem, type ItemRow } from '../box-rows';

const VERDICT = 'SELECT item_id, question, model, verdict, note, answers, truth, run_id, variant, answered_at, updated_at FROM box_verdicts';

/** The boxes domain's tables (`box_items`, `box_verdicts`, `box_verdict_history`, `box_image_sizes`) in the SQLite file. */
export class SqliteBoxStore implements BoxStorage {
  constructor(private readonly store: Store) {}

  async listItems(options: { images: boolean }): Promise<StoredBoxItem[]> {
    const columns = options.images ? '*' : `${ITEM_COLUMNS}, '' AS data_url`;
    return this.store.all<ItemRow>(`SELECT ${columns} FROM box_items ORDER BY created_at, id`).map(toItem);
  }

  async getItem(id: string): Promise<StoredBoxItem | undefined> {
    const row = this.store.get<ItemRow>('SELECT * FROM box_items WHERE id = ?', [id]);
    return row ? toItem(row) : undefined;
  }

  async addItem(item: StoredBoxItem): Promise<void> {
    this.putItemNow(item);
  }

  async putItem(item: StoredBoxItem): Promise<void> {
    this.putItemNow(item);
  }

  private putItemNow(i: StoredBoxItem): void {
    this.store.run(
      'INSERT OR REPLACE INTO box_items (id, name, data_url, truth, answer, answers, model, run_id, verdict, verdict_run_id, note, width, height, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      itemValues(i),
    );
  }

  async removeItem(id: string): Promise<void> {
    this.store.run('DELETE FROM box_items WHERE id = ?', [id]);
  }

  async verdicts(datasetId: string, models: readonly string[], itemId?: string): Promise<StoredVerdict[]> {
    if (models.length === 0) return [];
    return this.store.all<StoredVerdict>(
      `${VERDICT} WHERE dataset_id = ? AND model IN (${models.map(() => '?').join(', ')})${itemId === undefined ? '' : ' AND item_id = ?'} ORDER BY item_id, question, model`,
      [datasetId, ...models, ...(itemId === undefined ? [] : [itemId])],
    );
  }

  async allVerdicts(datasetId: string): Promise<StoredVerdict[]> {
    return this.store.all<StoredVerdict>(`${VERDICT} WHERE dataset_id = ? ORDER BY item_id, question, model`, [datasetId]);
  }

  async history(datasetId: string, itemId: string, model: string): Promise<StoredVerdictEnd[]> {
    return this.store.all<StoredVerdictEnd>(
      'SELECT question, verdict, note, given_at, ended_at FROM box_verdict_history WHERE dataset_id = ? AND item_id = ? AND model = ? ORDER BY ended_at DESC, rowid DESC LIMIT 20',
      [datasetId, itemId, model],
    );
  }

  async changeVerdicts(datasetId: string, itemId: string, model: string, change: VerdictChange): Promise<void> {
    this.store.transaction(() => {
      const read = (m: string) =>
        this.store.all<StoredVerdict>(`${VERDICT} WHERE dataset_id = ? AND item_id = ? AND model = ? ORDER BY question`, [datasetId, itemId, m]);
      const mine = read(model);
      const { rows, ended, at } = change(mine, model === '' ? [] : read(''));
      for (const r of ended)
        if (r.verdict !== null)
          this.store.run(
            'INSERT INTO box_verdict_history (dataset_id, item_id, question, model, verdict, note, given_at, ended_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
            [datasetId, itemId, r.question, model, r.verdict, r.note, r.updated_at, at],
          );
      this.store.run('DELETE FROM box_verdicts WHERE dataset_id = ? AND item_id = ? AND model = ?', [datasetId, itemId, model]);
      this.insertVerdicts(datasetId, rows);
    });
  }

  private insertVerdicts(datasetId: string, rows: readonly StoredVerdict[]): void {
    for (const v of rows)
      this.store.run(
        'INSERT OR REPLACE INTO box_verdicts (dataset_id, item_id, question, model, verdict, note, run_id, variant, answered_at, answers, truth, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        [datasetId, v.item_id, v.question, v.model, v.verdict, v.note, v.run_id, v.variant, v.answered_at, v.answers, v.truth, v.updated_at],
      );
  }

  async putVerdicts(datasetId: string, verdicts: readonly StoredVerdict[]): Promise<void> {
    this.store.transaction(() => this.insertVerdicts(datasetId, verdicts));
  }

  async allHistory(datasetId: string): Promise<(StoredVerdictEnd & { item_id: string; model: string })[]> {
    return this.store.all('SELECT item_id, model, question, verdict, note, given_at, ended_at FROM box_verdict_history WHERE dataset_id = ? ORDER BY rowid', [
      datasetId,
    ]);
  }

  async putHistory(datasetId: string, rows: readonly (StoredVerdictEnd & { item_id: string; model: string })[]): Promise<void> {
    this.store.transaction(() => {
      for (const r of rows)
        this.store.run(
          'INSERT INTO box_verdict_history (dataset_id, item_id, question, model, verdict, note, given_at, ended_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
          [datasetId, r.item_id, r.question, r.model, r.verdict, r.note, r.given_at, r.ended_at],
        );
    });
  }

  async imageSizes(datasetId: string): Promise<Map<string, { width: number | null; height: number | null }>> {
    return new Map(
      this.store
        .all<{ item_id: string; width: number | null; height: number | null }>('SELECT item_id, width, height FROM box_image_sizes WHERE dataset_id = ?', [
          datasetId,
        ])
        .map((r) => [r.item_id, { width: r.width, height: r.height }]),
    );
  }

  async keepImageSizes(datasetId: string, sizes: readonly { item_id: string; width: number | null; height: number | null }[]): Promise<void> {
    this.store.transaction(() => {
      for (const s of sizes)
        this.store.run('INSERT OR REPLACE INTO box_image_sizes (dataset_id, item_id, width, height) VALUES (?, ?, ?, ?)', [
          datasetId,
          s.item_id,
          s.width,
          s.height,
        ]);
    });
  }
}
