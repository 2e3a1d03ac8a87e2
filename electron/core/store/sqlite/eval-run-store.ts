import type { EvalRunStorage, StoredEvalRun } from '../ports';
import type { Store } from './database';
import { runValues, toRun, type RunRow } from '../eval-rows';

const PATCHABLE = ['status', 'message', 'finished_at', 'budget_usd', 'baseline_id'] as const;

/** The run book's table (`eval_runs`) in the SQLite file; its results and claims go with a run removed. */
export class SqliteEvalRunStore implements EvalRunStorage {
  constructor(private readonly store: Store) {}

  async addRun(r: StoredEvalRun): Promise<void> {
    this.store.run(
      'INSERT INTO eval_runs (id, name, dataset_id, set_key, request, variants, concurrency, budget_usd, status, message, created_at, finished_at, calibrations, baseline_id, estimate) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      runValues(r),
    );
  }

  async getRun(id: string): Promise<StoredEvalRun | undefined> {
    const row = this.store.get<RunRow>('SELECT * FROM eval_runs WHERE id = ?', [id]);
    return row ? toRun(row) : undefined;
  }

  async listRuns(options: { limit: number; status?: StoredEvalRun['status'] }): Promise<StoredEvalRun[]> {
    const where = options.status ? 'WHERE status = ?' : '';
    return this.store
      .all<RunRow>(`SELECT * FROM eval_runs ${where} ORDER BY created_at DESC LIMIT ?`, [...(options.status ? [options.status] : []), options.limit])
      .map(toRun);
  }

  async runNames(datasetId: string): Promise<string[]> {
    return this.store.all<{ name: string }>('SELECT name FROM eval_runs WHERE dataset_id = ?', [datasetId]).map((r) => r.name);
  }

  async updateRun(id: string, patch: Partial<Pick<StoredEvalRun, 'status' | 'message' | 'finished_at' | 'budget_usd' | 'baseline_id'>>): Promise<void> {
    const fields = PATCHABLE.filter((f) => patch[f] !== undefined);
    if (fields.length === 0) return;
    this.store.run(`UPDATE eval_runs SET ${fields.map((f) => `${f} = ?`).join(', ')} WHERE id = ?`, [...fields.map((f) => patch[f] ?? null), id]);
  }

  async removeRun(id: string): Promise<boolean> {
    return this.store.run('DELETE FROM eval_runs WHERE id = ?', [id]).changes > 0;
  }
}
