/**
 * evaluations/runs/: the run book. Owns a run's life (start, pause, resume, cancel, send some items
 * again, delete) and its view with progress, over `EvalRunStorage` (storage.ts, which with
 * stored-run.ts is all the other parts read of a run). May import shared/, the clock, errors and
 * datasets, and the parts it drives: sending/ (RunSender), results/ (counts for the view),
 * calibration/ (what a run starts with) and estimate/refine.ts. Nothing in evaluations/ imports it.
 */
import { randomUUID } from 'node:crypto';
import type { DecisionsRequest } from '../../../../shared/schemas/decisions-request';
import type { EvalRun, EvalVariant, RunEstimate } from '../../../../shared/schemas/evaluation';
import type { Question } from '../../../../shared/schemas/question';
import { variantKeys } from '../../../../shared/evaluations/variant-keys';
import { isoTime, type Clock } from '../../clock';
import { GatewayError } from '../../errors';
import type { Datasets } from '../../datasets/datasets';
import { setKey, type Calibrations } from '../calibration/calibrations';
import { runExpectation } from '../estimate/refine';
import type { EvalResults } from '../results/eval-results';
import { MAX_ITEM_TRIES } from '../sending/eval-runner';
import type { RunSender } from '../sending/run-sender';
import type { EvalWorkStorage, NewEvalFailure, NewEvalResult } from '../sending/storage';
import type { EvalRunStorage, StoredEvalRun } from './storage';
import { storedRun } from './stored-run';

export interface EvalRunBookDeps {
  runs: EvalRunStorage;
  /** Counts, failures to retry and answered items, for each run's progress and refined cost. */
  results: Pick<EvalResults, 'counts' | 'retryableCount' | 'answeredByVariant'>;
  sender: RunSender;
  /** Where a run made elsewhere puts its results (`addFinished`). */
  work: Pick<EvalWorkStorage, 'putAnswer' | 'putFailure'>;
  calibrations: Pick<Calibrations, 'forRun'>;
  datasets: Datasets;
  clock: Clock;
}

/** One result of a run made elsewhere: an answer, or a failure. */
export type FinishedResult = { answer: NewEvalResult } | { failure: NewEvalFailure };

/** Evaluation runs: started, paused, resumed (after a restart too), cancelled, sent again in part, and shown with their progress. */
export class EvalRunBook {
  constructor(private readonly deps: EvalRunBookDeps) {}

  private row(id: string): Promise<StoredEvalRun> {
    return storedRun(this.deps.runs, id);
  }

  async get(id: string): Promise<EvalRun> {
    return this.view(await this.row(id));
  }

  async list(): Promise<EvalRun[]> {
    return Promise.all((await this.deps.runs.listRuns({ limit: 200 })).map((r) => this.view(r)));
  }

  private async view(row: StoredEvalRun): Promise<EvalRun> {
    const variants = row.variants as EvalVariant[];
    const keys = variantKeys(variants);
    const live = this.deps.sender.runner(row.id);
    // A run a team's instances send has every instance's counts: the store's.
    const own = live?.whole ? live : undefined;
    const counts = own ? { done: own.done, failed: own.failed, spent: own.spent } : await this.deps.results.counts(row.id);
    // A run goes with its dataset: one deleted meanwhile has no items left.
    const items = await this.deps.datasets.itemCount(row.dataset_id).catch(() => 0);
    const estimate = row.estimate === null ? null : (row.estimate as RunEstimate);
    return {
      id: row.id,
      name: row.name,
      dataset_id: row.dataset_id,
      set_key: row.set_key,
      variants: variants.map((v, i) => ({ name: keys[i]!, model: v.model, label: v.label ?? null, cascade: v.cascade ?? null })),
      status: row.status,
      concurrency: row.concurrency,
      budget_usd: row.budget_usd,
      total: items * variants.length,
      done: counts.done,
      failed: counts.failed,
      retryable: own ? own.retryable : await this.retryable(row.id),
      spent_usd: counts.spent,
      eta_ms: live?.eta() ?? null,
      in_flight: live?.inFlight ?? 0,
      waiting_ms: live?.waiting() ?? null,
      created_at: row.created_at,
      finished_at: row.finished_at,
      message: row.message,
      calibrations: row.calibrations,
      ...asked(row.request),
      baseline_id: row.baseline_id,
      estimate,
      ...runExpectation(await this.deps.results.answeredByVariant(row.id), { items, variants: variants.length, spent: counts.spent }, estimate),
    };
  }

  /** Failed items a resume would send again: not refused as malformed, and sent fewer than MAX_ITEM_TRIES times. */
  private retryable(id: string): Promise<number> {
    return this.deps.results.retryableCount(id, MAX_ITEM_TRIES);
  }

  /** `estimate` is what the estimate said at the start, kept to be shown against what the run cost. */
  async start(input: {
    name?: string | undefined;
    request: DecisionsRequest;
    dataset_id: string;
    variants: EvalVariant[];
    concurrency: number;
    budget_usd?: number | null | undefined;
    estimate?: RunEstimate | null;
  }): Promise<EvalRun> {
    const dataset = await this.deps.datasets.get(input.dataset_id);
    if (input.variants.length === 0) throw new GatewayError('bad_request', 'variants: name at least one model');
    await this.deps.datasets.assertFits(dataset.id, input.request.questions as Record<string, Question>);
    const id = `eval-${randomUUID()}`;
    const name = input.name ?? (await this.defaultName(dataset, input.variants));
    const set = setKey(input.request.questions);
    await this.deps.runs.addRun({
      id,
      name,
      dataset_id: dataset.id,
      set_key: set,
      request: input.request,
      variants: input.variants,
      concurrency: input.concurrency,
      budget_usd: input.budget_usd ?? null,
      status: 'running',
      message: null,
      created_at: isoTime(this.deps.clock),
      finished_at: null,
      calibrations: await this.deps.calibrations.forRun(set, input.variants),
      baseline_id: null,
      estimate: input.estimate ?? null,
    });
    await this.deps.sender.launch(await this.row(id), { quietly: false });
    return this.get(id);
  }

  /**
   * "dataset × model", or "dataset × 4 models", numbered when another run over the dataset has that
   * name: runs told apart in lists, whatever their number of models.
   */
  private async defaultName(dataset: { id: string; name: string }, variants: readonly EvalVariant[]): Promise<string> {
    const keys = variantKeys(variants);
    const base = `${dataset.name} × ${keys.length === 1 ? keys[0] : `${keys.length} models`}`;
    const taken = new Set(await this.deps.runs.runNames(dataset.id));
    if (!taken.has(base)) return base;
    let n = 2;
    while (taken.has(`${base}, run ${n}`)) n += 1;
    return `${base}, run ${n}`;
  }

  /** Compares this run with an earlier one over the same dataset (null clears it). */
  async setBaseline(id: string, baselineId: string | null): Promise<EvalRun> {
    const row = await this.row(id);
    if (baselineId !== null) {
      const base = await this.row(baselineId);
      if (base.id === row.id) throw new GatewayError('bad_request', 'baseline_id: a run cannot be its own baseline');
      if (base.dataset_id !== row.dataset_id)
        throw new GatewayError(
          'bad_request',
          `baseline_id: the run "${base.name}" is over another dataset than "${row.name}"; a baseline must be over the same items`,
        );
    }
    await this.deps.runs.updateRun(id, { baseline_id: baselineId });
    return this.get(id);
  }

  /**
   * Sends some items of a stopped run again (their stored results, answers or failures, are replaced
   * as they come back): one image run again from Boxes goes through the run's own questions, models,
   * calibrations and budget, and its answer lands where the run's results are read.
   */
  async rerun(id: string, positions: readonly number[], variants?: readonly number[]): Promise<EvalRun> {
    const row = await this.row(id);
    if (this.deps.sender.busy(id) || row.status === 'running')
      throw new GatewayError('bad_request', 'The run is still sending; pause it or wait until it ends');
    if (row.status === 'cancelled') throw new GatewayError('bad_request', 'The run is cancelled; start a new one');
    const count = row.variants.length;
    const which = variants ?? Array.from({ length: count }, (_, i) => i);
    for (const v of which) if (v >= count) throw new GatewayError('bad_request', `variants: the run has no model at place ${v}`);
    for (const p of positions) await this.deps.datasets.item(row.dataset_id, p);
    await this.deps.sender.launch(row, { only: { positions, variants: which }, quietly: false });
    return this.get(id);
  }

  async pause(id: string): Promise<EvalRun> {
    await this.deps.sender.pause(id);
    return this.get(id);
  }

  /** Goes on with the items that have no result, and sends failed items again (a finished run too, when it has some). */
  async resume(id: string, budget?: number | null): Promise<EvalRun> {
    const row = await this.row(id);
    if (row.status === 'cancelled') throw new GatewayError('bad_request', 'The run is cancelled; start a new one');
    if (row.status === 'done' && (await this.retryable(id)) === 0)
      throw new GatewayError('bad_request', 'The run is done and has no failed item to try again; start a new one');
    if (budget !== undefined) await this.deps.runs.updateRun(id, { budget_usd: budget });
    await this.deps.sender.resume(id);
    return this.get(id);
  }

  async cancel(id: string): Promise<EvalRun> {
    await this.deps.sender.cancel(await this.row(id));
    return this.get(id);
  }

  async delete(id: string): Promise<{ id: string }> {
    await this.cancel(id);
    await this.deps.runs.removeRun(id);
    return { id };
  }

  /** Resolves with the final status once the run stops (at once when it is not running here). */
  async wait(id: string): Promise<EvalRun> {
    await this.deps.sender.wait(id);
    return this.get(id);
  }

  /**
   * A run made elsewhere (the eval command's baseline from a results file), stored as it is with its
   * results in their order; nothing is sent.
   */
  async addFinished(run: StoredEvalRun, results: Iterable<FinishedResult>): Promise<void> {
    await this.deps.runs.addRun(run);
    for (const r of results) {
      if ('answer' in r) await this.deps.work.putAnswer(run.id, r.answer, { replace: false });
      else await this.deps.work.putFailure(run.id, r.failure);
    }
  }

  /** Takes up runs that were running when their sender stopped, and keeps doing so (RunSender). */
  resumeInterrupted(): Promise<number> {
    return this.deps.sender.resumeInterrupted();
  }
}

/** What a run asked, read from its stored request (its state left out: it may hold images). */
function asked(request: unknown): { questions: Record<string, unknown>; provider: unknown } {
  const r = request as DecisionsRequest;
  return { questions: r.questions as Record<string, unknown>, provider: r.provider ?? null };
}
