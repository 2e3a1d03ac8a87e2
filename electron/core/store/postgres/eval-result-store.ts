import type { CopiedEvalResult, EvalCounts, EvalResultStorage, NewestAnswer, StoredEvalResult } from '../ports';
import type { PgChangeToken } from './change-token';
import type { PgDatabase } from './database';
import { copiedValues, RESULT, toResult, type ResultRow } from '../eval-rows';

/** Evaluation results (`eval_results`) in Postgres, read; the sender's store writes them. */
export class PgEvalResultStore implements EvalResultStorage {
  constructor(
    private readonly db: PgDatabase,
    private readonly token: PgChangeToken,
  ) {}

  async counts(runId: string): Promise<EvalCounts> {
    const [row] = await this.db.query<EvalCounts>(
      'SELECT COUNT(*)::integer AS done, (COUNT(*) FILTER (WHERE NOT ok))::integer AS failed, COALESCE(SUM(cost), 0) AS spent FROM eval_results WHERE run_id = $1',
      [runId],
    );
    return row!;
  }

  async retryableCount(runId: string, maxTries: number): Promise<number> {
    const [row] = await this.db.query<{ n: number }>(
      'SELECT COUNT(*)::integer AS n FROM eval_results WHERE run_id = $1 AND NOT ok AND retryable AND tries < $2',
      [runId, maxTries],
    );
    return row!.n;
  }

  async triesByItem(runId: string, maxTries: number): Promise<Map<number, number>> {
    // The key is made here: position * 1024 would overflow an integer column's arithmetic past two million items.
    const rows = await this.db.query<{ position: number; variant: number; tries: number }>(
      'SELECT position, variant, CASE WHEN NOT ok AND retryable AND tries < $1 THEN tries ELSE 0 END AS tries FROM eval_results WHERE run_id = $2',
      [maxTries, runId],
    );
    return new Map(rows.map((r) => [r.position * 1024 + r.variant, r.tries]));
  }

  async results(runId: string): Promise<StoredEvalResult[]> {
    return (await this.db.query<ResultRow>(`${RESULT} WHERE run_id = $1 ORDER BY position, variant`, [runId])).map(toResult);
  }

  async resultsAt(runId: string, position: number, variant?: number): Promise<StoredEvalResult[]> {
    const rows =
      variant === undefined
        ? await this.db.query<ResultRow>(`${RESULT} WHERE run_id = $1 AND position = $2 ORDER BY variant`, [runId, position])
        : await this.db.query<ResultRow>(`${RESULT} WHERE run_id = $1 AND position = $2 AND variant = $3`, [runId, position, variant]);
    return rows.map(toResult);
  }

  async answersOf(runId: string, variant: number): Promise<{ position: number; answers: Record<string, unknown>; answered_at: string | null }[]> {
    const rows = await this.db.query<{ position: number; answers: string; answered_at: string | null }>(
      'SELECT position, answers, answered_at FROM eval_results WHERE run_id = $1 AND variant = $2 AND ok ORDER BY position',
      [runId, variant],
    );
    return rows.map((r) => ({ position: r.position, answers: JSON.parse(r.answers) as Record<string, unknown>, answered_at: r.answered_at }));
  }

  async answeredByVariant(runId: string): Promise<{ variant: number; n: number; cost: number | null; unknown: number; tokens: number; chars: number }[]> {
    // Sums of integers are bigint or numeric, which pg gives as strings: as double precision they are numbers.
    return this.db.query(
      `SELECT variant, COUNT(*)::integer AS n, SUM(cost) AS cost, (COUNT(*) FILTER (WHERE cost IS NULL))::integer AS unknown,
         COALESCE(SUM(input_tokens + output_tokens), 0)::float8 AS tokens, COALESCE(SUM(content_chars), 0)::float8 AS chars
       FROM eval_results WHERE run_id = $1 AND ok GROUP BY variant ORDER BY variant`,
      [runId],
    );
  }

  async newestAnswers(datasetId: string, modelKey: string, position?: number): Promise<NewestAnswer[]> {
    const rows = await this.db.query<{ position: number; run_id: string; variant: number; at: string; answers: string }>(
      `SELECT DISTINCT ON (res.position) res.position, res.run_id, res.variant, res.answered_at AS at, res.answers
       FROM eval_results res JOIN eval_runs r ON r.id = res.run_id
       WHERE r.dataset_id = $1 AND res.ok AND res.model_key = $2${position === undefined ? '' : ' AND res.position = $3'}
       ORDER BY res.position, res.answered_at DESC NULLS LAST, res.run_id, res.variant`,
      [datasetId, modelKey, ...(position === undefined ? [] : [position])],
    );
    return rows.map((r) => ({ ...r, answers: JSON.parse(r.answers) as Record<string, unknown> }));
  }

  async recentItemTimes(modelKey: string, newest: number): Promise<{ ms: number; tokens: number; provider: string | null }[]> {
    return this.db.query(
      `SELECT latency_ms::float8 AS ms, (input_tokens + output_tokens)::float8 AS tokens, provider
       FROM eval_results WHERE model_key = $1 AND ok ORDER BY answered_at DESC NULLS LAST LIMIT $2`,
      [modelKey, newest],
    );
  }

  async answeredTokens(): Promise<{ model: string; requests: number; input: number; output: number; cost: number; priced: number }[]> {
    return this.db.query(
      `SELECT r.variants::json -> res.variant ->> 'model' AS model, COUNT(*)::integer AS requests,
         COALESCE(SUM(res.input_tokens), 0)::float8 AS input, COALESCE(SUM(res.output_tokens), 0)::float8 AS output,
         COALESCE(SUM(res.cost), 0)::float8 AS cost, COUNT(res.cost)::integer AS priced
       FROM eval_results res JOIN eval_runs r ON r.id = res.run_id WHERE res.ok GROUP BY 1 ORDER BY 1`,
    );
  }

  async exportResults(runId: string): Promise<CopiedEvalResult[]> {
    const rows = await this.db.query<ResultRow & { tries: number; retryable: boolean; model_key: string | null; content_chars: number }>(
      `${RESULT.replace(' FROM eval_results', ', tries, retryable, model_key, content_chars FROM eval_results')} WHERE run_id = $1 ORDER BY position, variant`,
      [runId],
    );
    return rows.map((r) => ({ ...toResult(r), tries: r.tries, retryable: r.retryable, model_key: r.model_key, content_chars: r.content_chars }));
  }

  async importResults(runId: string, results: readonly CopiedEvalResult[]): Promise<void> {
    await this.db.transaction(async (client) => {
      for (const r of results)
        await client.query(
          `INSERT INTO eval_results (run_id, variant, position, answers, raw_answers, methods, attempts, provider, input_tokens, output_tokens, cost, latency_ms, answered_at, model_key, content_chars, ok, error, tries, retryable)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)`,
          copiedValues(runId, r, (b) => b),
        );
    });
    this.token.moved();
  }

  changeToken(): number {
    // Moved by the notices of every write to results and dataset items, whichever process makes it, and at once by this one's.
    return this.token.read();
  }
}
