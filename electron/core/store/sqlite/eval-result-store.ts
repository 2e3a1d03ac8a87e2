import { variantKeys } from '../../../../shared/evaluations/variant-keys';
import type { CopiedEvalResult, EvalCounts, EvalResultStorage, NewestAnswer, StoredEvalResult, StoredEvalRun } from '../ports';
import type { Store } from './database';
import { copiedValues, RESULT, toResult, type ResultRow } from '../eval-rows';

/** Evaluation results (`eval_results`) in the SQLite file, read; the sender's store writes them. */
export class SqliteEvalResultStore implements EvalResultStorage {
  constructor(private readonly store: Store) {
    this.nameEarlierResults();
  }

  /** Results stored before each named its model get the name their run gives it. */
  private nameEarlierResults(): void {
    const runs = this.store.all<{ id: string; variants: string }>(
      'SELECT id, variants FROM eval_runs WHERE id IN (SELECT DISTINCT run_id FROM eval_results WHERE model_key IS NULL)',
    );
    if (runs.length === 0) return;
    this.store.transaction(() => {
      for (const run of runs)
        variantKeys(JSON.parse(run.variants) as StoredEvalRun['variants']).forEach((key, variant) =>
          this.store.run('UPDATE eval_results SET model_key = ? WHERE run_id = ? AND variant = ? AND model_key IS NULL', [key, run.id, variant]),
        );
    });
  }

  async counts(runId: string): Promise<EvalCounts> {
    return this.store.get<EvalCounts>(
      'SELECT COUNT(*) AS done, COALESCE(SUM(1 - ok), 0) AS failed, COALESCE(SUM(cost), 0) AS spent FROM eval_results WHERE run_id = ?',
      [runId],
    )!;
  }

  async retryableCount(runId: string, maxTries: number): Promise<number> {
    return this.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM eval_results WHERE run_id = ? AND ok = 0 AND retryable = 1 AND tries < ?', [
      runId,
      maxTries,
    ])!.n;
  }

  async triesByItem(runId: string, maxTries: number): Promise<Map<number, number>> {
    return new Map(
      this.store
        .all<{ k: number; tries: number }>(
          'SELECT position * 1024 + variant AS k, CASE WHEN ok = 0 AND retryable = 1 AND tries < ? THEN tries ELSE 0 END AS tries FROM eval_results WHERE run_id = ?',
          [maxTries, runId],
        )
        .map((r) => [r.k, r.tries]),
    );
  }

  async results(runId: string): Promise<StoredEvalResult[]> {
    return this.store.all<ResultRow>(`${RESULT} WHERE run_id = ? ORDER BY position, variant`, [runId]).map(toResult);
  }

  async resultsAt(runId: string, position: number, variant?: number): Promise<StoredEvalResult[]> {
    return this.store
      .all<ResultRow>(`${RESULT} WHERE run_id = ? AND position = ?${variant === undefined ? '' : ' AND variant = ?'} ORDER BY variant`, [
        runId,
        position,
        ...(variant === undefined ? [] : [variant]),
      ])
      .map(toResult);
  }

  async answersOf(runId: string, variant: number): Promise<{ position: number; answers: Record<string, unknown>; answered_at: string | null }[]> {
    return this.store
      .all<{ position: number; answers: string; answered_at: string | null }>(
        'SELECT position, answers, answered_at FROM eval_results WHERE run_id = ? AND variant = ? AND ok = 1 ORDER BY position',
        [runId, variant],
      )
      .map((r) => ({ position: r.position, answers: JSON.parse(r.answers) as Record<string, unknown>, answered_at: r.answered_at }));
  }

  async answeredByVariant(runId: string): Promise<{ variant: number; n: number; cost: number | null; unknown: number; tokens: number; chars: number }[]> {
    return this.store.all(
      `SELECT variant, COUNT(*) AS n, SUM(cost) AS cost, SUM(cost IS NULL) AS unknown, COALESCE(SUM(input_tokens + output_tokens), 0) AS tokens, COALESCE(SUM(content_chars), 0) AS chars
       FROM eval_results WHERE run_id = ? AND ok = 1 GROUP BY variant ORDER BY variant`,
      [runId],
    );
  }

  async newestAnswers(datasetId: string, modelKey: string, position?: number): Promise<NewestAnswer[]> {
    // SQLite takes the other columns from the row with the MAX (a documented bare-column rule).
    return this.store
      .all<{ position: number; run_id: string; variant: number; at: string; answers: string }>(
        `SELECT res.position AS position, res.run_id AS run_id, res.variant AS variant, MAX(res.answered_at) AS at, res.answers AS answers
         FROM eval_results res JOIN eval_runs r ON r.id = res.run_id
         WHERE r.dataset_id = ? AND res.ok = 1 AND res.model_key = ?${position === undefined ? '' : ' AND res.position = ?'}
         GROUP BY res.position`,
        [datasetId, modelKey, ...(position === undefined ? [] : [position])],
      )
      .map((r) => ({ ...r, answers: JSON.parse(r.answers) as Record<string, unknown> }));
  }

  async recentItemTimes(modelKey: string, newest: number): Promise<{ ms: number; tokens: number; provider: string | null }[]> {
    return this.store.all(
      `SELECT latency_ms AS ms, input_tokens + output_tokens AS tokens, provider FROM eval_results WHERE model_key = ? AND ok = 1 ORDER BY answered_at DESC LIMIT ?`,
      [modelKey, newest],
    );
  }

  async answeredTokens(): Promise<{ model: string; requests: number; input: number; output: number; cost: number; priced: number }[]> {
    return this.store.all(
      `SELECT json_extract(r.variants, '$[' || res.variant || '].model') AS model, COUNT(*) AS requests, COALESCE(SUM(res.input_tokens), 0) AS input, COALESCE(SUM(res.output_tokens), 0) AS output,
         COALESCE(SUM(res.cost), 0) AS cost, COUNT(res.cost) AS priced
       FROM eval_results res JOIN eval_runs r ON r.id = res.run_id WHERE res.ok = 1 GROUP BY model`,
    );
  }

  async exportResults(runId: string): Promise<CopiedEvalResult[]> {
    return this.store
      .all<ResultRow & { tries: number; retryable: number; model_key: string | null; content_chars: number }>(
        `${RESULT.replace(' FROM eval_results', ', tries, retryable, model_key, content_chars FROM eval_results')} WHERE run_id = ? ORDER BY position, variant`,
        [runId],
      )
      .map((r) => ({ ...toResult(r), tries: r.tries, retryable: r.retryable === 1, model_key: r.model_key, content_chars: r.content_chars }));
  }

  async importResults(runId: string, results: readonly CopiedEvalResult[]): Promise<void> {
    this.store.transaction(() => {
      for (const r of results)
        this.store.run(
          `INSERT INTO eval_results (run_id, variant, position, answers, raw_answers, methods, attempts, provider, input_tokens, output_tokens, cost, latency_ms, answered_at, model_key, content_chars, ok, error, tries, retryable)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          copiedValues(runId, r, (b) => (b ? 1 : 0)),
        );
    });
  }

  changeToken(): number {
    // Moved by triggers on every write to results and dataset items, whichever process makes it.
    return this.store.revision('results');
  }
}
