import type { EvalRunStorage, StoredEvalRun } from '../ports';
import type { PgChangeToken } from './change-token';
import type { PgDatabase } from './database';
import { RUN, runValues, toRun, type RunRow } from '../eval-rows';

const PATCHABLE = ['status', 'message', 'finished_at', 'budget_usd', 'baseline_id'] as const;

/** The run book's table (`eval_runs`) in Postgres; its results and claims go with a run removed (the results' change token moves). */
export class PgEvalRunStore implements EvalRunStorage {
  constructor(
    private readonly db: PgDatabase,
    private readonly token: PgChangeToken,
  ) {}

  async addRun(r: StoredEvalRun): Promise<void> {
    await this.db.query(
      'INSERT INTO eval_runs (id, name, dataset_id, set_key, request, variants, concurrency, budget_usd, status, message, created_at, finished_at, calibrations, baseline_id, estimate) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)',
      runValues(r),
    );
  }

  async getRun(id: string): Promise<StoredEvalRun | undefined> {
    const [row] = await this.db.query<RunRow>(`${RUN} WHERE id = $1`, [id]);
    return row ? toRun(row) : undefined;
  }

  async listRuns(options: { limit: number; status?: StoredEvalRun['status'] }): Promise<StoredEvalRun[]> {
    const rows = options.status
      ? await this.db.query<RunRow>(`${RUN} WHERE status = $1 ORDER BY created_at DESC, id LIMIT $2`, [options.status, options.limit])
      : await this.db.query<RunRow>(`${RUN} ORDER BY created_at DESC, id LIMIT $1`, [options.limit]);
    return rows.map(toRun);
  }

  async runNames(datasetId: string): Promise<string[]> {
    return (await this.db.query<{ name: string }>('SELECT name FROM eval_runs WHERE dataset_id = $1 ORDER BY created_at, id', [datasetId])).map((r) => r.name);
  }

  async updateRun(id: string, patch: Partial<Pick<StoredEvalRun, 'status' | 'message' | 'finished_at' | 'budget_usd' | 'baseline_id'>>): Promise<void> {
    const fields = PATCHABLE.filter((f) => patch[f] !== undefined);
    if (fields.length === 0) return;
    await this.db.query(`UPDATE eval_runs SET ${fields.map((f, i) => `${f} = $${i + 1}`).join(', ')} WHERE id = $${fields.length + 1}`, [
      ...fields.map((f) => patch[f] ?? null),
      id,
    ]);
  }

  async removeRun(id: string): Promise<boolean> {
    const removed = ((await this.db.pool.query('DELETE FROM eval_runs WHERE id = $1', [id])).rowCount ?? 0) > 0;
    this.token.moved();
    return removed;
  }
}
