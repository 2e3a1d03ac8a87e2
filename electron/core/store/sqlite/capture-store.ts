import type { CaptureStorage, NewCapture, StoredCapture, StoredCaptureRule } from '../ports';
import * as captureRows from '../capture-rows';
import type { Store } from './database';

/** The captures' tables (`capture_rules`, `captured_items`) in the SQLite file; captured items are `dataset_items` rows too. */
export class SqliteCaptureStore implements CaptureStorage {
  constructor(private readonly store: Store) {}

  async list(): Promise<(StoredCaptureRule & { dataset_name: string })[]> {
    const rows = this.store.all<captureRows.CaptureRuleRow & { dataset_name: string }>(
      `SELECT ${captureRows.CAPTURE_RULE_COLUMNS.replace(/(\w+)/g, 'r.$1')}, d.name AS dataset_name FROM capture_rules r JOIN datasets d ON d.id = r.dataset_id ORDER BY r.created_at, r.id`,
    );
    return rows.map((r) => ({ ...captureRows.toCaptureRule(r), dataset_name: r.dataset_name }));
  }

  async get(id: string): Promise<StoredCaptureRule | undefined> {
    const row = this.store.get<captureRows.CaptureRuleRow>(`SELECT ${captureRows.CAPTURE_RULE_COLUMNS} FROM capture_rules WHERE id = ?`, [id]);
    return row ? captureRows.toCaptureRule(row) : undefined;
  }

  async add(rule: StoredCaptureRule): Promise<void> {
    this.store.run(
      `INSERT INTO capture_rules (${captureRows.CAPTURE_RULE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      captureRows.captureRuleParams(rule),
    );
  }

  async remove(id: string): Promise<boolean> {
    return this.store.run('DELETE FROM capture_rules WHERE id = ?', [id]).changes > 0;
  }

  async append(ruleId: string, day: string, captures: readonly NewCapture[]): Promise<number> {
    return this.store.transaction(() => {
      const rule = this.store.get<{ dataset_id: string; daily_cap: number }>('SELECT dataset_id, daily_cap FROM capture_rules WHERE id = ?', [ruleId]);
      if (!rule) return 0;
      const today = this.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM captured_items WHERE rule_id = ? AND day = ?', [ruleId, day])!.n;
      const kept = captures.slice(0, Math.max(0, rule.daily_cap - today));
      let position = this.store.get<{ n: number }>('SELECT COALESCE(MAX(position) + 1, 0) AS n FROM dataset_items WHERE dataset_id = ?', [rule.dataset_id])!.n;
      for (const c of kept) {
        let id = c.request_id;
        for (let n = 2; this.store.get('SELECT 1 FROM dataset_items WHERE dataset_id = ? AND id = ?', [rule.dataset_id, id]); n += 1)
          id = `${c.request_id} (${n})`;
        this.store.run("INSERT INTO dataset_items (dataset_id, position, id, state, expected) VALUES (?, ?, ?, ?, '{}')", [
          rule.dataset_id,
          position,
          id,
          JSON.stringify(c.state),
        ]);
        this.store.run(`INSERT INTO captured_items (dataset_id, day, ${captureRows.CAPTURED_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, [
          rule.dataset_id,
          ...captureRows.capturedParams({ ...c, position, rule_id: ruleId }, day),
        ]);
        position += 1;
      }
      this.store.run('UPDATE datasets SET item_count = item_count + ? WHERE id = ?', [kept.length, rule.dataset_id]);
      return kept.length;
    });
  }

  async takenOn(day: string): Promise<Map<string, number>> {
    const rows = this.store.all<{ rule_id: string; n: number }>('SELECT rule_id, COUNT(*) AS n FROM captured_items WHERE day = ? GROUP BY rule_id', [day]);
    return new Map(rows.map((r) => [r.rule_id, r.n]));
  }

  async counts(day: string): Promise<Map<string, { today: number; total: number }>> {
    const rows = this.store.all<{ rule_id: string; today: number; total: number }>(
      'SELECT rule_id, SUM(CASE WHEN day = ? THEN 1 ELSE 0 END) AS today, COUNT(*) AS total FROM captured_items GROUP BY rule_id',
      [day],
    );
    return new Map(rows.map((r) => [r.rule_id, { today: r.today, total: r.total }]));
  }

  async expire(ruleId: string, before: string): Promise<number> {
    return this.store.transaction(() => {
      const rule = this.store.get<{ dataset_id: string }>('SELECT dataset_id FROM capture_rules WHERE id = ?', [ruleId]);
      if (!rule) return 0;
      const { changes } = this.store.run(
        'DELETE FROM dataset_items WHERE dataset_id = ? AND position IN (SELECT position FROM captured_items WHERE dataset_id = ? AND rule_id = ? AND captured_at < ?)',
        [rule.dataset_id, rule.dataset_id, ruleId, before],
      );
      this.store.run('UPDATE datasets SET item_count = item_count - ? WHERE id = ?', [changes, rule.dataset_id]);
      return changes;
    });
  }

  async predictions(datasetId: string, positions: readonly number[] | null): Promise<StoredCapture[]> {
    if (positions?.length === 0) return [];
    const only = positions ? ' AND position IN (SELECT value FROM json_each(?))' : '';
    const rows = this.store.all<captureRows.CapturedRow>(
      `SELECT ${captureRows.CAPTURED_COLUMNS} FROM captured_items WHERE dataset_id = ?${only} ORDER BY position`,
      positions ? [datasetId, JSON.stringify(positions)] : [datasetId],
    );
    return rows.map(captureRows.toCapture);
  }

  async between(ruleId: string, from: string, to: string, limit: number): Promise<StoredCapture[]> {
    return this.store
      .all<captureRows.CapturedRow>(
        `SELECT ${captureRows.CAPTURED_COLUMNS} FROM captured_items WHERE rule_id = ? AND captured_at >= ? AND captured_at < ? ORDER BY captured_at DESC LIMIT ?`,
        [ruleId, from, to, limit],
      )
      .map(captureRows.toCapture);
  }

  async putPredictions(datasetId: string, captures: readonly StoredCapture[]): Promise<void> {
    this.store.transaction(() => {
      for (const c of captures)
        this.store.run(`INSERT INTO captured_items (dataset_id, day, ${captureRows.CAPTURED_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, [
          datasetId,
          ...captureRows.capturedParams(c),
        ]);
    });
  }
}
