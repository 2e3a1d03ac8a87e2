import type pg from 'pg';
import type { DatasetStorage, StoredDataset, StoredExpectedGroup, StoredItem } from '../ports';
import { PgChangeToken } from './change-token';
import type { PgDatabase } from './database';
import { CHANNELS } from './migrations';

interface ItemRow {
  position: number;
  id: string;
  state: string;
  expected: string;
}

const DATASET = 'SELECT id, name, item_count AS items, created_at, sample FROM datasets';
const ITEM = 'SELECT position, id, state, expected FROM dataset_items';

const toItem = (r: ItemRow): StoredItem => ({
  position: r.position,
  id: r.id,
  state: JSON.parse(r.state) as unknown,
  expected: JSON.parse(r.expected) as Record<string, unknown>,
});

/** Rows sent in one statement at most, and characters of content (an image's data URL can be megabytes). */
const CHUNK_ROWS = 1000;
const CHUNK_CHARS = 8_000_000;

/** Items as the text stored, in statements of bounded size. */
function* chunks<T extends { state: string }>(items: readonly T[]): Generator<T[]> {
  let chunk: T[] = [];
  let chars = 0;
  for (const item of items) {
    if (chunk.length > 0 && (chunk.length >= CHUNK_ROWS || chars + item.state.length > CHUNK_CHARS)) {
      yield chunk;
      chunk = [];
      chars = 0;
    }
    chunk.push(item);
    chars += item.state.length;
  }
  if (chunk.length > 0) yield chunk;
}

async function insertRows(client: pg.PoolClient, datasetId: string, rows: readonly { position: number; id: string; state: string; expected: string }[]) {
  for (const chunk of chunks(rows)) {
    await client.query(
      'INSERT INTO dataset_items (dataset_id, position, id, state, expected) SELECT $1, * FROM unnest($2::integer[], $3::text[], $4::text[], $5::text[])',
      [datasetId, chunk.map((r) => r.position), chunk.map((r) => r.id), chunk.map((r) => r.state), chunk.map((r) => r.expected)],
    );
  }
}

/**
 * The datasets domain's tables (`datasets`, `dataset_items`) in Postgres. An item's content and
 * expected answers are kept as the JSON text SQLite keeps, so its length, head and search are the same.
 */
export class PgDatasetStore implements DatasetStorage {
  private constructor(
    private readonly db: PgDatabase,
    private readonly items: PgChangeToken,
    private readonly results: PgChangeToken,
  ) {}

  static async open(db: PgDatabase): Promise<PgDatasetStore> {
    return new PgDatasetStore(db, await PgChangeToken.on(db, CHANNELS.items), await PgChangeToken.on(db, CHANNELS.results));
  }

  /** After a write to items: this process's tokens move at once (other processes hear the notice). */
  private moved(): void {
    this.items.moved();
    this.results.moved();
  }

  async dropUnfinished(): Promise<void> {
    await this.db.query("DELETE FROM datasets WHERE status = 'importing'");
    this.moved();
  }

  async list(): Promise<StoredDataset[]> {
    return this.db.query<StoredDataset>(`${DATASET} WHERE status = 'ready' ORDER BY created_at DESC, id`);
  }

  async get(id: string): Promise<StoredDataset | undefined> {
    const [row] = await this.db.query<StoredDataset>(`${DATASET} WHERE id = $1 AND status = 'ready'`, [id]);
    return row;
  }

  async beginImport(d: { id: string; name: string; created_at: string }): Promise<void> {
    await this.db.query("INSERT INTO datasets (id, name, status, created_at) VALUES ($1, $2, 'importing', $3)", [d.id, d.name, d.created_at]);
  }

  private async insertItems(client: pg.PoolClient, datasetId: string, items: readonly StoredItem[]): Promise<void> {
    await insertRows(
      client,
      datasetId,
      items.map((r) => ({ position: r.position, id: r.id, state: JSON.stringify(r.state), expected: JSON.stringify(r.expected) })),
    );
  }

  async appendItems(datasetId: string, items: readonly StoredItem[]): Promise<void> {
    if (items.length === 0) return;
    await this.db.transaction((client) => this.insertItems(client, datasetId, items));
    this.moved();
  }

  async finishImport(datasetId: string, items: number): Promise<void> {
    await this.db.query("UPDATE datasets SET status = 'ready', item_count = $1 WHERE id = $2", [items, datasetId]);
  }

  async create(d: StoredDataset, items: readonly StoredItem[]): Promise<void> {
    await this.db.transaction(async (client) => {
      await client.query("INSERT INTO datasets (id, name, status, item_count, created_at, sample) VALUES ($1, $2, 'ready', $3, $4, $5)", [
        d.id,
        d.name,
        d.items,
        d.created_at,
        d.sample,
      ]);
      await this.insertItems(client, d.id, items);
    });
    this.moved();
  }

  async addItems(datasetId: string, items: readonly { id: string; state: unknown }[]): Promise<{ position: number; id: string }[]> {
    const added = await this.db.transaction(async (client) => {
      // The dataset's row is locked first, so additions from two processes take their positions one after the other.
      await client.query('SELECT 1 FROM datasets WHERE id = $1 FOR UPDATE', [datasetId]);
      // After the last item, not at the count: a capture rule's retention leaves gaps.
      const [last] = (
        await client.query<{ n: number }>('SELECT COALESCE(MAX(position) + 1, 0)::integer AS n FROM dataset_items WHERE dataset_id = $1', [datasetId])
      ).rows;
      let position = last!.n;
      // Every id already taken that an item's id could become: the id itself and "id (n)".
      const taken = new Set(
        (
          await client.query<{ id: string }>(
            "SELECT d.id FROM dataset_items d, unnest($2::text[]) AS g(id) WHERE d.dataset_id = $1 AND (d.id = g.id OR starts_with(d.id, g.id || ' ('))",
            [datasetId, [...new Set(items.map((i) => i.id))]],
          )
        ).rows.map((r) => r.id),
      );
      const rows = items.map((item) => {
        let id = item.id;
        for (let n = 2; taken.has(id); n += 1) id = `${item.id} (${n})`;
        taken.add(id);
        return { position: position++, id, state: JSON.stringify(item.state), expected: '{}' };
      });
      await insertRows(client, datasetId, rows);
      await client.query('UPDATE datasets SET item_count = item_count + $1 WHERE id = $2', [rows.length, datasetId]);
      return rows.map((r) => ({ position: r.position, id: r.id }));
    });
    this.moved();
    return added;
  }

  async remove(id: string): Promise<boolean> {
    const removed = ((await this.db.pool.query('DELETE FROM datasets WHERE id = $1', [id])).rowCount ?? 0) > 0;
    this.moved();
    return removed;
  }

  async page(datasetId: string, page: { offset: number; limit: number; search?: string | undefined }): Promise<{ total: number; items: StoredItem[] }> {
    // SQLite's LIKE without ESCAPE: case-insensitive for ASCII letters only (ILIKE under COLLATE "C"), % and _ in
    // the search are wildcards there too, and a backslash is a backslash (ESCAPE '').
    const where = page.search ? "dataset_id = $1 AND (id ILIKE $2 ESCAPE '' OR state ILIKE $2 ESCAPE '')" : 'dataset_id = $1';
    const params = page.search ? [datasetId, `%${page.search}%`] : [datasetId];
    const [count] = await this.db.query<{ n: number }>(`SELECT COUNT(*)::integer AS n FROM dataset_items WHERE ${where}`, params);
    const rows = await this.db.query<ItemRow>(`${ITEM} WHERE ${where} ORDER BY position LIMIT $${params.length + 1} OFFSET $${params.length + 2}`, [
      ...params,
      page.limit,
      page.offset,
    ]);
    return { total: count!.n, items: rows.map(toItem) };
  }

  async itemsAfter(datasetId: string, after: number, limit: number): Promise<StoredItem[]> {
    return (await this.db.query<ItemRow>(`${ITEM} WHERE dataset_id = $1 AND position > $2 ORDER BY position LIMIT $3`, [datasetId, after, limit])).map(toItem);
  }

  async item(datasetId: string, position: number): Promise<StoredItem | undefined> {
    const [row] = await this.db.query<ItemRow>(`${ITEM} WHERE dataset_id = $1 AND position = $2`, [datasetId, position]);
    return row ? toItem(row) : undefined;
  }

  async expectations(datasetId: string, position?: number): Promise<{ position: number; id: string; expected: Record<string, unknown> }[]> {
    const rows = await this.db.query<{ position: number; id: string; expected: string }>(
      `SELECT position, id, expected FROM dataset_items WHERE dataset_id = $1${position === undefined ? '' : ' AND position = $2'} ORDER BY position`,
      [datasetId, ...(position === undefined ? [] : [position])],
    );
    return rows.map((r) => ({ position: r.position, id: r.id, expected: JSON.parse(r.expected) as Record<string, unknown> }));
  }

  async largest(datasetId: string, n: number): Promise<number[]> {
    // length() counts characters, as SQLite's does for text.
    const rows = await this.db.query<{ position: number }>(
      'SELECT position FROM dataset_items WHERE dataset_id = $1 ORDER BY length(state) DESC, position LIMIT $2',
      [datasetId, n],
    );
    return rows.map((r) => r.position);
  }

  async expectedGroups(datasetId: string): Promise<StoredExpectedGroup[]> {
    // As SQLite's json_each: by question, JSON type and scalar value. The stored text is JSON.stringify's, in which
    // equal values are equal text, so a scalar is grouped by its JSON text; objects and arrays by question and type
    // alone, with the smallest text as the one given. The json type (not jsonb) reads the text as it is.
    const rows = await this.db.query<{ name: string; type: string; value: string | null; sample: string | null; items: number; example: string }>(
      `SELECT j.key AS name, json_typeof(j.value) AS type,
         CASE WHEN json_typeof(j.value) IN ('object', 'array') THEN NULL ELSE j.value::text END AS value,
         MIN((CASE WHEN json_typeof(j.value) IN ('object', 'array') THEN j.value::text END) COLLATE "C") AS sample,
         COUNT(*)::integer AS items, MIN(d.id) AS example
       FROM dataset_items d, json_each(d.expected::json) j WHERE d.dataset_id = $1
       GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
      [datasetId],
    );
    return rows.map((r) => ({ name: r.name, value: JSON.parse((r.value ?? r.sample)!) as unknown, items: r.items, example: r.example }));
  }

  async setExpected(datasetId: string, position: number, expected: Record<string, unknown>): Promise<boolean> {
    const changed =
      ((
        await this.db.pool.query('UPDATE dataset_items SET expected = $1 WHERE dataset_id = $2 AND position = $3', [
          JSON.stringify(expected),
          datasetId,
          position,
        ])
      ).rowCount ?? 0) > 0;
    this.moved();
    return changed;
  }

  async contentHead(datasetId: string, position: number, chars: number): Promise<string | undefined> {
    const [row] = await this.db.query<{ head: string }>('SELECT substr(state, 1, $1) AS head FROM dataset_items WHERE dataset_id = $2 AND position = $3', [
      chars,
      datasetId,
      position,
    ]);
    return row?.head;
  }

  async withImageFirst(): Promise<string[]> {
    const rows = await this.db.query<{ id: string }>(
      "SELECT d.id FROM datasets d JOIN dataset_items i ON i.dataset_id = d.id AND i.position = 0 WHERE d.status = 'ready' AND strpos(substr(i.state, 1, 200), 'data:image/') > 0",
    );
    return rows.map((r) => r.id);
  }

  changeToken(): number {
    // Moved by the notices of every write to items, whichever process makes it, and at once by this one's.
    return this.items.read();
  }
}
