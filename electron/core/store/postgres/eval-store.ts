import type pg from 'pg';
import type {
  CopiedEvalResult,
  EvalBudgetAnswer,
  EvalCounts,
  EvalRunPace,
  CalibrationStorage,
  EvalResultStorage,
  EvalRunStorage,
  EvalWorkStorage,
  EvaluationStorage,
  EvalWork,
  NewEvalResult,
  StoredCalibration,
  StoredEvalResult,
  StoredEvalRun,
} from '../ports';
import { PgChangeToken } from './change-token';
import { TickBatch, type PgDatabase } from './database';
import { CHANNELS } from './migrations';

interface RunRow {
  id: string;
  name: string;
  dataset_id: string;
  set_key: string;
  request: string;
  variants: string;
  concurrency: number;
  budget_usd: number | null;
  status: StoredEvalRun['status'];
  message: string | null;
  created_at: string;
  finished_at: string | null;
  calibrations: string | null;
  baseline_id: string | null;
  estimate: string | null;
}

interface ResultRow extends Omit<StoredEvalResult, 'answers' | 'raw_answers' | 'methods' | 'attempts'> {
  answers: string;
  raw_answers: string | null;
  methods: string | null;
  attempts: string | null;
}

type Failure = Omit<NewEvalResult, 'answers' | 'raw_answers' | 'methods' | 'attempts' | 'provider'> & { retryable: boolean };

/** A result waiting for its group commit. */
type Write = { runId: string } & ({ answer: NewEvalResult; replace: boolean } | { failure: Failure });

const json = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T));
const text = (value: unknown): string | null => (value === null || value === undefined ? null : JSON.stringify(value));

const RUN =
  'SELECT id, name, dataset_id, set_key, request, variants, concurrency, budget_usd, status, message, created_at, finished_at, calibrations, baseline_id, estimate FROM eval_runs';

const toRun = (r: RunRow): StoredEvalRun => ({
  ...r,
  request: JSON.parse(r.request) as unknown,
  variants: JSON.parse(r.variants) as StoredEvalRun['variants'],
  calibrations: json(r.calibrations),
  estimate: json(r.estimate),
});

const RESULT =
  'SELECT variant, position, ok, answers, raw_answers, methods, attempts, provider, input_tokens, output_tokens, cost, latency_ms, error, answered_at FROM eval_results';

const toResult = (r: ResultRow): StoredEvalResult => ({
  ...r,
  answers: JSON.parse(r.answers) as Record<string, unknown>,
  raw_answers: json(r.raw_answers),
  methods: json(r.methods),
  attempts: json(r.attempts),
});

/**
 * A stored failure sent again is updated in place (never a stored answer): the item's tokens and
 * cost add up over its tries, so the run's spend counts each one once. As the SQLite store's.
 */
const AFTER_FAILURE = `ON CONFLICT (run_id, variant, position) DO UPDATE SET ok = excluded.ok, tries = eval_results.tries + 1, retryable = excluded.retryable,
  input_tokens = eval_results.input_tokens + excluded.input_tokens, output_tokens = eval_results.output_tokens + excluded.output_tokens,
  cost = CASE WHEN eval_results.cost IS NULL THEN excluded.cost WHEN excluded.cost IS NULL THEN eval_results.cost ELSE eval_results.cost + excluded.cost END,
  latency_ms = excluded.latency_ms, model_key = excluded.model_key, content_chars = excluded.content_chars, answered_at = excluded.answered_at,`;

const PUT_ANSWER = `INSERT INTO eval_results (run_id, variant, position, ok, answers, raw_answers, methods, attempts, provider, input_tokens, output_tokens, cost, latency_ms, answered_at, model_key, content_chars)
  VALUES ($1, $2, $3, true, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
  ${AFTER_FAILURE} answers = excluded.answers, raw_answers = excluded.raw_answers, methods = excluded.methods, attempts = excluded.attempts, provider = excluded.provider, error = NULL`;

const PUT_FAILURE = `INSERT INTO eval_results (run_id, variant, position, ok, input_tokens, output_tokens, cost, latency_ms, error, retryable, answered_at, model_key, content_chars)
  VALUES ($1, $2, $3, false, $4, $5, $6, $7, $8, $9, $10, $11, $12)
  ${AFTER_FAILURE} error = excluded.error WHERE NOT eval_results.ok`;

const PATCHABLE = ['status', 'message', 'finished_at', 'budget_usd', 'baseline_id'] as const;

const keyOf = (w: Write): { run: string; variant: number; position: number } => {
  const r = 'answer' in w ? w.answer : w.failure;
  return { run: w.runId, variant: r.variant, position: r.position };
};

/**
 * The order a batch's writes run in: by result, so that two processes' batches lock the rows they
 * share in the same order (never a deadlock); writes to one result keep the order they were made in.
 */
const byResult = (a: Write, b: Write): number => {
  const [x, y] = [keyOf(a), keyOf(b)];
  return x.run < y.run ? -1 : x.run > y.run ? 1 : x.variant - y.variant || x.position - y.position;
};

/** The evaluations domain's tables (`eval_runs`, `eval_results`, `calibrations`) in Postgres, JSON as the text SQLite keeps. */
export class PgEvalStore implements EvalRunStorage, EvalResultStorage, EvalWorkStorage, CalibrationStorage {
  private readonly writes: TickBatch<Write>;

  private constructor(
    private readonly db: PgDatabase,
    private readonly token: PgChangeToken,
  ) {
    this.writes = new TickBatch((items) => this.commit(items));
  }

  static async open(db: PgDatabase): Promise<PgEvalStore> {
    return new PgEvalStore(db, await PgChangeToken.on(db, CHANNELS.results));
  }

  async addRun(r: StoredEvalRun): Promise<void> {
    await this.db.query(
      'INSERT INTO eval_runs (id, name, dataset_id, set_key, request, variants, concurrency, budget_usd, status, message, created_at, finished_at, calibrations, baseline_id, estimate) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)',
      [
        r.id,
        r.name,
        r.dataset_id,
        r.set_key,
        JSON.stringify(r.request),
        JSON.stringify(r.variants),
        r.concurrency,
        r.budget_usd,
        r.status,
        r.message,
        r.created_at,
        r.finished_at,
        text(r.calibrations),
        r.baseline_id,
        text(r.estimate),
      ],
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

  putAnswer(runId: string, result: NewEvalResult, options: { replace: boolean }): Promise<void> {
    return this.writes.add({ runId, answer: result, replace: options.replace });
  }

  putFailure(runId: string, result: Failure): Promise<void> {
    return this.writes.add({ runId, failure: result });
  }

  /** One turn's results in one transaction, one statement each (ON CONFLICT cannot touch a row twice in one statement). */
  private async commit(writes: Write[]): Promise<void> {
    const ordered = [...writes].sort(byResult);
    await this.db.transaction(async (client) => {
      for (const w of ordered) await put(client, w);
    });
    this.token.moved();
  }

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

  async leaseRun(id: string, owner: string, now: number, until: number): Promise<boolean> {
    const rows = await this.db.query(
      'UPDATE eval_runs SET lease_owner = $1, lease_until = $2 WHERE id = $3 AND (lease_owner IS NULL OR lease_owner = $1 OR lease_until < $4) RETURNING id',
      [owner, until, id, now],
    );
    return rows.length > 0;
  }

  async releaseRun(id: string, owner: string): Promise<void> {
    await this.db.query('UPDATE eval_runs SET lease_owner = NULL, lease_until = NULL WHERE id = $1 AND lease_owner = $2', [id, owner]);
  }

  async spreadRun(id: string, owner: string, work: readonly EvalWork[], now: number): Promise<boolean> {
    const spread = await this.db.transaction(async (client) => {
      const marked = await client.query(
        `UPDATE eval_runs SET spread = true, status = 'running', message = NULL, finished_at = NULL, lease_owner = NULL, lease_until = NULL
         WHERE id = $1 AND (lease_owner IS NULL OR lease_owner = $2 OR lease_until < $3) RETURNING id`,
        [id, owner, now],
      );
      if ((marked.rowCount ?? 0) === 0) return false;
      // In slices: one statement's arrays stay small whatever the run's size.
      for (let i = 0; i < work.length; i += 5_000) {
        const slice = work.slice(i, i + 5_000);
        await client.query(
          `INSERT INTO eval_claims (run_id, variant, position) SELECT $1, v, p FROM unnest($2::integer[], $3::integer[]) AS t (v, p)
           ON CONFLICT (run_id, variant, position) DO NOTHING`,
          [id, slice.map((w) => w.variant), slice.map((w) => w.position)],
        );
      }
      await client.query('SELECT pg_notify($1, $2)', [CHANNELS.runs, id]);
      return true;
    });
    return spread;
  }

  async exportClaims(runId: string): Promise<EvalWork[]> {
    return this.db.query<EvalWork>('SELECT variant, position FROM eval_claims WHERE run_id = $1 ORDER BY position, variant', [runId]);
  }

  async importClaims(runId: string, work: readonly EvalWork[]): Promise<void> {
    for (let i = 0; i < work.length; i += 5_000) {
      const slice = work.slice(i, i + 5_000);
      await this.db.query(
        `INSERT INTO eval_claims (run_id, variant, position) SELECT $1, v, p FROM unnest($2::integer[], $3::integer[]) AS t (v, p)
         ON CONFLICT (run_id, variant, position) DO NOTHING`,
        [runId, slice.map((w) => w.variant), slice.map((w) => w.position)],
      );
    }
  }

  async spreadRuns(): Promise<string[]> {
    return (await this.db.query<{ id: string }>("SELECT id FROM eval_runs WHERE status = 'running' AND spread ORDER BY created_at, id")).map((r) => r.id);
  }

  onSpread(listener: (runId?: string) => void): Promise<void> {
    return this.db.onNotice(CHANNELS.runs, listener);
  }

  async claimWork(runId: string, owner: string, now: number, until: number, limit: number): Promise<EvalWork[]> {
    // Locked rows are skipped, never waited for: two instances claiming at once get different items.
    const claimed = await this.db.query<EvalWork>(
      `UPDATE eval_claims c SET owner = $2, lease_until = $4, reserved = 0
       WHERE (c.run_id, c.variant, c.position) IN (
         SELECT run_id, variant, position FROM eval_claims
         WHERE run_id = $1 AND (owner IS NULL OR lease_until < $3)
           AND EXISTS (SELECT 1 FROM eval_runs WHERE id = $1 AND status = 'running')
         ORDER BY position, variant LIMIT $5 FOR UPDATE SKIP LOCKED)
       RETURNING c.variant, c.position`,
      [runId, owner, now, until, limit],
    );
    // RETURNING keeps no order: in the dataset's.
    return claimed.sort((x, y) => x.position - y.position || x.variant - y.variant);
  }

  async renewClaims(runId: string, owner: string, until: number): Promise<EvalRunPace | undefined> {
    // Rows locked in the order a result's commit ends claims in (variant, position): never a deadlock with it.
    const [row] = await this.db.query<EvalRunPace>(
      `WITH renewed AS (
         UPDATE eval_claims SET lease_until = $3 WHERE (run_id, variant, position) IN (
           SELECT run_id, variant, position FROM eval_claims WHERE run_id = $1 AND owner = $2 ORDER BY variant, position FOR UPDATE)
         RETURNING 1)
       SELECT status, not_before, (SELECT COUNT(*) FROM renewed)::integer AS held FROM eval_runs WHERE id = $1`,
      [runId, owner, until],
    );
    return row;
  }

  async releaseClaims(runId: string, owner: string): Promise<void> {
    await this.db.query(
      `UPDATE eval_claims SET owner = NULL, lease_until = NULL, reserved = 0 WHERE (run_id, variant, position) IN (
         SELECT run_id, variant, position FROM eval_claims WHERE run_id = $1 AND owner = $2 ORDER BY variant, position FOR UPDATE)`,
      [runId, owner],
    );
  }

  async reserveBudget(runId: string, owner: string, work: EvalWork, worst: number): Promise<EvalBudgetAnswer> {
    return this.db.transaction(async (client) => {
      // The run's row lock orders every instance's reservations; what is read after it (a statement
      // of its own, so a snapshot taken once the lock is held) counts every reservation committed before.
      const run = await client.query<{ budget_usd: number | null }>('SELECT budget_usd FROM eval_runs WHERE id = $1 FOR UPDATE', [runId]);
      const budget = run.rows[0]?.budget_usd ?? null;
      const [state] = (
        await client.query<{ mine: boolean; spent: number; held: number }>(
          `SELECT EXISTS (SELECT 1 FROM eval_claims WHERE run_id = $1 AND variant = $2 AND position = $3 AND owner = $4) AS mine,
             (SELECT COALESCE(SUM(cost), 0) FROM eval_results WHERE run_id = $1) AS spent,
             (SELECT COALESCE(SUM(reserved), 0) FROM eval_claims WHERE run_id = $1 AND NOT (variant = $2 AND position = $3)) AS held`,
          [runId, work.variant, work.position, owner],
        )
      ).rows;
      if (!state!.mine) return { reserved: false, reason: 'lost' } as const;
      if (budget === null) return { reserved: true } as const;
      const { spent, held } = state!;
      if (spent + worst > budget) return { reserved: false, reason: 'budget', spent, held, budget } as const;
      if (spent + held + worst > budget) return { reserved: false, reason: 'held', spent, held, budget } as const;
      await client.query('UPDATE eval_claims SET reserved = $4 WHERE run_id = $1 AND variant = $2 AND position = $3', [
        runId,
        work.variant,
        work.position,
        worst,
      ]);
      return { reserved: true } as const;
    });
  }

  async finishIfDrained(runId: string, finishedAt: string, now: number): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE eval_runs SET status = 'done', message = NULL, finished_at = $2, not_before = NULL
       WHERE id = $1 AND status = 'running' AND spread AND (lease_owner IS NULL OR lease_until < $3)
         AND NOT EXISTS (SELECT 1 FROM eval_claims WHERE run_id = $1) RETURNING id`,
      [runId, finishedAt, now],
    );
    return rows.length > 0;
  }

  async stopRun(
    runId: string,
    status: Exclude<StoredEvalRun['status'], 'running' | 'done'>,
    message: string | null,
    finishedAt: string | null,
  ): Promise<boolean> {
    const rows = await this.db.query(
      "UPDATE eval_runs SET status = $2, message = $3, finished_at = $4, not_before = NULL WHERE id = $1 AND status = 'running' RETURNING id",
      [runId, status, message, finishedAt],
    );
    return rows.length > 0;
  }

  async waitUntil(runId: string, notBefore: number): Promise<void> {
    await this.db.query('UPDATE eval_runs SET not_before = GREATEST(COALESCE(not_before, 0), $2) WHERE id = $1', [runId, notBefore]);
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
          `INSERT INTO eval_results (run_id, variant, position, ok, answers, raw_answers, methods, attempts, provider, input_tokens, output_tokens, cost, latency_ms, error, answered_at, tries, retryable, model_key, content_chars)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)`,
          [
            runId,
            r.variant,
            r.position,
            r.ok,
            JSON.stringify(r.answers),
            text(r.raw_answers),
            text(r.methods),
            text(r.attempts),
            r.provider,
            r.input_tokens,
            r.output_tokens,
            r.cost,
            r.latency_ms,
            r.error,
            r.answered_at,
            r.tries,
            r.retryable,
            r.model_key,
            r.content_chars,
          ],
        );
    });
    this.token.moved();
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

  async newestAnswers(
    datasetId: string,
    modelKey: string,
    position?: number,
  ): Promise<{ position: number; run_id: string; variant: number; at: string; answers: Record<string, unknown> }[]> {
    const rows = await this.db.query<{ position: number; run_id: string; variant: number; at: string; answers: string }>(
      `SELECT DISTINCT ON (res.position) res.position, res.run_id, res.variant, res.answered_at AS at, res.answers
       FROM eval_results res JOIN eval_runs r ON r.id = res.run_id
       WHERE r.dataset_id = $1 AND res.ok AND res.model_key = $2${position === undefined ? '' : ' AND res.position = $3'}
       ORDER BY res.position, res.answered_at DESC NULLS LAST, res.run_id, res.variant`,
      [datasetId, modelKey, ...(position === undefined ? [] : [position])],
    );
    return rows.map((r) => ({ ...r, answers: JSON.parse(r.answers) as Record<string, unknown> }));
  }

  async answeredTokens(): Promise<{ model: string; requests: number; input: number; output: number }[]> {
    return this.db.query(
      `SELECT r.variants::json -> res.variant ->> 'model' AS model, COUNT(*)::integer AS requests,
         COALESCE(SUM(res.input_tokens), 0)::float8 AS input, COALESCE(SUM(res.output_tokens), 0)::float8 AS output
       FROM eval_results res JOIN eval_runs r ON r.id = res.run_id WHERE res.ok GROUP BY 1 ORDER BY 1`,
    );
  }

  async saveCalibration(c: StoredCalibration): Promise<void> {
    await this.db.query(
      `INSERT INTO calibrations (set_key, model, question, temperature, created_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (set_key, model, question) DO UPDATE SET temperature = excluded.temperature, created_at = excluded.created_at`,
      [c.set_key, c.model, c.question, c.temperature, c.created_at],
    );
  }

  async calibrations(of?: { set_key: string; model: string }): Promise<StoredCalibration[]> {
    const columns = 'SELECT set_key, model, question, temperature, created_at FROM calibrations';
    if (of) return this.db.query<StoredCalibration>(`${columns} WHERE set_key = $1 AND model = $2 ORDER BY question`, [of.set_key, of.model]);
    return this.db.query<StoredCalibration>(`${columns} ORDER BY created_at DESC, set_key, model, question`);
  }

  async deleteCalibration(key: { set_key: string; model: string; question: string }): Promise<number> {
    return (
      (await this.db.pool.query('DELETE FROM calibrations WHERE set_key = $1 AND model = $2 AND question = $3', [key.set_key, key.model, key.question]))
        .rowCount ?? 0
    );
  }

  changeToken(): number {
    // Moved by the notices of every write to results and dataset items, whichever process makes it, and at once by this one's.
    return this.token.read();
  }
}

async function put(client: pg.PoolClient, w: Write): Promise<void> {
  const key = keyOf(w);
  // The stored result ends the item's claim in the same commit: never a claim without its result gone, nor the other way.
  await client.query('DELETE FROM eval_claims WHERE run_id = $1 AND variant = $2 AND position = $3', [key.run, key.variant, key.position]);
  if ('answer' in w) {
    const r = w.answer;
    await client.query(w.replace ? PUT_ANSWER : `${PUT_ANSWER} WHERE NOT eval_results.ok`, [
      w.runId,
      r.variant,
      r.position,
      JSON.stringify(r.answers),
      text(r.raw_answers),
      text(r.methods),
      text(r.attempts),
      r.provider,
      r.input_tokens,
      r.output_tokens,
      r.cost,
      r.latency_ms,
      r.answered_at,
      r.model_key,
      r.content_chars,
    ]);
    return;
  }
  const r = w.failure;
  await client.query(PUT_FAILURE, [
    w.runId,
    r.variant,
    r.position,
    r.input_tokens,
    r.output_tokens,
    r.cost,
    r.latency_ms,
    r.error,
    r.retryable,
    r.answered_at,
    r.model_key,
    r.content_chars,
  ]);
}

/** The evaluations domain's four ports on Postgres. */
export async function pgEvaluationStorage(db: PgDatabase): Promise<EvaluationStorage> {
  const evals = await PgEvalStore.open(db);
  return { evalRuns: evals, evalResults: evals, evalWork: evals, calibrations: evals };
}
