import { variantKeys } from '../../../../shared/evaluations/variant-keys';
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
import type { Store } from './database';

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

interface ResultRow {
  variant: number;
  position: number;
  ok: number;
  answers: string;
  raw_answers: string | null;
  methods: string | null;
  attempts: string | null;
  provider: string | null;
  input_tokens: number;
  output_tokens: number;
  cost: number | null;
  latency_ms: number;
  error: string | null;
  answered_at: string | null;
}

const json = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T));

const toRun = (r: RunRow): StoredEvalRun => ({
  id: r.id,
  name: r.name,
  dataset_id: r.dataset_id,
  set_key: r.set_key,
  request: JSON.parse(r.request) as unknown,
  variants: JSON.parse(r.variants) as StoredEvalRun['variants'],
  concurrency: r.concurrency,
  budget_usd: r.budget_usd,
  status: r.status,
  message: r.message,
  created_at: r.created_at,
  finished_at: r.finished_at,
  calibrations: json(r.calibrations),
  baseline_id: r.baseline_id,
  estimate: json(r.estimate),
});

const toResult = (r: ResultRow): StoredEvalResult => ({
  variant: r.variant,
  position: r.position,
  ok: r.ok === 1,
  answers: JSON.parse(r.answers) as Record<string, unknown>,
  raw_answers: json(r.raw_answers),
  methods: json(r.methods),
  attempts: json(r.attempts),
  provider: r.provider,
  input_tokens: r.input_tokens,
  output_tokens: r.output_tokens,
  cost: r.cost,
  latency_ms: r.latency_ms,
  error: r.error,
  answered_at: r.answered_at,
});

const RESULT =
  'SELECT variant, position, ok, answers, raw_answers, methods, attempts, provider, input_tokens, output_tokens, cost, latency_ms, error, answered_at FROM eval_results';

/**
 * A stored failure sent again is updated in place (never a stored answer): the item's tokens and
 * cost add up over its tries, so the run's spend counts each one once.
 */
const AFTER_FAILURE = `ON CONFLICT (run_id, variant, position) DO UPDATE SET ok = excluded.ok, tries = eval_results.tries + 1, retryable = excluded.retryable,
  input_tokens = eval_results.input_tokens + excluded.input_tokens, output_tokens = eval_results.output_tokens + excluded.output_tokens,
  cost = CASE WHEN eval_results.cost IS NULL THEN excluded.cost WHEN excluded.cost IS NULL THEN eval_results.cost ELSE eval_results.cost + excluded.cost END,
  latency_ms = excluded.latency_ms, model_key = excluded.model_key, content_chars = excluded.content_chars, answered_at = excluded.answered_at,`;

const PATCHABLE = ['status', 'message', 'finished_at', 'budget_usd', 'baseline_id'] as const;

/** The evaluations domain's tables (`eval_runs`, `eval_results`, `calibrations`) in the SQLite file. */
export class SqliteEvalStore implements EvalRunStorage, EvalResultStorage, EvalWorkStorage, CalibrationStorage {
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

  async addRun(r: StoredEvalRun): Promise<void> {
    this.store.run(
      'INSERT INTO eval_runs (id, name, dataset_id, set_key, request, variants, concurrency, budget_usd, status, message, created_at, finished_at, calibrations, baseline_id, estimate) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
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
        r.calibrations === null ? null : JSON.stringify(r.calibrations),
        r.baseline_id,
        r.estimate === null || r.estimate === undefined ? null : JSON.stringify(r.estimate),
      ],
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

  putAnswer(runId: string, r: NewEvalResult, options: { replace: boolean }): Promise<void> {
    this.endClaim(runId, r);
    return this.store.commit(
      `INSERT INTO eval_results (run_id, variant, position, ok, answers, raw_answers, methods, attempts, provider, input_tokens, output_tokens, cost, latency_ms, answered_at, model_key, content_chars) VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ${AFTER_FAILURE} answers = excluded.answers, raw_answers = excluded.raw_answers, methods = excluded.methods, attempts = excluded.attempts, provider = excluded.provider, error = NULL${options.replace ? '' : ' WHERE eval_results.ok = 0'}`,
      [
        runId,
        r.variant,
        r.position,
        JSON.stringify(r.answers),
        r.raw_answers === null ? null : JSON.stringify(r.raw_answers),
        r.methods === null ? null : JSON.stringify(r.methods),
        r.attempts === null ? null : JSON.stringify(r.attempts),
        r.provider,
        r.input_tokens,
        r.output_tokens,
        r.cost,
        r.latency_ms,
        r.answered_at,
        r.model_key,
        r.content_chars,
      ],
    );
  }

  /** The item's claim ends in the commit its result is stored in (the same group). */
  private endClaim(runId: string, r: EvalWork): void {
    this.store.commitSoon('DELETE FROM eval_claims WHERE run_id = ? AND variant = ? AND position = ?', [runId, r.variant, r.position]);
  }

  putFailure(runId: string, r: Omit<NewEvalResult, 'answers' | 'raw_answers' | 'methods' | 'attempts' | 'provider'> & { retryable: boolean }): Promise<void> {
    this.endClaim(runId, r);
    return this.store.commit(
      `INSERT INTO eval_results (run_id, variant, position, ok, input_tokens, output_tokens, cost, latency_ms, error, retryable, answered_at, model_key, content_chars) VALUES (?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ${AFTER_FAILURE} error = excluded.error WHERE eval_results.ok = 0`,
      [
        runId,
        r.variant,
        r.position,
        r.input_tokens,
        r.output_tokens,
        r.cost,
        r.latency_ms,
        r.error,
        r.retryable ? 1 : 0,
        r.answered_at,
        r.model_key,
        r.content_chars,
      ],
    );
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

  async newestAnswers(
    datasetId: string,
    modelKey: string,
    position?: number,
  ): Promise<{ position: number; run_id: string; variant: number; at: string; answers: Record<string, unknown> }[]> {
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

  async answeredTokens(): Promise<{ model: string; requests: number; input: number; output: number }[]> {
    return this.store.all(
      `SELECT json_extract(r.variants, '$[' || res.variant || '].model') AS model, COUNT(*) AS requests, COALESCE(SUM(res.input_tokens), 0) AS input, COALESCE(SUM(res.output_tokens), 0) AS output
       FROM eval_results res JOIN eval_runs r ON r.id = res.run_id WHERE res.ok = 1 GROUP BY model`,
    );
  }

  async saveCalibration(c: StoredCalibration): Promise<void> {
    this.store.run('INSERT OR REPLACE INTO calibrations (set_key, model, question, temperature, created_at) VALUES (?, ?, ?, ?, ?)', [
      c.set_key,
      c.model,
      c.question,
      c.temperature,
      c.created_at,
    ]);
  }

  async calibrations(of?: { set_key: string; model: string }): Promise<StoredCalibration[]> {
    if (of) return this.store.all<StoredCalibration>('SELECT * FROM calibrations WHERE set_key = ? AND model = ? ORDER BY question', [of.set_key, of.model]);
    return this.store.all<StoredCalibration>('SELECT * FROM calibrations ORDER BY created_at DESC');
  }

  async deleteCalibration(key: { set_key: string; model: string; question: string }): Promise<number> {
    return this.store.run('DELETE FROM calibrations WHERE set_key = ? AND model = ? AND question = ?', [key.set_key, key.model, key.question]).changes;
  }

  async leaseRun(id: string, owner: string, now: number, until: number): Promise<boolean> {
    return (
      this.store.run('UPDATE eval_runs SET lease_owner = ?, lease_until = ? WHERE id = ? AND (lease_owner IS NULL OR lease_owner = ? OR lease_until < ?)', [
        owner,
        until,
        id,
        owner,
        now,
      ]).changes > 0
    );
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
    return (
      this.store.run(
        `UPDATE eval_runs SET status = 'done', message = NULL, finished_at = ?, not_before = NULL
         WHERE id = ? AND status = 'running' AND spread = 1 AND (lease_owner IS NULL OR lease_until < ?)
           AND NOT EXISTS (SELECT 1 FROM eval_claims WHERE run_id = ?)`,
        [finishedAt, runId, now, runId],
      ).changes > 0
    );
  }

  async stopRun(
    runId: string,
    status: Exclude<StoredEvalRun['status'], 'running' | 'done'>,
    message: string | null,
    finishedAt: string | null,
  ): Promise<boolean> {
    return (
      this.store.run("UPDATE eval_runs SET status = ?, message = ?, finished_at = ?, not_before = NULL WHERE id = ? AND status = 'running'", [
        status,
        message,
        finishedAt,
        runId,
      ]).changes > 0
    );
  }

  async waitUntil(runId: string, notBefore: number): Promise<void> {
    this.store.run('UPDATE eval_runs SET not_before = MAX(COALESCE(not_before, 0), ?) WHERE id = ?', [notBefore, runId]);
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
          `INSERT INTO eval_results (run_id, variant, position, ok, answers, raw_answers, methods, attempts, provider, input_tokens, output_tokens, cost, latency_ms, error, answered_at, tries, retryable, model_key, content_chars)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          [
            runId,
            r.variant,
            r.position,
            r.ok ? 1 : 0,
            JSON.stringify(r.answers),
            r.raw_answers === null ? null : JSON.stringify(r.raw_answers),
            r.methods === null ? null : JSON.stringify(r.methods),
            r.attempts === null ? null : JSON.stringify(r.attempts),
            r.provider,
            r.input_tokens,
            r.output_tokens,
            r.cost,
            r.latency_ms,
            r.error,
            r.answered_at,
            r.tries,
            r.retryable ? 1 : 0,
            r.model_key,
            r.content_chars,
          ],
        );
    });
  }

  changeToken(): number {
    // Moved by triggers on every write to results and dataset items, whichever process makes it.
    return this.store.revision('results');
  }
}

/** The evaluations domain's four ports on the SQLite file. */
export function sqliteEvaluationStorage(store: Store): EvaluationStorage {
  const evals = new SqliteEvalStore(store);
  return { evalRuns: evals, evalResults: evals, evalWork: evals, calibrations: evals };
}
