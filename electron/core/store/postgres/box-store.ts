import type pg from 'pg';
import type { BoxStorage, StoredBoxItem, StoredVerdict, StoredVerdictEnd, VerdictChange } from '../ports';
import type { PgDatabase } from './database';
import { ITEM_COLUMNS, itemValues, toItem, type ItemRow } from '../box-rows';

// A verdict's answers and truth are the JSON text given, kept and returned as it is (compared as text).
const VERDICT_COLUMNS = 'item_id, question, model, verdict, note, answers, truth, run_id, variant, answered_at, updated_at';
const VERDICT = `SELECT ${VERDICT_COLUMNS} FROM box_verdicts`;

/** Rows written in one statement at most. */
const CHUNK_ROWS = 1000;

/** The last of each key: what one statement can upsert (ON CONFLICT cannot touch a row twice), as rows replaced one by one would leave. */
function lastOfEach<T>(rows: readonly T[], key: (row: T) => string): T[] {
  return [...new Map(rows.map((r) => [key(r), r])).values()];
}

function* chunks<T>(rows: readonly T[]): Generator<T[]> {
  for (let i = 0; i < rows.length; i += CHUNK_ROWS) yield rows.slice(i, i + CHUNK_ROWS);
}

/** The boxes domain's tables (`box_items`, `box_verdicts`, `box_verdict_history`, `box_image_sizes`) in Postgres. */
export class PgBoxStore implements BoxStorage {
  constructor(private readonly db: PgDatabase) {}

  async listItems(options: { images: boolean }): Promise<StoredBoxItem[]> {
    const columns = options.images ? `${ITEM_COLUMNS}, data_url` : `${ITEM_COLUMNS}, '' AS data_url`;
    return (await this.db.query<ItemRow>(`SELECT ${columns} FROM box_items ORDER BY created_at, id`)).map(toItem);
  }

  async getItem(id: string): Promise<StoredBoxItem | undefined> {
    const [row] = await this.db.query<ItemRow>(`SELECT ${ITEM_COLUMNS}, data_url FROM box_items WHERE id = $1`, [id]);
    return row ? toItem(row) : undefined;
  }

  async addItem(item: StoredBoxItem): Promise<void> {
    await this.putItem(item);
  }

  async putItem(i: StoredBoxItem): Promise<void> {
    await this.db.query(
      `INSERT INTO box_items (id, name, data_url, truth, answer, answers, model, run_id, verdict, verdict_run_id, note, width, height, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
       ON CONFLICT (id) DO UPDATE SET name = excluded.name, data_url = excluded.data_url, truth = excluded.truth, answer = excluded.answer,
         answers = excluded.answers, model = excluded.model, run_id = excluded.run_id, verdict = excluded.verdict, verdict_run_id = excluded.verdict_run_id,
         note = excluded.note, width = excluded.width, height = excluded.height, created_at = excluded.created_at`,
      itemValues(i),
    );
  }

  async removeItem(id: string): Promise<void> {
    await this.db.query('DELETE FROM box_items WHERE id = $1', [id]);
  }

  async verdicts(datasetId: string, models: readonly string[], itemId?: string): Promise<StoredVerdict[]> {
    if (models.length === 0) return [];
    const item = itemId === undefined ? '' : ' AND item_id = $3';
    return this.db.query<StoredVerdict>(`${VERDICT} WHERE dataset_id = $1 AND model = ANY($2::text[])${item} ORDER BY item_id, question, model`, [
      datasetId,
      [...models],
      ...(itemId === undefined ? [] : [itemId]),
    ]);
  }

  async allVerdicts(datasetId: string): Promise<StoredVerdict[]> {
    return this.db.query<StoredVerdict>(`${VERDICT} WHERE dataset_id = $1 ORDER BY item_id, question, model`, [datasetId]);
  }

  async history(datasetId: string, itemId: string, model: string): Promise<StoredVerdictEnd[]> {
    return this.db.query<StoredVerdictEnd>(
      'SELECT question, verdict, note, given_at, ended_at FROM box_verdict_history WHERE dataset_id = $1 AND item_id = $2 AND model = $3 ORDER BY ended_at DESC, id DESC LIMIT 20',
      [datasetId, itemId, model],
    );
  }

  async changeVerdicts(datasetId: string, itemId: string, model: string, change: VerdictChange): Promise<void> {
    await this.db.transaction(async (client) => {
      // One change of an item's verdicts of a model at a time, across processes (SQLite's write lock does the same),
      // so that none is computed from rows another one is replacing.
      await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [JSON.stringify(['box_verdicts', datasetId, itemId, model])]);
      const read = async (m: string) =>
        (await client.query<StoredVerdict>(`${VERDICT} WHERE dataset_id = $1 AND item_id = $2 AND model = $3 ORDER BY question`, [datasetId, itemId, m])).rows;
      const mine = await read(model);
      const { rows, ended, at } = change(mine, model === '' ? [] : await read(''));
      const history = ended.filter((r) => r.verdict !== null);
      if (history.length > 0)
        await client.query(
          `INSERT INTO box_verdict_history (dataset_id, item_id, question, model, verdict, note, given_at, ended_at)
           SELECT $1, $2, question, $3, verdict, note, given_at, $4 FROM unnest($5::text[], $6::text[], $7::text[], $8::text[]) WITH ORDINALITY AS h(question, verdict, note, given_at, n) ORDER BY n`,
          [
            datasetId,
            itemId,
            model,
            at,
            history.map((r) => r.question),
            history.map((r) => r.verdict),
            history.map((r) => r.note),
            history.map((r) => r.updated_at),
          ],
        );
      await client.query('DELETE FROM box_verdicts WHERE dataset_id = $1 AND item_id = $2 AND model = $3', [datasetId, itemId, model]);
      await insertVerdicts(client, datasetId, rows);
    });
  }

  async putVerdicts(datasetId: string, verdicts: readonly StoredVerdict[]): Promise<void> {
    if (verdicts.length === 0) return;
    await this.db.transaction((client) => insertVerdicts(client, datasetId, verdicts));
  }

  async allHistory(datasetId: string): Promise<(StoredVerdictEnd & { item_id: string; model: string })[]> {
    return this.db.query('SELECT item_id, model, question, verdict, note, given_at, ended_at FROM box_verdict_history WHERE dataset_id = $1 ORDER BY id', [
      datasetId,
    ]);
  }

  async putHistory(datasetId: string, rows: readonly (StoredVerdictEnd & { item_id: string; model: string })[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db.transaction(async (client) => {
      for (const r of rows)
        await client.query(
          'INSERT INTO box_verdict_history (dataset_id, item_id, question, model, verdict, note, given_at, ended_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
          [datasetId, r.item_id, r.question, r.model, r.verdict, r.note, r.given_at, r.ended_at],
        );
    });
  }

  async imageSizes(datasetId: string): Promise<Map<string, { width: number | null; height: number | null }>> {
    const rows = await this.db.query<{ item_id: string; width: number | null; height: number | null }>(
      'SELECT item_id, width, height FROM box_image_sizes WHERE dataset_id = $1',
      [datasetId],
    );
    return new Map(rows.map((r) => [r.item_id, { width: r.width, height: r.height }]));
  }

  async keepImageSizes(datasetId: string, sizes: readonly { item_id: string; width: number | null; height: number | null }[]): Promise<void> {
    const rows = lastOfEach(sizes, (s) => s.item_id);
    if (rows.length === 0) return;
    await this.db.transaction(async (client) => {
      for (const chunk of chunks(rows))
        await client.query(
          `INSERT INTO box_image_sizes (dataset_id, item_id, width, height) SELECT $1, * FROM unnest($2::text[], $3::integer[], $4::integer[])
           ON CONFLICT (dataset_id, item_id) DO UPDATE SET width = excluded.width, height = excluded.height`,
          [datasetId, chunk.map((s) => s.item_id), chunk.map((s) => s.width), chunk.map((s) => s.height)],
        );
    });
  }
}

/** Verdicts replacing any on the same item, question and model. */
async function insertVerdicts(client: pg.PoolClient, datasetId: string, verdicts: readonly StoredVerdict[]): Promise<void> {
  const rows = lastOfEach(verdicts, (v) => JSON.stringify([v.item_id, v.question, v.model]));
  for (const chunk of chunks(rows))
    await client.query(
      `INSERT INTO box_verdicts (dataset_id, ${VERDICT_COLUMNS})
       SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::integer[], $11::text[], $12::text[])
       ON CONFLICT (dataset_id, item_id, question, model) DO UPDATE SET verdict = excluded.verdict, note = excluded.note, answers = excluded.answers,
         truth = excluded.truth, run_id = excluded.run_id, variant = excluded.variant, answered_at = excluded.answered_at, updated_at = excluded.updated_at`,
      [
        datasetId,
        chunk.map((v) => v.item_id),
        chunk.map((v) => v.question),
        chunk.map((v) => v.model),
        chunk.map((v) => v.verdict),
        chunk.map((v) => v.note),
        chunk.map((v) => v.answers),
        chunk.map((v) => v.truth),
        chunk.map((v) => v.run_id),
        chunk.map((v) => v.variant),
        chunk.map((v) => v.answered_at),
        chunk.map((v) => v.updated_at),
      ],
    );
}
