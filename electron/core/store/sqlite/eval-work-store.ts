import type { EvalBudgetAnswer, EvalRunPace, EvalWork, EvalWorkStorage, NewEvalFailure, NewEvalResult, StoppedStatus, StoredEvalRun } from '../ports';
import type { Params, Store } from './database';
import { answerValues, failureValues } from '../eval-rows';

/**
 * A stored failure sent again is updated in place (never a stored answer): the item's tokens and
 * cost add up over its tries, so the run's spend counts each one once.
 */
const AFTER_FAILURE = `ON CONFLICT (run_id, variant, position) DO UPDATE SET ok = excluded.ok, tries = eval_results.tries + 1, retryable = excluded.retryable,
  input_tokens = eval_results.input_tokens + excluded.input_tokens, output_tokens = eval_results.output_tokens + excluded.output_tokens,
  cost = CASE WHEN eval_results.cost IS NULL THEN excluded.cost WHEN excluded.cost IS NULL THEN eval_results.cost ELSE eval_results.cost + excluded.cost END,
  latency_ms = excluded.latency_ms, model_key = excluded.model_key, content_chars = excluded.content_chars, answered_at = excluded.answered_at,`;

/** What the sender writes in the SQLite file: results (`eval_results`), a run's lease and status (`eval_runs`), and claims (`eval_claims`). */
const LEASE = 'UPDATE eval_runs SET lease_owner = ?, lease_until = ? WHERE id = ? AND (lease_owner IS NULL OR lease_owner = ? OR lease_until < ?)';
const FINISH_DRAINED = `UPDATE eval_runs SET status = 'done', message = NULL, finished_at = ?, not_before = NULL
         WHERE id = ? AND status = 'running' AND spread = 1 AND (lease_owner IS NULL OR lease_until < ?)
           AND NOT EXISTS (SELECT 1 FROM eval_claims WHERE run_id = ?)`;
const STOP = "UPDATE eval_runs SET status = ?, message = ?, finished_at = ?, not_before = NULL WHERE id = ? AND status = 'running'";

export class SqliteEvalWorkStore implements EvalWorkStorage {
  constructor(private readonly store: Store) {}

  putAnswer(runId: string, r: NewEvalResult, options: { replace: boolean }): Promise<void> {
    this.endClaim(runId, r);
    return this.store.commit(
      `INSERT INTO eval_results (run_id, variant, position, ok, answers, raw_answers, methods, attempts, provider, input_tokens, output_tokens, cost, latency_ms, answered_at, model_key, content_chars) VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ${AFTER_FAILURE} answers = excluded.answers, raw_answers = excluded.raw_answers, methods = excluded.methods, attempts = excluded.attempts, provider = excluded.provider, error = NULL${options.replace ? '' : ' WHERE eval_results.ok = 0'}`,
      answerValues(runId, r),
    );
  }

  /** The item's claim ends in the commit its result is stored in (the same group). */
  private endClaim(runId: string, r: EvalWork): void {
    this.store.commitSoon('DELETE FROM eval_claims WHERE run_id = ? AND variant = ? AND position = ?', [runId, r.variant, r.position]);
  }

  putFailure(runId: string, r: NewEvalFailure): Promise<void> {
    this.endClaim(runId, r);
    return this.store.commit(
      `INSERT INTO eval_results (run_id, variant, position, ok, input_tokens, output_tokens, cost, latency_ms, error, retryable, answered_at, model_key, content_chars) VALUES (?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ${AFTER_FAILURE} error = excluded.error WHERE eval_results.ok = 0`,
      failureValues(runId, r, (b) => (b ? 1 : 0)),
    );
  }

  async leaseRun(id: string, owner: string, now: number, until: number): Promise<boolean> {
    return this.changed(LEASE, [owner, until, id, owner, now]);
  }

  /** Whether the statement changed a row (the call that did, among racing ones). */
  private changed(sql: string, params: Params): boolean {
    return this.store.run(sql, params).changes > 0;
  }

  async releaseRun(id: string, owner: string): Promise<void> {
    this.store.run('UPDATE eval_runs SET lease_owner = NULL, lease_until = NULL WHERE id = ? AND lease_owner = ?', [id, owner]);
  }

  async exportClaims(runId: string): Promise<EvalWork[]> {
    return this.store.all<EvalWork>('SELECT variant, position FROM eval_claims WHERE run_id = ? ORDER BY position, variant', [runId]);
  }

  async importClaims(runId: string, work: readonly EvalWork[]): Promise<void> {
    this.store.transaction(() => {
      for (const w of work) this.store.run('INSERT OR IGNORE INTO eval_claims (run_id, variant, position) VALUES (?, ?, ?)', [runId, w.variant, w.position]);
    });
  }

  async spreadRun(id: string, owner: string, work: readonly EvalWork[], now: number): Promise<boolean> {
    return this.store.transaction(() => {
      const marked = this.store.run(
        `UPDATE eval_runs SET spread = 1, status = 'running', message = NULL, finished_at = NULL, lease_owner = NULL, lease_until = NULL
         WHERE id = ? AND (lease_owner IS NULL OR lease_owner = ? OR lease_until < ?)`,
        [id, owner, now],
      );
      if (marked.changes === 0) return false;
      for (const w of work) this.store.run('INSERT OR IGNORE INTO eval_claims (run_id, variant, position) VALUES (?, ?, ?)', [id, w.variant, w.position]);
      return true;
    });
  }

  async spreadRuns(): Promise<string[]> {
    return this.store.all<{ id: string }>("SELECT id FROM eval_runs WHERE status = 'running' AND spread = 1 ORDER BY created_at, id").map((r) => r.id);
  }

  /** One process: nobody else spreads a run to hear of. */
  async onSpread(): Promise<void> {}

  async claimWork(runId: string, owner: string, now: number, until: number, limit: number): Promise<EvalWork[]> {
    // One statement, under the file's write lock: two connections never take the same item.
    const claimed = this.store.all<EvalWork>(
      `UPDATE eval_claims SET owner = ?, lease_until = ?, reserved = 0
       WHERE (run_id, variant, position) IN (
         SELECT run_id, variant, position FROM eval_claims
         WHERE run_id = ? AND (owner IS NULL OR lease_until < ?) AND EXISTS (SELECT 1 FROM eval_runs WHERE id = ? AND status = 'running')
         ORDER BY position, variant LIMIT ?)
       RETURNING variant, position`,
      [owner, until, runId, now, runId, limit],
    );
    return claimed.sort((x, y) => x.position - y.position || x.variant - y.variant);
  }

  async renewClaims(runId: string, owner: string, until: number): Promise<EvalRunPace | undefined> {
    return this.store.transaction(() => {
      const held = this.store.run('UPDATE eval_claims SET lease_until = ? WHERE run_id = ? AND owner = ?', [until, runId, owner]).changes;
      const row = this.store.get<{ status: StoredEvalRun['status']; not_before: number | null }>('SELECT status, not_before FROM eval_runs WHERE id = ?', [
        runId,
      ]);
      return row ? { ...row, held } : undefined;
    });
  }

  async releaseClaims(runId: string, owner: string): Promise<void> {
    this.store.run('UPDATE eval_claims SET owner = NULL, lease_until = NULL, reserved = 0 WHERE run_id = ? AND owner = ?', [runId, owner]);
  }

  async reserveBudget(runId: string, owner: string, work: EvalWork, worst: number): Promise<EvalBudgetAnswer> {
    return this.store.transaction((): EvalBudgetAnswer => {
      const budget = this.store.get<{ budget_usd: number | null }>('SELECT budget_usd FROM eval_runs WHERE id = ?', [runId])?.budget_usd ?? null;
      const state = this.store.get<{ mine: number; spent: number; held: number }>(
        `SELECT EXISTS (SELECT 1 FROM eval_claims WHERE run_id = ? AND variant = ? AND position = ? AND owner = ?) AS mine,
           (SELECT COALESCE(SUM(cost), 0) FROM eval_results WHERE run_id = ?) AS spent,
           (SELECT COALESCE(SUM(reserved), 0) FROM eval_claims WHERE run_id = ? AND NOT (variant = ? AND position = ?)) AS held`,
        [runId, work.variant, work.position, owner, runId, runId, work.variant, work.position],
      )!;
      if (state.mine !== 1) return { reserved: false, reason: 'lost' };
      if (budget === null) return { reserved: true };
      const { spent, held } = state;
      if (spent + worst > budget) return { reserved: false, reason: 'budget', spent, held, budget };
      if (spent + held + worst > budget) return { reserved: false, reason: 'held', spent, held, budget };
      this.store.run('UPDATE eval_claims SET reserved = ? WHERE run_id = ? AND variant = ? AND position = ?', [worst, runId, work.variant, work.position]);
      return { reserved: true };
    });
  }

  async finishIfDrained(runId: string, finishedAt: string, now: number): Promise<boolean> {
    return this.changed(FINISH_DRAINED, [finishedAt, runId, now, runId]);
  }

  async stopRun(runId: string, status: StoppedStatus, message: string | null, finishedAt: string | null): Promise<boolean> {
    return this.changed(STOP, [status, message, finishedAt, runId]);
  }

  async waitUntil(runId: string, notBefore: number): Promise<void> {
    this.store.run('UPDATE eval_runs SET not_before = MAX(COALESCE(not_before, 0), ?) WHERE id = ?', [notBefore, runId]);
  }
}
