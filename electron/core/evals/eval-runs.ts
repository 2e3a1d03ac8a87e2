import { createHash, randomUUID } from 'node:crypto';
import type { DecisionsRequest } from '../../../shared/schemas/decisions-request';
import type {
  CalibrationSummary,
  EvalReport,
  EvalResultRow,
  EvalRun,
  EvalRunStatus,
  EvalVariant,
  RunEstimate,
  SavedCalibration,
} from '../../../shared/schemas/evaluation';
import type { Question } from '../../../shared/schemas/question';
import { isoTime, type Clock } from '../clock';
import { GatewayError } from '../errors';
import type { Logger } from '../logger';
import type { CancelSignal } from '../cancel';
import type { Store } from '../store/sqlite/database';
import type { Datasets } from './datasets';
import { budgetMessage, EvalRunner, MAX_ITEM_TRIES, type EvalDecide, type RunnerEnd } from './eval-runner';
import { calibrate } from './calibration';
import { calibrationPoint, evalReport, judge, type StoredResult } from './report';
import { iou } from '../../../shared/geometry/iou';
import type { FractionBox } from './metrics';
import { itemText } from './item-text';
import { refinedExpectation, type Answered } from './refine';
import { variantKeys } from '../../../shared/evaluations/variant-keys';

interface RunRow {
  id: string;
  name: string;
  dataset_id: string;
  set_key: string;
  request: string;
  variants: string;
  concurrency: number;
  budget_usd: number | null;
  status: EvalRunStatus;
  message: string | null;
  created_at: string;
  finished_at: string | null;
  /** JSON [{variant, question, temperature}]; null for runs from before runs recorded them */
  calibrations: string | null;
  baseline_id: string | null;
  /** JSON RunEstimate, what the estimate said at the start; null for runs from before */
  estimate: string | null;
}

/** Answered items before the expected cost is refined from what they cost. */
export const MIN_FOR_EXPECTATION = 5;

type AppliedCalibration = { variant: number; question: string; temperature: number };

export interface ResultRow {
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
}

/** A question set's identity for saved calibrations: its questions, whatever it is called. */
export function setKey(questions: DecisionsRequest['questions']): string {
  return `q-${createHash('sha256').update(JSON.stringify(questions)).digest('hex').slice(0, 16)}`;
}

export { variantKeys };

export const toStored = (r: ResultRow): StoredResult => ({
  position: r.position,
  ok: r.ok === 1,
  answers: JSON.parse(r.answers) as Record<string, unknown>,
  cost: r.cost,
  input_tokens: r.input_tokens,
  output_tokens: r.output_tokens,
  latency_ms: r.latency_ms,
});

/** Evaluation runs: started, paused, resumed after a restart, reported. */
export class EvalRuns {
  private readonly active = new Map<string, EvalRunner>();
  /** Runs resumed while their pause was still letting requests in flight return: launched again as soon as they have. */
  private readonly resumeWhenStopped = new Set<string>();
  private closing = false;

  constructor(
    private readonly deps: {
      store: Store;
      clock: Clock;
      logger: Logger;
      datasets: Datasets;
      decide: EvalDecide;
      sleep?: (ms: number, signal: CancelSignal) => Promise<void>;
    },
  ) {}

  private row(id: string): RunRow {
    const row = this.deps.store.get<RunRow>('SELECT * FROM eval_runs WHERE id = ?', [id]);
    if (!row) throw new GatewayError('not_found', `No evaluation run with id "${id}"`);
    return row;
  }

  private view(row: RunRow): EvalRun {
    const variants = JSON.parse(row.variants) as EvalVariant[];
    const keys = variantKeys(variants);
    const live = this.active.get(row.id);
    const counts = live
      ? { done: live.done, failed: live.failed, spent: live.spent }
      : this.deps.store.get<{ done: number; failed: number; spent: number }>(
          'SELECT COUNT(*) AS done, COALESCE(SUM(1 - ok), 0) AS failed, COALESCE(SUM(cost), 0) AS spent FROM eval_results WHERE run_id = ?',
          [row.id],
        )!;
    const items = this.deps.store.get<{ n: number }>('SELECT item_count AS n FROM datasets WHERE id = ?', [row.dataset_id])?.n ?? 0;
    return {
      id: row.id,
      name: row.name,
      dataset_id: row.dataset_id,
      set_key: row.set_key,
      variants: variants.map((v, i) => ({ name: keys[i]!, model: v.model, label: v.label ?? null })),
      status: row.status,
      concurrency: row.concurrency,
      budget_usd: row.budget_usd,
      total: items * variants.length,
      done: counts.done,
      failed: counts.failed,
      retryable: live ? live.retryable : this.retryable(row.id),
      spent_usd: counts.spent,
      eta_ms: live?.eta() ?? null,
      in_flight: live?.inFlight ?? 0,
      waiting_ms: live?.waiting() ?? null,
      created_at: row.created_at,
      finished_at: row.finished_at,
      message: row.message,
      calibrations: row.calibrations === null ? null : (JSON.parse(row.calibrations) as AppliedCalibration[]),
      ...asked(row.request),
      baseline_id: row.baseline_id,
      estimate: row.estimate === null ? null : (JSON.parse(row.estimate) as RunEstimate),
      ...this.expectation(row.id, items * variants.length, row.estimate === null ? null : (JSON.parse(row.estimate) as RunEstimate)),
    };
  }

  /**
   * The run's expected cost refined from its answered items. With the estimate it started with: each
   * model's expected cost scaled by the tokens its answered requests measured against the tokens the
   * estimate's fit says for those same items (refine.ts; a run from before the fit: against the
   * estimate's tokens per request), so the prices stay those routing is expected to pay; without an
   * estimate, what its answered requests cost on average, over every request. Null before
   * MIN_FOR_EXPECTATION requests are answered, or when a cost is unknown.
   */
  private expectation(id: string, total: number, estimate: RunEstimate | null): { expected_usd: number | null; expected_from: number } {
    const answered = this.deps.store.all<Answered & { cost: number | null; unknown: number }>(
      `SELECT r.variant AS variant, COUNT(*) AS n, SUM(r.cost) AS cost, SUM(r.cost IS NULL) AS unknown, COALESCE(SUM(r.input_tokens + r.output_tokens), 0) AS tokens, COALESCE(SUM(length(i.state)), 0) AS chars
       FROM eval_results r JOIN eval_runs e ON e.id = r.run_id JOIN dataset_items i ON i.dataset_id = e.dataset_id AND i.position = r.position
       WHERE r.run_id = ? AND r.ok = 1 GROUP BY r.variant`,
      [id],
    );
    const n = answered.reduce((s, a) => s + a.n, 0);
    if (n < MIN_FOR_EXPECTATION || total === 0) return { expected_usd: null, expected_from: n };
    if (estimate?.variants) return { expected_usd: refinedExpectation(estimate.variants, answered), expected_from: n };
    const tokens = answered.reduce((s, a) => s + a.tokens, 0);
    const estimated = estimate ? (estimate.input_tokens + estimate.output_tokens) / total : 0;
    if (estimate && estimate.expected_usd !== null && estimated > 0)
      return { expected_usd: estimate.expected_usd * (tokens / n / estimated), expected_from: n };
    if (answered.some((a) => a.unknown > 0 || a.cost === null)) return { expected_usd: null, expected_from: n };
    return { expected_usd: (answered.reduce((s, a) => s + a.cost!, 0) / n) * total, expected_from: n };
  }

  /** Compares this run with an earlier one over the same dataset (null clears it). */
  setBaseline(id: string, baselineId: string | null): EvalRun {
    const row = this.row(id);
    if (baselineId !== null) {
      const base = this.row(baselineId);
      if (base.id === row.id) throw new GatewayError('bad_request', 'baseline_id: a run cannot be its own baseline');
      if (base.dataset_id !== row.dataset_id)
        throw new GatewayError(
          'bad_request',
          `baseline_id: the run "${base.name}" is over another dataset than "${row.name}"; a baseline must be over the same items`,
        );
    }
    this.deps.store.run('UPDATE eval_runs SET baseline_id = ? WHERE id = ?', [baselineId, id]);
    return this.get(id);
  }

  /** The saved calibrations of a question set for each model of a run, as they stand now. */
  private savedCalibrations(set: string, variants: readonly EvalVariant[]): AppliedCalibration[] {
    return variants.flatMap((v, variant) =>
      this.deps.store
        .all<{ question: string; temperature: number }>('SELECT question, temperature FROM calibrations WHERE set_key = ? AND model = ? ORDER BY question', [
          set,
          v.model,
        ])
        .map((c) => ({ variant, question: c.question, temperature: c.temperature })),
    );
  }

  /** `estimate` is what the estimate said at the start, kept to be shown against what the run cost. */
  start(input: {
    name?: string | undefined;
    request: DecisionsRequest;
    dataset_id: string;
    variants: EvalVariant[];
    concurrency: number;
    budget_usd?: number | null | undefined;
    estimate?: RunEstimate | null;
  }): EvalRun {
    const dataset = this.deps.datasets.get(input.dataset_id);
    if (input.variants.length === 0) throw new GatewayError('bad_request', 'variants: name at least one model');
    this.deps.datasets.assertFits(dataset.id, input.request.questions as Record<string, Question>);
    const id = `eval-${randomUUID()}`;
    const name = input.name ?? this.defaultName(dataset, input.variants);
    const set = setKey(input.request.questions);
    this.deps.store.run(
      "INSERT INTO eval_runs (id, name, dataset_id, set_key, request, variants, concurrency, budget_usd, status, created_at, calibrations, estimate) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'running', ?, ?, ?)",
      [
        id,
        name,
        dataset.id,
        set,
        JSON.stringify(input.request),
        JSON.stringify(input.variants),
        input.concurrency,
        input.budget_usd ?? null,
        isoTime(this.deps.clock),
        JSON.stringify(this.savedCalibrations(set, input.variants)),
        input.estimate ? JSON.stringify(input.estimate) : null,
      ],
    );
    this.launch(this.row(id));
    return this.get(id);
  }

  /**
   * "dataset × model", or "dataset × 4 models", numbered when another run over the dataset has that
   * name: runs told apart in lists, whatever their number of models.
   */
  private defaultName(dataset: { id: string; name: string }, variants: readonly EvalVariant[]): string {
    const keys = variantKeys(variants);
    const base = `${dataset.name} × ${keys.length === 1 ? keys[0] : `${keys.length} models`}`;
    const taken = new Set(this.deps.store.all<{ name: string }>('SELECT name FROM eval_runs WHERE dataset_id = ?', [dataset.id]).map((r) => r.name));
    if (!taken.has(base)) return base;
    let n = 2;
    while (taken.has(`${base}, run ${n}`)) n += 1;
    return `${base}, run ${n}`;
  }

  /**
   * Sends some items of a stopped run again (their stored results, answers or failures, are replaced
   * as they come back): one image run again from Boxes goes through the run's own questions, models,
   * calibrations and budget, and its answer lands where the run's results are read.
   */
  rerun(id: string, positions: readonly number[], variants?: readonly number[]): EvalRun {
    const row = this.row(id);
    if (this.active.has(id) || row.status === 'running') throw new GatewayError('bad_request', 'The run is still sending; pause it or wait until it ends');
    if (row.status === 'cancelled') throw new GatewayError('bad_request', 'The run is cancelled; start a new one');
    const count = (JSON.parse(row.variants) as EvalVariant[]).length;
    const which = variants ?? Array.from({ length: count }, (_, i) => i);
    for (const v of which) if (v >= count) throw new GatewayError('bad_request', `variants: the run has no model at place ${v}`);
    for (const p of positions) this.deps.datasets.item(row.dataset_id, p);
    this.launch(row, { positions, variants: which });
    return this.get(id);
  }

  private launch(row: RunRow, only?: { positions: readonly number[]; variants: readonly number[] }): void {
    if (this.active.has(row.id) || this.closing) return;
    const variants = JSON.parse(row.variants) as EvalVariant[];
    // Those fixed when the run started; a run from before they were recorded reads the saved ones.
    const applied = row.calibrations === null ? this.savedCalibrations(row.set_key, variants) : (JSON.parse(row.calibrations) as AppliedCalibration[]);
    const calibrations = new Map<number, Map<string, number>>(variants.map((_, i) => [i, new Map()]));
    for (const c of applied) calibrations.get(c.variant)?.set(c.question, c.temperature);
    const runner = new EvalRunner(
      {
        id: row.id,
        datasetId: row.dataset_id,
        request: JSON.parse(row.request) as DecisionsRequest,
        variants,
        concurrency: row.concurrency,
        budgetUsd: row.budget_usd,
        calibrations,
        only,
      },
      { store: this.deps.store, clock: this.deps.clock, datasets: this.deps.datasets, decide: this.deps.decide, sleep: this.deps.sleep ?? abortableSleep },
    );
    this.active.set(row.id, runner);
    this.deps.store.run("UPDATE eval_runs SET status = 'running', message = NULL, finished_at = NULL WHERE id = ?", [row.id]);
    void runner.finished
      .then((end: RunnerEnd) => {
        // Resumed while a pause (or its budget) let requests in flight finish: go on at once.
        if ((end === 'paused' || end === 'budget') && this.resumeWhenStopped.delete(row.id) && !this.closing) {
          this.active.delete(row.id);
          this.launch(this.row(row.id));
          return;
        }
        // Items sent again leave a paused or stopped run as it was (it still has items to resume), not done.
        if (only && end === 'done' && row.status !== 'done' && row.status !== 'running') this.finish(row.id, row.status as RunnerEnd, row.message);
        else this.finish(row.id, end, end === 'budget' ? budgetMessage(row.budget_usd ?? 0, runner.budgetStop) : null);
      })
      .catch((error: unknown) => {
        this.deps.logger.error({ err: error, run: row.id }, 'evaluation run failed');
        this.finish(row.id, 'failed', error instanceof Error ? error.message : String(error));
      });
  }

  private finish(id: string, end: RunnerEnd, message: string | null): void {
    this.active.delete(id);
    // Closing the core leaves the run 'running', so the next start resumes it.
    if (this.closing) return;
    this.deps.store.run('UPDATE eval_runs SET status = ?, message = ?, finished_at = ? WHERE id = ?', [
      end,
      message,
      end === 'paused' ? null : isoTime(this.deps.clock),
      id,
    ]);
  }

  /** Restarts runs that were running when the process stopped; they send only items with no stored result. */
  resumeInterrupted(): number {
    const rows = this.deps.store.all<RunRow>("SELECT * FROM eval_runs WHERE status = 'running'");
    for (const row of rows) this.launch(row);
    return rows.length;
  }

  get(id: string): EvalRun {
    return this.view(this.row(id));
  }

  list(): EvalRun[] {
    return this.deps.store.all<RunRow>('SELECT * FROM eval_runs ORDER BY created_at DESC LIMIT 200').map((r) => this.view(r));
  }

  pause(id: string): EvalRun {
    const runner = this.active.get(id);
    this.resumeWhenStopped.delete(id);
    if (runner) {
      runner.stop('paused');
      this.deps.store.run("UPDATE eval_runs SET status = 'paused' WHERE id = ?", [id]);
    }
    return this.get(id);
  }

  /** Failed items a resume would send again: not refused as malformed, and sent fewer than MAX_ITEM_TRIES times. */
  private retryable(id: string): number {
    return this.deps.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM eval_results WHERE run_id = ? AND ok = 0 AND retryable = 1 AND tries < ?', [
      id,
      MAX_ITEM_TRIES,
    ])!.n;
  }

  /** Goes on with the items that have no result, and sends failed items again (a finished run too, when it has some). */
  resume(id: string, budget?: number | null): EvalRun {
    const row = this.row(id);
    if (row.status === 'cancelled') throw new GatewayError('bad_request', 'The run is cancelled; start a new one');
    if (row.status === 'done' && this.retryable(id) === 0)
      throw new GatewayError('bad_request', 'The run is done and has no failed item to try again; start a new one');
    if (budget !== undefined) this.deps.store.run('UPDATE eval_runs SET budget_usd = ? WHERE id = ?', [budget, id]);
    const runner = this.active.get(id);
    if (!runner) this.launch(this.row(id));
    else if (runner.stoppingFor === 'paused' || runner.stoppingFor === 'budget') {
      // Stopping, with requests still in flight: a resume now is not dropped; the run goes on once they return.
      this.resumeWhenStopped.add(id);
      this.deps.store.run("UPDATE eval_runs SET status = 'running', message = NULL WHERE id = ?", [id]);
    }
    return this.get(id);
  }

  cancel(id: string): EvalRun {
    const row = this.row(id);
    this.resumeWhenStopped.delete(id);
    const runner = this.active.get(id);
    if (runner) runner.stop('cancelled');
    else if (row.status !== 'done') this.finish(id, 'cancelled', null);
    return this.get(id);
  }

  delete(id: string): { id: string } {
    this.cancel(id);
    this.deps.store.run('DELETE FROM eval_runs WHERE id = ?', [id]);
    return { id };
  }

  /** Resolves with the final status once the run stops (at once when it is not running here). */
  async wait(id: string): Promise<EvalRun> {
    await this.active.get(id)?.finished.catch(() => undefined);
    return this.get(id);
  }

  questionNames(id: string): string[] {
    return Object.keys(this.questions(id));
  }

  questions(id: string): Record<string, Question> {
    return (JSON.parse(this.row(id).request) as DecisionsRequest).questions as Record<string, Question>;
  }

  private results(id: string): ResultRow[] {
    return this.deps.store.all<ResultRow>('SELECT * FROM eval_results WHERE run_id = ? ORDER BY position, variant', [id]);
  }

  /** The report; `detail` as evalReport takes it (the command line's plain report by default). */
  report(id: string, options: { detail?: boolean } = {}): EvalReport {
    const row = this.row(id);
    const request = JSON.parse(row.request) as DecisionsRequest;
    const variants = JSON.parse(row.variants) as EvalVariant[];
    const items = this.deps.store
      .all<{ position: number; expected: string }>('SELECT position, expected FROM dataset_items WHERE dataset_id = ? ORDER BY position', [row.dataset_id])
      .map((i) => ({ position: i.position, expected: JSON.parse(i.expected) as Record<string, never> }));
    const byVariant = variants.map(() => [] as StoredResult[]);
    for (const r of this.results(id)) byVariant[r.variant]?.push(toStored(r));
    const keys = variantKeys(variants);
    return evalReport({
      questions: request.questions as Record<string, Question>,
      items,
      variants: keys.map((key, i) => ({ key, results: byVariant[i]! })),
      detail: options.detail ?? false,
    });
  }

  /**
   * Items × variants with right/wrong marks, filtered, one page at a time. The filtered rows are
   * kept for the next page while no result or dataset item was written (the `results` revision,
   * moved by triggers on both tables, whoever writes), so scrolling through them does not judge
   * every result again for each page. Keyed on every change to the file instead, a metrics flush or
   * an API call's spend during a scroll made the next page rebuild all 10,000 rows (about 200 ms of
   * the server's CPU, on the cores the page scrolls on).
   */
  matrix(
    id: string,
    options: { offset: number; limit: number; filter: 'all' | 'wrong' | 'disagree' | 'low'; question?: string | undefined; below?: number },
  ): { total: number; rows: EvalResultRow[] } {
    // Moved by every write to results or dataset items (triggers), by any process; nothing else.
    const version = this.deps.store.revision('results');
    const key = JSON.stringify([id, options.filter, options.question ?? null, options.below ?? null, version]);
    if (this.matrixCache?.key !== key) this.matrixCache = { key, rows: this.matrixRows(id, options) };
    const rows = this.matrixCache.rows;
    // Let go of them when nobody has scrolled for a while: a large run's rows are sizeable.
    clearTimeout(this.matrixRelease);
    this.matrixRelease = setTimeout(() => (this.matrixCache = null), 30_000).unref();
    return { total: rows.length, rows: rows.slice(options.offset, options.offset + options.limit) };
  }

  private matrixCache: { key: string; rows: EvalResultRow[] } | null = null;
  private matrixRelease: ReturnType<typeof setTimeout> | undefined;

  private matrixRows(id: string, options: { filter: 'all' | 'wrong' | 'disagree' | 'low'; question?: string | undefined; below?: number }): EvalResultRow[] {
    const row = this.row(id);
    const request = JSON.parse(row.request) as DecisionsRequest;
    const keys = variantKeys(JSON.parse(row.variants) as EvalVariant[]);
    const questions = Object.entries(request.questions as Record<string, Question>).filter(([n]) => !options.question || n === options.question);
    const results = this.results(id);
    const rows: EvalResultRow[] = [];
    let r = 0;
    for (const item of this.deps.datasets.iterate(row.dataset_id)) {
      const cells: EvalResultRow['cells'] = [];
      while (r < results.length && results[r]!.position === item.position) {
        const res = results[r++]!;
        const answers = JSON.parse(res.answers) as Record<string, unknown>;
        const correct: Record<string, boolean | null> = {};
        const confidence: Record<string, number | null> = {};
        for (const [name, q] of questions) {
          const j = res.ok ? judge(q, answers[name], item.expected[name]) : { correct: null, confidence: null };
          correct[name] = j.correct;
          confidence[name] = j.confidence;
        }
        cells.push({ variant: keys[res.variant] ?? String(res.variant), ok: res.ok === 1, answers, correct, confidence, error: res.error });
      }
      const marks = cells.flatMap((c) => Object.values(c.correct));
      const keep =
        options.filter === 'all' ||
        (options.filter === 'wrong' && (marks.includes(false) || cells.some((c) => !c.ok))) ||
        (options.filter === 'disagree' && questions.some(([name]) => new Set(cells.map((c) => JSON.stringify(summaryOf(c.answers[name])))).size > 1)) ||
        (options.filter === 'low' && cells.some((c) => Object.values(c.confidence).some((v) => v !== null && v < (options.below ?? 0.7))));
      if (keep) rows.push({ position: item.position, id: item.id, text: itemText(item.state), expected: item.expected, cells });
    }
    return rows;
  }

  /**
   * What the charts draw beyond the report: per score question and model, how often each signed
   * error (score − expected, to the nearest 0.5) occurs; per box question and model, IoU in ten bins.
   */
  distributions(id: string): { question: string; type: 'score' | 'box'; model: string; buckets: { at: number; count: number }[] }[] {
    const row = this.row(id);
    const questions = Object.entries((JSON.parse(row.request) as DecisionsRequest).questions as Record<string, Question>).filter(
      ([, q]) => q.type === 'score' || q.type === 'box',
    );
    if (questions.length === 0) return [];
    const keys = variantKeys(JSON.parse(row.variants) as EvalVariant[]);
    const expected = new Map(
      this.deps.store
        .all<{ position: number; expected: string }>('SELECT position, expected FROM dataset_items WHERE dataset_id = ?', [row.dataset_id])
        .map((i) => [i.position, JSON.parse(i.expected) as Record<string, unknown>]),
    );
    const counts = new Map<string, Map<number, number>>();
    for (const r of this.results(id)) {
      if (r.ok !== 1) continue;
      const answers = JSON.parse(r.answers) as Record<string, { score?: number; box?: FractionBox }>;
      for (const [name, q] of questions) {
        const e = expected.get(r.position)?.[name];
        const a = answers[name];
        if (e === undefined || !a) continue;
        const at = q.type === 'score' ? Math.round(((a.score ?? 0) - (e as number)) * 2) / 2 : Math.min(9, Math.floor(iou(a.box!, e as FractionBox) * 10)) / 10;
        const key = `${name}\u0000${r.variant}`;
        const bucket = counts.get(key) ?? new Map<number, number>();
        bucket.set(at, (bucket.get(at) ?? 0) + 1);
        counts.set(key, bucket);
      }
    }
    return [...counts.entries()].map(([key, bucket]) => {
      const [question, variant] = key.split('\u0000') as [string, string];
      const type = questions.find(([n]) => n === question)![1].type as 'score' | 'box';
      return {
        question,
        type,
        model: keys[Number(variant)]!,
        buckets: [...bucket.entries()].sort((a, b) => a[0] - b[0]).map(([at, count]) => ({ at, count })),
      };
    });
  }

  /** One item with its state and every variant's full stored result. */
  item(id: string, position: number) {
    const row = this.row(id);
    const keys = variantKeys(JSON.parse(row.variants) as EvalVariant[]);
    const item = this.deps.datasets.item(row.dataset_id, position);
    const results = this.deps.store.all<ResultRow>('SELECT * FROM eval_results WHERE run_id = ? AND position = ? ORDER BY variant', [id, position]);
    return { item, results: results.map((r) => resultView(r, keys)) };
  }

  /** Fits a temperature for one variant and question (even positions), reported on odd positions. */
  fitCalibration(id: string, variant: number, question: string): CalibrationSummary | null {
    const row = this.row(id);
    const q = (JSON.parse(row.request) as DecisionsRequest).questions[question] as Question | undefined;
    if (!q) throw new GatewayError('bad_request', `question: the run has no question "${question}"`);
    const expected = new Map(
      this.deps.store
        .all<{ position: number; expected: string }>('SELECT position, expected FROM dataset_items WHERE dataset_id = ?', [row.dataset_id])
        .map((i) => [i.position, (JSON.parse(i.expected) as Record<string, unknown>)[question]]),
    );
    const points = this.results(id)
      .filter((r) => r.variant === variant && r.ok === 1)
      .flatMap((r) => {
        // Fitted on raw answers: a calibration already applied is not fitted again on top of itself.
        const answer = (JSON.parse(r.raw_answers ?? r.answers) as Record<string, { type?: string }>)[question];
        const e = expected.get(r.position);
        const p = answer && e !== undefined && answer.type === q.type ? calibrationPoint(q, answer, e as never, r.position) : null;
        return p ? [p] : [];
      });
    return calibrate(points);
  }

  saveCalibration(input: { run_id: string; variant: number; question: string; temperature: number }): SavedCalibration {
    const row = this.row(input.run_id);
    const model = (JSON.parse(row.variants) as EvalVariant[])[input.variant]?.model;
    if (!model) throw new GatewayError('bad_request', `variant: the run has no variant ${input.variant}`);
    const saved = { set_key: row.set_key, model, question: input.question, temperature: input.temperature, created_at: isoTime(this.deps.clock) };
    this.deps.store.run('INSERT OR REPLACE INTO calibrations (set_key, model, question, temperature, created_at) VALUES (?, ?, ?, ?, ?)', [
      saved.set_key,
      saved.model,
      saved.question,
      saved.temperature,
      saved.created_at,
    ]);
    return saved;
  }

  calibrations(): SavedCalibration[] {
    return this.deps.store.all<SavedCalibration>('SELECT * FROM calibrations ORDER BY created_at DESC');
  }

  deleteCalibration(input: { set_key: string; model: string; question: string }): { deleted: number } {
    return {
      deleted: this.deps.store.run('DELETE FROM calibrations WHERE set_key = ? AND model = ? AND question = ?', [input.set_key, input.model, input.question])
        .changes,
    };
  }

  /** Every stored result with its item, one at a time (exports). */
  *rows(id: string): Generator<{ item: { id: string; position: number; expected: Record<string, unknown> }; result: ReturnType<typeof resultView> }> {
    const row = this.row(id);
    const keys = variantKeys(JSON.parse(row.variants) as EvalVariant[]);
    const results = this.results(id);
    let r = 0;
    for (const item of this.deps.datasets.iterate(row.dataset_id)) {
      while (r < results.length && results[r]!.position === item.position)
        yield { item: { id: item.id, position: item.position, expected: item.expected }, result: resultView(results[r++]!, keys) };
    }
  }

  /** Stops work without changing any status: running runs resume at the next start. */
  close(): void {
    this.closing = true;
    clearTimeout(this.matrixRelease);
    this.matrixCache = null;
    for (const runner of this.active.values()) runner.stop('cancelled');
  }
}

/** What a run asked, read from its stored request (its state left out: it may hold images). */
function asked(request: string): { questions: Record<string, unknown>; provider: unknown } {
  const r = JSON.parse(request) as DecisionsRequest;
  return { questions: r.questions as Record<string, unknown>, provider: r.provider ?? null };
}

function summaryOf(answer: unknown): unknown {
  const a = answer as { type?: string; noul?: number; choice?: string; score?: number; probabilities?: Record<string, number>; box?: unknown } | undefined;
  if (!a) return null;
  if (a.type === 'noul') return (a.noul ?? 0) >= 0.5;
  if (a.type === 'choice') return a.choice;
  if (a.type === 'score') return Math.round(a.score ?? 0);
  return a.box ?? null;
}

export function resultView(r: ResultRow, keys: readonly string[]) {
  return {
    model: keys[r.variant] ?? String(r.variant),
    variant: r.variant,
    ok: r.ok === 1,
    answers: JSON.parse(r.answers) as Record<string, unknown>,
    raw_answers: r.raw_answers ? (JSON.parse(r.raw_answers) as Record<string, unknown>) : null,
    methods: r.methods ? (JSON.parse(r.methods) as Record<string, string>) : null,
    attempts: r.attempts ? (JSON.parse(r.attempts) as unknown[]) : null,
    provider: r.provider,
    usage: { input_tokens: r.input_tokens, output_tokens: r.output_tokens, cost: r.cost },
    latency_ms: r.latency_ms,
    error: r.error,
  };
}

function abortableSleep(ms: number, signal: CancelSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Error('aborted'));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new Error('aborted'));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
