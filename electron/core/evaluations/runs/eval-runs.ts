import { randomUUID } from 'node:crypto';
import type { DecisionsRequest } from '../../../../shared/schemas/decisions-request';
import type { EvalRun, EvalVariant, RunEstimate } from '../../../../shared/schemas/evaluation';
import type { Question } from '../../../../shared/schemas/question';
import { isoTime, type Clock } from '../../clock';
import { GatewayError } from '../../errors';
import type { Logger } from '../../logger';
import type { CancelSignal } from '../../cancel';
import type { EvaluationStorage, StoredEvalRun } from '../../store/ports';
import type { Datasets } from '../../datasets/datasets';
import { EvalRunner, MAX_ITEM_TRIES, type EvalDecide, type RunnerEnd } from '../sending/eval-runner';
import { budgetMessage } from '../sending/budget';
import { storedRun } from './stored-run';
import { runExpectation } from '../estimate/refine';
import { setKey, type Calibrations } from '../calibration/calibrations';
import { variantKeys } from '../../../../shared/evaluations/variant-keys';

type RunRow = StoredEvalRun;

/** How long a process may send a run's requests without renewing its lease (renewed every third of it). */
export const RUN_LEASE_MS = 30_000;

/** How long an instance's claim on a spread run's item lasts unrenewed: a dead instance's items are sent by others after it. */
export const CLAIM_LEASE_MS = 20_000;
/** How often claims are renewed (and any instance's pause, cancel, budget stop or Retry-After read). */
export const CLAIM_RENEW_MS = 2_000;
/** How often an instance with nothing to claim of a running spread run looks again. */
export const CLAIM_POLL_MS = 1_000;

/** Evaluation runs: started, paused, resumed after a restart, reported. */
export class EvalRuns {
  private readonly active = new Map<string, EvalRunner>();
  /** Runs resumed while their pause was still letting requests in flight return: launched again as soon as they have. */
  private readonly resumeWhenStopped = new Set<string>();
  private closing = false;
  /** Runs another instance took up while this one sent them (its lease lapsed): stopped here, their status left to it. */
  private readonly lost = new Set<string>();
  /** Renews the leases of the runs this process sends, and takes up runs whose sender's lease ended. */
  private leaseTimer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly deps: {
      storage: EvaluationStorage;
      clock: Clock;
      logger: Logger;
      datasets: Datasets;
      decide: EvalDecide;
      sleep?: (ms: number, signal: CancelSignal) => Promise<void>;
      /**
       * Who this process is among a team's instances (host and data directory): a run is sent by
       * one of them at a time, under a lease; a process restarted as the same one takes its runs
       * back at once, another only once their lease ended.
       */
      owner?: string;
      /**
       * Runs are spread over a team's instances (Postgres): each live instance claims items of every
       * running run and sends them; without it (SQLite, one process) one process sends a run.
       */
      spread?: boolean;
      /** How long a claim lasts unrenewed (default CLAIM_LEASE_MS): how long a dead instance's items wait for the others. */
      claimLeaseMs?: number;
      /** The saved calibrations a run starts with (and a run from before they were recorded applies). */
      calibrations: Pick<Calibrations, 'forRun'>;
    },
  ) {}

  private row(id: string): Promise<RunRow> {
    return storedRun(this.deps.storage.evalRuns, id);
  }

  private async view(row: RunRow): Promise<EvalRun> {
    const variants = row.variants as EvalVariant[];
    const keys = variantKeys(variants);
    const live = this.active.get(row.id);
    // A spread run's counts are every instance's: the store's.
    const own = live && !live.spread ? live : undefined;
    const counts = own ? { done: own.done, failed: own.failed, spent: own.spent } : await this.deps.storage.evalResults.counts(row.id);
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
      ...(await this.expectation(row.id, items * variants.length, estimate)),
    };
  }

  /** The run's expected cost refined from its answered items (refine.ts). */
  private async expectation(id: string, total: number, estimate: RunEstimate | null): Promise<{ expected_usd: number | null; expected_from: number }> {
    return runExpectation(await this.deps.storage.evalResults.answeredByVariant(id), total, estimate);
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
    await this.deps.storage.evalRuns.updateRun(id, { baseline_id: baselineId });
    return this.get(id);
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
    await this.deps.storage.evalRuns.addRun({
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
    await this.launch(await this.row(id));
    return this.get(id);
  }

  /**
   * "dataset × model", or "dataset × 4 models", numbered when another run over the dataset has that
   * name: runs told apart in lists, whatever their number of models.
   */
  private async defaultName(dataset: { id: string; name: string }, variants: readonly EvalVariant[]): Promise<string> {
    const keys = variantKeys(variants);
    const base = `${dataset.name} × ${keys.length === 1 ? keys[0] : `${keys.length} models`}`;
    const taken = new Set(await this.deps.storage.evalRuns.runNames(dataset.id));
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
  async rerun(id: string, positions: readonly number[], variants?: readonly number[]): Promise<EvalRun> {
    const row = await this.row(id);
    if (this.active.has(id) || this.launching.has(id) || row.status === 'running')
      throw new GatewayError('bad_request', 'The run is still sending; pause it or wait until it ends');
    if (row.status === 'cancelled') throw new GatewayError('bad_request', 'The run is cancelled; start a new one');
    const count = row.variants.length;
    const which = variants ?? Array.from({ length: count }, (_, i) => i);
    for (const v of which) if (v >= count) throw new GatewayError('bad_request', `variants: the run has no model at place ${v}`);
    for (const p of positions) await this.deps.datasets.item(row.dataset_id, p);
    await this.launch(row, { positions, variants: which });
    return this.get(id);
  }

  /** Runs being read to start, before their runner is active: a second launch meanwhile is not a second runner. */
  private readonly launching = new Set<string>();

  private get owner(): string {
    return this.deps.owner ?? 'this process';
  }

  /** Takes or renews the lease on a run: whether this process may send its requests. */
  private lease(id: string): Promise<boolean> {
    const now = this.deps.clock.now();
    return this.deps.storage.evalWork.leaseRun(id, this.owner, now, now + RUN_LEASE_MS);
  }

  /** Items of a run still to send: no stored result, or a failure to try again. */
  private async pendingWork(row: RunRow): Promise<{ variant: number; position: number }[]> {
    const [stored, items] = await Promise.all([
      this.deps.storage.evalResults.triesByItem(row.id, MAX_ITEM_TRIES),
      this.deps.datasets.expectations(row.dataset_id),
    ]);
    const work: { variant: number; position: number }[] = [];
    for (const { position } of items)
      for (let variant = 0; variant < row.variants.length; variant += 1) {
        const tries = stored.get(position * 1024 + variant);
        if (tries === undefined || tries > 0) work.push({ variant, position });
      }
    return work;
  }

  private async launch(row: RunRow, only?: { positions: readonly number[]; variants: readonly number[] }, quietly = false): Promise<void> {
    if (this.active.has(row.id) || this.launching.has(row.id) || this.closing) return;
    // Items sent again on purpose (from Boxes) go as before: by this instance alone, under the run's lease.
    if (this.deps.spread && !only) return this.send(row, { spreading: true, quietly });
    this.launching.add(row.id);
    let runner: EvalRunner;
    try {
      if (!(await this.lease(row.id))) {
        if (quietly) return;
        throw new GatewayError(
          'bad_request',
          'The run is being sent by another instance of the server; pause it there, or wait until it ends or that instance stops',
        );
      }
      const variants = row.variants as EvalVariant[];
      // Those fixed when the run started; a run from before they were recorded reads the saved ones.
      const applied = row.calibrations ?? (await this.deps.calibrations.forRun(row.set_key, variants));
      const calibrations = new Map<number, Map<string, number>>(variants.map((_, i) => [i, new Map()]));
      for (const c of applied) calibrations.get(c.variant)?.set(c.question, c.temperature);
      await this.deps.storage.evalRuns.updateRun(row.id, { status: 'running', message: null, finished_at: null });
      runner = await EvalRunner.start(
        {
          id: row.id,
          datasetId: row.dataset_id,
          request: row.request as DecisionsRequest,
          variants,
          concurrency: row.concurrency,
          budgetUsd: row.budget_usd,
          calibrations,
          only,
        },
        {
          storage: this.deps.storage,
          clock: this.deps.clock,
          datasets: this.deps.datasets,
          decide: this.deps.decide,
          sleep: this.deps.sleep ?? abortableSleep,
        },
      );
    } finally {
      this.launching.delete(row.id);
    }
    if (this.closing) {
      runner.stop('cancelled');
      return;
    }
    this.active.set(row.id, runner);
    this.keepLeasing();
    const ended = runner.finished
      .then(async (end: RunnerEnd) => {
        // Resumed while a pause (or its budget) let requests in flight finish: go on at once.
        if ((end === 'paused' || end === 'budget') && this.resumeWhenStopped.delete(row.id) && !this.closing) {
          this.active.delete(row.id);
          await this.launch(await this.row(row.id), undefined, true);
          return;
        }
        // Items sent again leave a paused or stopped run as it was (it still has items to resume), not done.
        if (only && end === 'done' && row.status !== 'done' && row.status !== 'running') await this.finish(row.id, row.status as RunnerEnd, row.message);
        else await this.finish(row.id, end, end === 'budget' ? budgetMessage(row.budget_usd ?? 0, runner.budgetStop) : null);
      })
      .catch(async (error: unknown) => {
        this.deps.logger.error({ err: error, run: row.id }, 'evaluation run failed');
        await this.finish(row.id, 'failed', error instanceof Error ? error.message : String(error)).catch((e: unknown) =>
          this.deps.logger.error({ err: e, run: row.id }, 'evaluation run not marked failed'),
        );
      });
    // Ended once its status is stored (a database answers later than the runner stops).
    this.ending.set(row.id, ended);
    void ended.finally(() => {
      if (this.ending.get(row.id) === ended) this.ending.delete(row.id);
    });
  }

  /**
   * Sends a share of a spread run here. `spreading` (a start or resume): its items still to send are
   * put in its claims first and every instance is told; else it joins a run already spread.
   */
  private async send(row: RunRow, how: { spreading: boolean; quietly: boolean }): Promise<void> {
    if (this.active.has(row.id) || this.launching.has(row.id) || this.closing) return;
    this.launching.add(row.id);
    let runner: EvalRunner;
    try {
      if (how.spreading && !(await this.deps.storage.evalWork.spreadRun(row.id, this.owner, await this.pendingWork(row), this.deps.clock.now()))) {
        if (how.quietly) return;
        throw new GatewayError(
          'bad_request',
          'The run is being sent by another instance of the server; pause it there, or wait until it ends or that instance stops',
        );
      }
      const variants = row.variants as EvalVariant[];
      const applied = row.calibrations ?? (await this.deps.calibrations.forRun(row.set_key, variants));
      const calibrations = new Map<number, Map<string, number>>(variants.map((_, i) => [i, new Map()]));
      for (const c of applied) calibrations.get(c.variant)?.set(c.question, c.temperature);
      runner = await EvalRunner.start(
        {
          id: row.id,
          datasetId: row.dataset_id,
          request: row.request as DecisionsRequest,
          variants,
          concurrency: row.concurrency,
          // As stored now: a resume may have changed it.
          budgetUsd: (await this.row(row.id)).budget_usd,
          calibrations,
        },
        {
          storage: this.deps.storage,
          clock: this.deps.clock,
          datasets: this.deps.datasets,
          decide: this.deps.decide,
          sleep: this.deps.sleep ?? abortableSleep,
          spread: {
            owner: this.owner,
            leaseMs: this.deps.claimLeaseMs ?? CLAIM_LEASE_MS,
            // Renewed ten times a lease at most, every 2 s at most.
            renewMs: Math.min(CLAIM_RENEW_MS, (this.deps.claimLeaseMs ?? CLAIM_LEASE_MS) / 10),
            pollMs: CLAIM_POLL_MS,
          },
        },
      );
    } finally {
      this.launching.delete(row.id);
    }
    if (this.closing) {
      runner.stop('cancelled');
      return;
    }
    this.active.set(row.id, runner);
    this.keepLeasing();
    const ended = runner.finished
      .then(async (end: RunnerEnd) => {
        // The run's status is the store's: set by whoever stored its last item (done), stopped it
        // (budget) or paused or cancelled it, on any instance. Here the claims are given back.
        await this.letGo(row.id);
        if ((end === 'paused' || end === 'budget') && this.resumeWhenStopped.delete(row.id) && !this.closing)
          await this.launch(await this.row(row.id), undefined, true);
      })
      .catch(async (error: unknown) => {
        this.deps.logger.error({ err: error, run: row.id }, 'evaluation run failed');
        const message = error instanceof Error ? error.message : String(error);
        await this.deps.storage.evalWork
          .stopRun(row.id, 'failed', message, isoTime(this.deps.clock))
          .catch((e: unknown) => this.deps.logger.error({ err: e, run: row.id }, 'evaluation run not marked failed'));
        await this.letGo(row.id);
      });
    this.ending.set(row.id, ended);
    void ended.finally(() => {
      if (this.ending.get(row.id) === ended) this.ending.delete(row.id);
    });
  }

  /** A spread run's runner stopped here: its claims given back (others take them at once), no longer active. */
  private async letGo(id: string): Promise<void> {
    try {
      await this.deps.storage.evalWork
        .releaseClaims(id, this.owner)
        .catch((error: unknown) => this.deps.logger.warn({ err: error, run: id }, 'claims not given back'));
    } finally {
      this.active.delete(id);
    }
  }

  /** Joins a running spread run (told by another instance, or found by a look): a share of its items is sent here too. */
  private async join(id: string): Promise<boolean> {
    if (this.active.has(id) || this.launching.has(id) || this.closing) return false;
    const row = await this.deps.storage.evalRuns.getRun(id);
    if (row?.status !== 'running') return false;
    await this.send(row, { spreading: false, quietly: true });
    return this.active.has(id);
  }

  /** Each running run's end, once its status is stored. */
  private readonly ending = new Map<string, Promise<void>>();

  private async finish(id: string, end: RunnerEnd, message: string | null): Promise<void> {
    try {
      if (this.lost.delete(id)) return;
      // Closing the core leaves the run 'running', so the next start (of any instance) resumes it.
      if (!this.closing)
        await this.deps.storage.evalRuns.updateRun(id, { status: end, message, finished_at: end === 'paused' ? null : isoTime(this.deps.clock) });
      await this.deps.storage.evalWork.releaseRun(id, this.owner);
    } finally {
      // Not active only once its status says so: a resume meanwhile does not find it stopped and still 'running'.
      this.active.delete(id);
    }
  }

  /**
   * Restarts runs that were running when their sender stopped (this process before a restart, or
   * another instance whose lease ended); they send only items with no stored result. Then keeps the
   * leases of the runs sent here and looks again for runs to take up, every RUN_LEASE_MS / 3.
   */
  async resumeInterrupted(): Promise<number> {
    if (this.deps.spread && !this.takingUp)
      // A run spread by another instance is joined at once.
      await this.deps.storage.evalWork.onSpread((id) => {
        const joined = id ? this.join(id) : this.takeUpRuns();
        void joined.catch((error: unknown) => this.deps.logger.warn({ err: error, run: id }, 'evaluation run not joined'));
      });
    this.takingUp = true;
    const taken = await this.takeUpRuns();
    this.keepLeasing();
    return taken;
  }

  /** Whether this process takes up runs others left (a server does; the eval command runs only its own). */
  private takingUp = false;

  private keepLeasing(): void {
    if (this.leaseTimer || this.closing) return;
    this.leaseTimer = setInterval(
      () => void this.keepLeases().catch((error: unknown) => this.deps.logger.warn({ err: error }, 'run leases not kept')),
      RUN_LEASE_MS / 3,
    );
    this.leaseTimer.unref();
  }

  private async takeUpRuns(): Promise<number> {
    const rows = await this.deps.storage.evalRuns.listRuns({ limit: 1_000_000, status: 'running' });
    const spread = new Set(this.deps.spread ? await this.deps.storage.evalWork.spreadRuns() : []);
    let taken = 0;
    for (const row of rows) {
      if (this.active.has(row.id)) continue;
      // Spread: joined as it is. Not yet (sent alone by an instance that stopped, or by an earlier version): spread now.
      if (spread.has(row.id)) await this.join(row.id);
      else await this.launch(row, undefined, true);
      if (this.active.has(row.id)) taken += 1;
    }
    return taken;
  }

  /** Renews this process's leases (a run whose lease another took is stopped here) and takes up orphaned runs. */
  private async keepLeases(): Promise<void> {
    for (const [id, runner] of this.active) {
      // A spread run's claims are renewed by its runner.
      if (runner.spread || (await this.lease(id))) continue;
      this.deps.logger.warn({ run: id }, 'evaluation run taken up by another instance; stopped here');
      this.lost.add(id);
      runner.stop('cancelled');
    }
    if (this.takingUp && !this.closing) await this.takeUpRuns();
  }

  async get(id: string): Promise<EvalRun> {
    return this.view(await this.row(id));
  }

  async list(): Promise<EvalRun[]> {
    return Promise.all((await this.deps.storage.evalRuns.listRuns({ limit: 200 })).map((r) => this.view(r)));
  }

  async pause(id: string): Promise<EvalRun> {
    const runner = this.active.get(id);
    this.resumeWhenStopped.delete(id);
    if (this.deps.spread && !runner?.stoppingFor) {
      // Every instance sending it stops at its next renewal, letting its requests in flight finish.
      runner?.stop('paused');
      await this.deps.storage.evalWork.stopRun(id, 'paused', null, null);
    } else if (runner) {
      runner.stop('paused');
      await this.deps.storage.evalRuns.updateRun(id, { status: 'paused' });
    }
    return this.get(id);
  }

  /** Failed items a resume would send again: not refused as malformed, and sent fewer than MAX_ITEM_TRIES times. */
  private retryable(id: string): Promise<number> {
    return this.deps.storage.evalResults.retryableCount(id, MAX_ITEM_TRIES);
  }

  /** Goes on with the items that have no result, and sends failed items again (a finished run too, when it has some). */
  async resume(id: string, budget?: number | null): Promise<EvalRun> {
    const row = await this.row(id);
    if (row.status === 'cancelled') throw new GatewayError('bad_request', 'The run is cancelled; start a new one');
    if (row.status === 'done' && (await this.retryable(id)) === 0)
      throw new GatewayError('bad_request', 'The run is done and has no failed item to try again; start a new one');
    if (budget !== undefined) await this.deps.storage.evalRuns.updateRun(id, { budget_usd: budget });
    const runner = this.active.get(id);
    if (!runner) await this.launch(await this.row(id));
    else if (runner.stoppingFor === 'paused' || runner.stoppingFor === 'budget') {
      // Stopping, with requests still in flight: a resume now is not dropped; the run goes on once they return.
      this.resumeWhenStopped.add(id);
      await this.deps.storage.evalRuns.updateRun(id, { status: 'running', message: null });
    }
    return this.get(id);
  }

  async cancel(id: string): Promise<EvalRun> {
    const row = await this.row(id);
    this.resumeWhenStopped.delete(id);
    const runner = this.active.get(id);
    if (runner?.spread) {
      // Every instance sending it stops at its next renewal, its requests in flight cut off.
      runner.stop('cancelled');
      if (row.status !== 'done') await this.deps.storage.evalRuns.updateRun(id, { status: 'cancelled', message: null, finished_at: isoTime(this.deps.clock) });
    } else if (runner) runner.stop('cancelled');
    else if (row.status !== 'done') await this.finish(id, 'cancelled', null);
    return this.get(id);
  }

  async delete(id: string): Promise<{ id: string }> {
    await this.cancel(id);
    await this.deps.storage.evalRuns.removeRun(id);
    return { id };
  }

  /** Resolves with the final status once the run stops (at once when it is not running here). */
  async wait(id: string): Promise<EvalRun> {
    await this.ending.get(id)?.catch(() => undefined);
    return this.get(id);
  }

  /**
   * Stops work without changing any status: running runs resume at the next start (or, spread, go
   * on at the other instances, which take this one's claims at once). Resolves once they stopped.
   */
  async close(): Promise<void> {
    this.closing = true;
    clearInterval(this.leaseTimer);
    for (const runner of this.active.values()) runner.stop('cancelled');
    await Promise.all([...this.ending.values()].map((e) => e.catch(() => undefined)));
  }
}

/** What a run asked, read from its stored request (its state left out: it may hold images). */
function asked(request: unknown): { questions: Record<string, unknown>; provider: unknown } {
  const r = request as DecisionsRequest;
  return { questions: r.questions as Record<string, unknown>, provider: r.provider ?? null };
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
