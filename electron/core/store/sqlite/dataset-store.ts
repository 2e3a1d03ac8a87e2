import type { DatasetStorage, StoredDataset, StoredExpectedGroup, StoredItem } from '../ports';
import type { Store } from './database';

interface DatasetRow {
  id: string;
  name: string;
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

const toDataset = (r: DatasetRow): StoredDataset => ({ id: r.id, name: r.name, items: r.item_count, created_at: r.created_at, sample: r.sample === 1 });

const toItem = (r: ItemRow): StoredItem => ({
  position: r.position,
  id: r.id,
  state: JSON.parse(r.state) as unknown,
  expected: JSON.parse(r.expected) as Record<string, unknown>,
});

const ITEM = 'SELECT position, id, state, expected FROM dataset_items';

/** The datasets domain's tables (`datasets`, `dataset_items`) in the SQLite file. */
export class SqliteDatasetStore implements DatasetStorage {
  constructor(private readonly store: Store) {}

  async dropUnfinished(): Promise<void> {
    this.store.run("DELETE FROM datasets WHERE status = 'importing'");
  }

  async list(): Promise<StoredDataset[]> {
    return this.store.all<DatasetRow>("SELECT * FROM datasets WHERE status = 'ready' ORDER BY created_at DESC").map(toDataset);
  }

  async get(id: string): Promise<StoredDataset | undefined> {
    const row = this.store.get<DatasetRow>("SELECT * FROM datasets WHERE id = ? AND status = 'ready'", [id]);
    return row ? toDataset(row) : undefined;
  }

  async beginImport(d: { id: string; name: string; created_at: string }): Promise<void> {
    this.store.run("INSERT INTO datasets (id, name, status, created_at) VALUES (?, ?, 'importing', ?)", [d.id, d.name, d.created_at]);
  }

  private insertItems(datasetId: string, items: readonly StoredItem[]): void {
    for (const r of items)
      this.store.run('INSERT INTO dataset_items (dataset_id, position, id, state, expected) VALUES (?, ?, ?, ?, ?)', [
        datasetId,
        r.position,
        r.id,
        JSON.stringify(r.state),
        JSON.stringify(r.expected),
      ]);
  }

  async appendItems(datasetId: string, items: readonly StoredItem[]): Promise<void> {
    this.store.transaction(() => this.insertItems(datasetId, items));
  }

  async finishImport(datasetId: string, items: number): Promise<void> {
    this.store.run("UPDATE datasets SET status = 'ready', item_count = ? WHERE id = ?", [items, datasetId]);
  }

  async create(d: StoredDataset, items: readonly StoredItem[]): Promise<void> {
    this.store.transaction(() => {
      this.store.run("INSERT INTO datasets (id, name, status, item_count, created_at, sample) VALUES (?, ?, 'ready', ?, ?, ?)", [
        d.id,
        d.name,
        d.items,
        d.created_at,
        d.sample ? 1 : 0,
      ]);
      this.insertItems(d.id, items);
    });
  }

  async addItems(datasetId: string, items: readonly { id: string; state: unknown }[]): Promise<{ position: number; id: string }[]> {
    return this.store.transaction(() => {
      // After the last item, not at the count: a capture rule's retention leaves gaps.
      let position = this.store.get<{ n: number }>('SELECT COALESCE(MAX(position) + 1, 0) AS n FROM dataset_items WHERE dataset_id = ?', [datasetId])!.n;
      const added: { position: number; id: string }[] = [];
      for (const item of items) {
        let id = item.id;
        for (let n = 2; this.store.get('SELECT 1 FROM dataset_items WHERE dataset_id = ? AND id = ?', [datasetId, id]); n += 1) id = `${item.id} (${n})`;
        this.store.run("INSERT INTO dataset_items (dataset_id, position, id, state, expected) VALUES (?, ?, ?, ?, '{}')", [
          datasetId,
          position,
          id,
          JSON.stringify(item.state),
        ]);
        added.push({ position: position++, id });
      }
      this.store.run('UPDATE datasets SET item_count = item_count + ? WHERE id = ?', [added.length, datasetId]);
      return added;
    });
  }

  async remove(id: string): Promise<boolean> {
    return this.store.run('DELETE FROM datasets WHERE id = ?', [id]).changes > 0;
  }

  async page(datasetId: string, page: { offset: number; limit: number; search?: string | undefined }): Promise<{ total: number; items: StoredItem[] }> {
    const where = page.search ? 'dataset_id = ? AND (id LIKE ? OR state LIKE ?)' : 'dataset_id = ?';
    const params = page.search ? [datasetId, `%${page.search}%`, `%${page.search}%`] : [datasetId];
    const total = this.store.get<{ n: number }>(`SELECT COUNT(*) AS n FROM dataset_items WHERE ${where}`, params)!.n;
    const rows = this.store.all<ItemRow>(`${ITEM} WHERE ${where} ORDER BY position LIMIT ? OFFSET ?`, [...params, page.limit, page.offset]);
    return { total, items: rows.map(toItem) };
  }

  async itemsAfter(datasetId: string, after: number, limit: number): Promise<StoredItem[]> {
    return this.store.all<ItemRow>(`${ITEM} WHERE dataset_id = ? AND position > ? ORDER BY position LIMIT ?`, [datasetId, after, limit]).map(toItem);
  }

  async item(datasetId: string, position: number): Promise<StoredItem | undefined> {
    const row = this.store.get<ItemRow>(`${ITEM} WHERE dataset_id = ? AND position = ?`, [datasetId, position]);
    return row ? toItem(row) : undefined;
  }

  async expectations(datasetId: string, position?: number): Promise<{ position: number; id: string; expected: Record<string, unknown> }[]> {
    return this.store
      .all<{ position: number; id: string; expected: string }>(
        `SELECT position, id, expected FROM dataset_items WHERE dataset_id = ?${position === undefined ? '' : ' AND position = ?'} ORDER BY position`,
        [datasetId, ...(position === undefined ? [] : [position])],
      )
      .map((r) => ({ position: r.position, id: r.id, expected: JSON.parse(r.expected) as Record<string, unknown> }));
  }

  async largest(datasetId: string, n: number): Promise<number[]> {
    return this.store
      .all<{ position: number }>('SELECT position FROM dataset_items WHERE dataset_id = ? ORDER BY length(state) DESC, position LIMIT ?', [datasetId, n])
      .map((r) => r.position);
  }

  async expectedGroups(datasetId: string): Promise<StoredExpectedGroup[]> {
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
    return rows.map((r) => ({ name: r.name, value: valueOf(r), items: r.items, example: r.example }));
  }

  async setExpected(datasetId: string, position: number, expected: Record<string, unknown>): Promise<boolean> {
    return (
      this.store.run('UPDATE dataset_items SET expected = ? WHERE dataset_id = ? AND position = ?', [JSON.stringify(expected), datasetId, position]).changes > 0
    );
  }

  async contentHead(datasetId: string, position: number, chars: number): Promise<string | undefined> {
    return this.store.get<{ head: string }>('SELECT substr(state, 1, ?) AS head FROM dataset_items WHERE dataset_id = ? AND position = ?', [
      chars,
      datasetId,
      position,
    ])?.head;
  }

  async withImageFirst(): Promise<string[]> {
    return this.store
      .all<{ id: string }>(
        "SELECT d.id AS id FROM datasets d JOIN dataset_items i ON i.dataset_id = d.id AND i.position = 0 WHERE d.status = 'ready' AND instr(substr(i.state, 1, 200), 'data:image/') > 0",
      )
      .map((r) => r.id);
  }

  changeToken(): number {
    // Moved by triggers on every write to items, whichever process makes it.
    return this.store.revision('items');
  }
}
