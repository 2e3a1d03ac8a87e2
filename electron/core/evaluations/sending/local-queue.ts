/**
 * One process sends a run, under the run's lease: the items with no stored result (or a failure to
 * try again) in dataset order, the budget held in this process. On SQLite every run is sent so; a
 * team's instances send items again from Boxes so, one instance at a time.
 */
import { isoTime, type Clock } from '../../clock';
import { GatewayError } from '../../errors';
import type { Logger } from '../../logger';
import type { Datasets } from '../../datasets/datasets';
import type { EvalRunStorage, StoredEvalRun } from '../runs/storage';
import { storedRun } from '../runs/stored-run';
import { budgetMessage, worstCaseOf } from './budget';
import type { EvalRunner, RunnerEnd } from './eval-runner';
import type { EvalWorkStorage } from './storage';
import { BudgetReached, WaitForRoom, type Only, type RunWork, type SenderHooks, type Take, type Task, type WorkSource } from './work-source';

/** How long a process may send a run's requests without renewing its lease (renewed every third of it). */
export const RUN_LEASE_MS = 30_000;

export interface LocalQueueDeps {
  runs: EvalRunStorage;
  work: Pick<EvalWorkStorage, 'leaseRun' | 'releaseRun'>;
  datasets: Datasets;
  clock: Clock;
  logger: Logger;
  /** Who this process is among a team's instances (host and data directory): a process restarted as the same one takes its runs back at once. */
  owner: string;
}

export class LocalQueue implements WorkSource {
  readonly keepEveryMs = RUN_LEASE_MS / 3;
  /** Runs another instance took up while this one sent them (its lease lapsed): stopped here, their status left to it. */
  private readonly lost = new Set<string>();

  constructor(private readonly deps: LocalQueueDeps) {}

  async take(row: StoredEvalRun, how: Take, hooks: SenderHooks): Promise<RunWork | null> {
    if (!(await this.lease(row.id))) {
      if (how.quietly) return null;
      throw new GatewayError(
        'bad_request',
        'The run is being sent by another instance of the server; pause it there, or wait until it ends or that instance stops',
      );
    }
    return new LocalRun(this, this.deps, hooks, row, how.only);
  }

  async pause(id: string, hooks: SenderHooks): Promise<void> {
    const runner = hooks.runner(id);
    if (!runner) return;
    runner.stop('paused');
    await this.deps.runs.updateRun(id, { status: 'paused' });
  }

  async cancel(row: StoredEvalRun, hooks: SenderHooks): Promise<void> {
    const runner = hooks.runner(row.id);
    if (runner) runner.stop('cancelled');
    else if (row.status !== 'done') await this.finish(row.id, 'cancelled', null, hooks);
  }

  /** Renews this process's leases; a run whose lease another took is stopped here. */
  async keep(hooks: SenderHooks): Promise<void> {
    for (const [id, runner] of hooks.runners()) {
      if (!(runner.work instanceof LocalRun) || (await this.lease(id))) continue;
      this.deps.logger.warn({ run: id }, 'evaluation run taken up by another instance; stopped here');
      this.lost.add(id);
      runner.stop('cancelled');
    }
  }

  async takeUp(hooks: SenderHooks): Promise<number> {
    const rows = await this.deps.runs.listRuns({ limit: 1_000_000, status: 'running' });
    let taken = 0;
    for (const row of rows) {
      if (hooks.runner(row.id)) continue;
      await hooks.launch(row, { quietly: true });
      if (hooks.runner(row.id)) taken += 1;
    }
    return taken;
  }

  /** Takes or renews the lease on a run: whether this process may send its requests. */
  private lease(id: string): Promise<boolean> {
    const now = this.deps.clock.now();
    return this.deps.work.leaseRun(id, this.deps.owner, now, now + RUN_LEASE_MS);
  }

  /** The run's status stored as its runner ended here, and its lease given back. */
  async finish(id: string, end: RunnerEnd, message: string | null, hooks: SenderHooks): Promise<void> {
    try {
      if (this.lost.delete(id)) return;
      // Closing the core leaves the run 'running', so the next start (of any instance) resumes it.
      if (!hooks.closing) await this.deps.runs.updateRun(id, { status: end, message, finished_at: end === 'paused' ? null : isoTime(this.deps.clock) });
      await this.deps.work.releaseRun(id, this.deps.owner);
    } finally {
      // Not active only once its status says so: a resume meanwhile does not find it stopped and still 'running'.
      hooks.forget(id);
    }
  }
}

/** One run sent here alone: its items in dataset order, its budget held here. */
class LocalRun implements RunWork {
  readonly whole = true;
  readonly roomPollMs = null;
  /** USD the requests in flight hold, each request's share by `position * 1024 + variant`. */
  private reserved = 0;
  private readonly held = new Map<number, number>();
  private readonly budgetUsd: number | null;

  constructor(
    private readonly queue: LocalQueue,
    private readonly deps: LocalQueueDeps,
    private readonly hooks: SenderHooks,
    private readonly row: StoredEvalRun,
    private readonly only: Only | undefined,
  ) {
    this.budgetUsd = row.budget_usd;
  }

  async begin(): Promise<number | null> {
    await this.deps.runs.updateRun(this.row.id, { status: 'running', message: null, finished_at: null });
    return this.budgetUsd;
  }

  /** Items with no stored result, and stored failures that may be sent again; never a stored answer (unless `only` says so). */
  async *tasks(runner: EvalRunner): AsyncGenerator<Task> {
    const only = this.only;
    const datasetId = this.row.dataset_id;
    const datasets = this.deps.datasets;
    const items = only
      ? (async function* () {
          for (const p of only.positions) yield await datasets.item(datasetId, p);
        })()
      : datasets.iterate(datasetId);
    for await (const item of items) {
      for (let variant = 0; variant < this.row.variants.length; variant += 1) {
        if (only) {
          if (only.variants.includes(variant)) yield { position: item.position, variant, state: item.state, tries: 0 };
          continue;
        }
        const tries = runner.tries.get(item.position * 1024 + variant);
        if (tries === undefined || tries > 0) yield { position: item.position, variant, state: item.state, tries: tries ?? 0 };
      }
    }
    runner.tries.clear();
  }

  admit(runner: EvalRunner, task: Task, maxCost: () => number): void {
    if (this.budgetUsd === null) return;
    const worstCase = worstCaseOf(maxCost);
    // Past the budget even if nothing else were spent: the run stops here.
    if (runner.spent + worstCase > this.budgetUsd) {
      runner.budgetStopped({ spent: runner.spent, worstCase });
      throw new BudgetReached('the budget would be exceeded');
    }
    // Past it only with what requests in flight hold: they usually cost less, so wait for them.
    if (runner.spent + this.reserved + worstCase > this.budgetUsd) throw new WaitForRoom('waiting for requests in flight');
    this.held.set(task.position * 1024 + task.variant, worstCase);
    this.reserved += worstCase;
  }

  /** Gives back what a request held, and lets requests waiting for room try again. */
  settle(runner: EvalRunner, task: Task): void {
    const key = task.position * 1024 + task.variant;
    const amount = this.held.get(key) ?? 0;
    this.held.delete(key);
    if (amount === 0) return;
    this.reserved -= amount;
    runner.roomMade();
  }

  holdOff(): void {}

  opened(): void {}

  async closed(): Promise<void> {}

  async ended(runner: EvalRunner, end: RunnerEnd): Promise<void> {
    const { row, only, hooks } = this;
    // Resumed while a pause (or its budget) let requests in flight finish: go on at once.
    if (hooks.resumeWanted(row.id, end)) {
      hooks.forget(row.id);
      await hooks.launch(await storedRun(this.deps.runs, row.id), { quietly: true });
      return;
    }
    // Items sent again leave a paused or stopped run as it was (it still has items to resume), not done.
    if (only && end === 'done' && row.status !== 'done' && row.status !== 'running')
      await this.queue.finish(row.id, row.status as RunnerEnd, row.message, hooks);
    else await this.queue.finish(row.id, end, end === 'budget' ? budgetMessage(row.budget_usd ?? 0, runner.budgetStop) : null, hooks);
  }

  async failed(error: unknown): Promise<void> {
    const id = this.row.id;
    this.deps.logger.error({ err: error, run: id }, 'evaluation run failed');
    await this.queue
      .finish(id, 'failed', error instanceof Error ? error.message : String(error), this.hooks)
      .catch((e: unknown) => this.deps.logger.error({ err: e, run: id }, 'evaluation run not marked failed'));
  }
}
