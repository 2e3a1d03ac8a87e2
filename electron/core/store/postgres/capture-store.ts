import type { CaptureStorage, NewCapture, StoredCapture, StoredCaptureRule } from '../ports';
import * as captureRows from '../capture-rows';
import { itemTokens } from './change-token';
import type { PgDatabase } from './database';

const placeholders = (n: number, from = 1) => Array.from({ length: n }, (_, i) => `$${i + from}`).join(', ');

/** The captures' tables in Postgres; captured items are `dataset_items` rows too. The rule's row is locked while it appends, so the daily cap holds across instances. */
export class PgCaptureStore implements CaptureStorage {
  private constructor(
    private readonly db: PgDatabase,
    /** Captures add and delete items, which this process's readers must see at once. */
    private readonly items: { moved(): void },
  ) {}

  static async open(db: PgDatabase): Promise<PgCaptureStore> {
    return new PgCaptureStore(db, await itemTokens(db));
  }

  async list(): Promise<(StoredCaptureRule & { dataset_name: string })[]> {
    const rows = await this.db.query<captureRows.CaptureRuleRow & { dataset_name: string }>(
      `SELECT ${captureRows.CAPTURE_RULE_COLUMNS.replace(/(\w+)/g, 'r.$1')}, d.name AS dataset_name FROM capture_rules r JOIN datasets d ON d.id = r.dataset_id ORDER BY r.created_at, r.id COLLATE "C"`,
    );
    return rows.map((r) => ({ ...captureRows.toCaptureRule(r), dataset_name: r.dataset_name }));
  }

  async get(id: string): Promise<StoredCaptureRule | undefined> {
    const [row] = await this.db.query<captureRows.CaptureRuleRow>(`SELECT ${captureRows.CAPTURE_RULE_COLUMNS} FROM capture_rules WHERE id = $1`, [id]);
    return row ? captureRows.toCaptureRule(row) : undefined;
  }

  async add(rule: StoredCaptureRule): Promise<void> {
    await this.db.query(`INSERT INTO capture_rules (${captureRows.CAPTURE_RULE_COLUMNS}) VALUES (${placeholders(13)})`, captureRows.captureRuleParams(rule));
  }

  async remove(id: string): Promise<boolean> {
    return ((await this.db.pool.query('DELETE FROM capture_rules WHERE id = $1', [id])).rowCount ?? 0) > 0;
  }

  async append(ruleId: string, day: string, captures: readonly NewCapture[]): Promise<number> {
    const kept = await this.appendRows(ruleId, day, captures);
    if (kept > 0) this.items.moved();
    return kept;
  }

  private appendRows(ruleId: string, day: string, captures: readonly NewCapture[]): Promise<number> {
    return this.db.transaction(async (client) => {
      // The rule's row, then its dataset's: appends of one rule, and additions to one dataset, take turns.
      const [rule] = (
        await client.query<{ dataset_id: string; daily_cap: number }>('SELECT dataset_id, daily_cap FROM capture_rules WHERE id = $1 FOR UPDATE', [ruleId])
      ).rows;
      if (!rule) return 0;
      await client.query('SELECT 1 FROM datasets WHERE id = $1 FOR UPDATE', [rule.dataset_id]);
      const [count] = (await client.query<{ n: number }>('SELECT COUNT(*)::integer AS n FROM captured_items WHERE rule_id = $1 AND day = $2', [ruleId, day]))
        .rows;
      const kept = captures.slice(0, Math.max(0, rule.daily_cap - count!.n));
      if (kept.length === 0) return 0;
      const [next] = (
        await client.query<{ n: number }>('SELECT COALESCE(MAX(position) + 1, 0)::integer AS n FROM dataset_items WHERE dataset_id = $1', [rule.dataset_id])
      ).rows;
      const taken = new Set(
        (
          await client.query<{ id: string }>(
            "SELECT d.id FROM dataset_items d, unnest($2::text[]) AS g(id) WHERE d.dataset_id = $1 AND (d.id = g.id OR starts_with(d.id, g.id || ' ('))",
            [rule.dataset_id, kept.map((c) => c.request_id)],
          )
        ).rows.map((r) => r.id),
      );
      let position = next!.n;
      for (const c of kept) {
        let id = c.request_id;
        for (let n = 2; taken.has(id); n += 1) id = `${c.request_id} (${n})`;
        taken.add(id);
        await client.query("INSERT INTO dataset_items (dataset_id, position, id, state, expected) VALUES ($1, $2, $3, $4, '{}')", [
          rule.dataset_id,
          position,
          id,
          JSON.stringify(c.state),
        ]);
        await client.query(
          `INSERT INTO captured_items (dataset_id, day, ${captureRows.CAPTURED_COLUMNS}) VALUES (${placeholders(1 + captureRows.CAPTURED_PARAMS)})`,
          [rule.dataset_id, ...captureRows.capturedParams({ ...c, position, rule_id: ruleId }, day)],
        );
        position += 1;
      }
      await client.query('UPDATE datasets SET item_count = item_count + $1 WHERE id = $2', [kept.length, rule.dataset_id]);
      return kept.length;
    });
  }

  async takenOn(day: string): Promise<Map<string, number>> {
    const rows = await this.db.query<{ rule_id: string; n: number }>(
      'SELECT rule_id, COUNT(*)::integer AS n FROM captured_items WHERE day = $1 GROUP BY rule_id',
      [day],
    );
    return new Map(rows.map((r) => [r.rule_id, r.n]));
  }

  async counts(day: string): Promise<Map<string, { today: number; total: number }>> {
    const rows = await this.db.query<{ rule_id: string; today: number; total: number }>(
      'SELECT rule_id, COUNT(*) FILTER (WHERE day = $1)::integer AS today, COUNT(*)::integer AS total FROM captured_items GROUP BY rule_id',
      [day],
    );
    return new Map(rows.map((r) => [r.rule_id, { today: r.today, total: r.total }]));
  }

  async expire(ruleId: string, before: string): Promise<number> {
    const removed = await this.expireRows(ruleId, before);
    if (removed > 0) this.items.moved();
    return removed;
  }

  private expireRows(ruleId: string, before: string): Promise<number> {
    return this.db.transaction(async (client) => {
      const [rule] = (await client.query<{ dataset_id: string }>('SELECT dataset_id FROM capture_rules WHERE id = $1', [ruleId])).rows;
      if (!rule) return 0;
      await client.query('SELECT 1 FROM datasets WHERE id = $1 FOR UPDATE', [rule.dataset_id]);
      const removed =
        (
          await client.query(
            'DELETE FROM dataset_items WHERE dataset_id = $1 AND position IN (SELECT position FROM captured_items WHERE dataset_id = $1 AND rule_id = $2 AND captured_at < $3)',
            [rule.dataset_id, ruleId, before],
          )
        ).rowCount ?? 0;
      await client.query('UPDATE datasets SET item_count = item_count - $1 WHERE id = $2', [removed, rule.dataset_id]);
      return removed;
    });
  }

  async predictions(datasetId: string, positions: readonly number[] | null): Promise<StoredCapture[]> {
    if (positions?.length === 0) return [];
    const only = positions ? ' AND position = ANY($2::integer[])' : '';
    const rows = await this.db.query<captureRows.CapturedRow>(
      `SELECT ${captureRows.CAPTURED_COLUMNS} FROM captured_items WHERE dataset_id = $1${only} ORDER BY position`,
      positions ? [datasetId, [...positions]] : [datasetId],
    );
    return rows.map(captureRows.toCapture);
  }

  async between(ruleId: string, from: string, to: string, limit: number): Promise<StoredCapture[]> {
    const rows = await this.db.query<captureRows.CapturedRow>(
      `SELECT ${captureRows.CAPTURED_COLUMNS} FROM captured_items WHERE rule_id = $1 AND captured_at >= $2 AND captured_at < $3 ORDER BY captured_at DESC LIMIT $4`,
      [ruleId, from, to, limit],
    );
    return rows.map(captureRows.toCapture);
  }

  async putPredictions(datasetId: string, captures: readonly StoredCapture[]): Promise<void> {
    await this.db.transaction(async (client) => {
      for (const c of captures)
        await client.query(
          `INSERT INTO captured_items (dataset_id, day, ${captureRows.CAPTURED_COLUMNS}) VALUES (${placeholders(1 + captureRows.CAPTURED_PARAMS)})`,
          [datasetId, ...captureRows.capturedParams(c)],
        );
    });
  }
}
