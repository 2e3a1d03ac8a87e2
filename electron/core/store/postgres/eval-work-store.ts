import type pg from 'pg';
import type { EvalBudgetAnswer, EvalRunPace, EvalWork, EvalWorkStorage, NewEvalFailure, NewEvalResult, StoppedStatus } from '../ports';
import type { PgChangeToken } from './change-token';
import { TickBatch, type PgDatabase } from './database';
import { answerValues, failureValues } from '../eval-rows';
import { CHANNELS } from './migrations';

/** A result waiting for its group commit. */
type Write = { runId: string } & ({ answer: NewEvalResult; replace: boolean } | { failure: NewEvalFailure });

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

/** What the sender writes in Postgres: results (`eval_results`, one turn's in one transaction), a run's lease and status (`eval_runs`), and claims (`eval_claims`). */
const LEASE =
  'UPDATE eval_runs SET lease_owner = $1, lease_until = $2 WHERE id = $3 AND (lease_owner IS NULL OR lease_owner = $1 OR lease_until < $4) RETURNING id';
const FINISH_DRAINED = `UPDATE eval_runs SET status = 'done', message = NULL, finished_at = $2, not_before = NULL
       WHERE id = $1 AND status = 'running' AND spread AND (lease_owner IS NULL OR lease_until < $3)
         AND NOT EXISTS (SELECT 1 FROM eval_claims WHERE run_id = $1) RETURNING id`;
const STOP = "UPDATE eval_runs SET status = $2, message = $3, finished_at = $4, not_before = NULL WHERE id = $1 AND status = 'running' RETURNING id";

export class PgEvalWorkStore implements EvalWorkStorage {
  private readonly writes: TickBatch<Write>;

  constructor(
    private readonly db: PgDatabase,
    private readonly token: PgChangeToken,
  ) {
    this.writes = new TickBatch((items) => this.commit(items));
  }

  putAnswer(runId: string, result: NewEvalResult, options: { replace: boolean }): Promise<void> {
    return this.writes.add({ runId, answer: result, replace: options.replace });
  }

  putFailure(runId: string, result: NewEvalFailure): Promise<void> {
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

  async leaseRun(id: string, owner: string, now: number, until: number): Promise<boolean> {
    return this.changed(LEASE, [owner, until, id, now]);
  }

  /** Whether the statement changed a row (the call that did, among racing ones). */
  private async changed(sql: string, params: unknown[]): Promise<boolean> {
    return (await this.db.query(sql, params)).length > 0;
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
    return this.changed(FINISH_DRAINED, [runId, finishedAt, now]);
  }

  async stopRun(runId: string, status: StoppedStatus, message: string | null, finishedAt: string | null): Promise<boolean> {
    return this.changed(STOP, [runId, status, message, finishedAt]);
  }

  async waitUntil(runId: string, notBefore: number): Promise<void> {
    await this.db.query('UPDATE eval_runs SET not_before = GREATEST(COALESCE(not_before, 0), $2) WHERE id = $1', [runId, notBefore]);
  }
}

async function put(client: pg.PoolClient, w: Write): Promise<void> {
  const key = keyOf(w);
  // The stored result ends the item's claim in the same commit: never a claim without its result gone, nor the other way.
  await client.query('DELETE FROM eval_claims WHERE run_id = $1 AND variant = $2 AND position = $3', [key.run, key.variant, key.position]);
  if ('answer' in w) {
    const r = w.answer;
    await client.query(w.replace ? PUT_ANSWER : `${PUT_ANSWER} WHERE NOT eval_results.ok`, answerValues(w.runId, r));
    return;
  }
  const r = w.failure;
  await client.query(
    PUT_FAILURE,
    failureValues(w.runId, r, (b) => b),
  );
}
