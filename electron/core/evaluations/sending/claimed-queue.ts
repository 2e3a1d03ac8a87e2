/**
 * A team's instances send each running run together (Postgres): starting or resuming a run spreads
 * its items still to send into claims, and tells every instance; each claims one item per free
 * request slot, renews its claims while it sends them, and holds each request's worst case against
 * the run's budget in the store, beside every instance's spend and holds. A pause, a cancel, a stop
 * by the budget or a Retry-After seen by any instance is read by all at their next renewal. The only
 * place that knows about spreading a run; items sent again on purpose go through the `LocalQueue`.
 */
import { isoTime, type Clock } from '../../clock';
import { GatewayError } from '../../errors';
import type { Logger } from '../../logger';
import type { Datasets } from '../../datasets/datasets';
import type { EvalResultStorage } from '../results/storage';
import type { EvalRunStorage, StoredEvalRun } from '../runs/storage';
import { storedRun } from '../runs/stored-run';
import { budgetMessage, worstCaseOf } from './budget';
import { MAX_ITEM_TRIES, type EvalRunner, type RunnerEnd } from './eval-runner';
import type { LocalQueue } from './local-queue';
import type { EvalRunPace, EvalWork, EvalWorkStorage } from './storage';
import { BudgetReached, ItemLost, WaitForRoom, type RunWork, type SenderHooks, type Take, type Task, type WorkSource } from './work-source';

/** How long an instance's claim on a spread run's item lasts unrenewed: a dead instance's items are sent by others after it. */
export const CLAIM_LEASE_MS = 20_000;
/** How often claims are renewed (and any instance's pause, cancel, budget stop or Retry-After read). */
export const CLAIM_RENEW_MS = 2_000;
/** How often an instance with nothing to claim of a running spread run looks again. */
export const CLAIM_POLL_MS = 1_000;

export interface ClaimedQueueDeps {
  runs: EvalRunStorage;
  results: Pick<EvalResultStorage, 'triesByItem'>;
  work: EvalWorkStorage;
  datasets: Datasets;
  clock: Clock;
  logger: Logger;
  /** Who this process is among the team's instances. */
  owner: string;
  /** How long a claim lasts unrenewed (default CLAIM_LEASE_MS): how long a dead instance's items wait for the others. */
  claimLeaseMs?: number | undefined;
  /** Items sent again on purpose (from Boxes) go as before: by this instance alone, under the run's lease. */
  local: LocalQueue;
}

/** How a spread run's claims are kept: lease, renewal and poll (ms). */
interface Pace {
  leaseMs: number;
  renewMs: number;
  pollMs: number;
}

export class ClaimedQueue implements WorkSource {
  readonly keepEveryMs: number;
  private readonly pace: Pace;

  constructor(private readonly deps: ClaimedQueueDeps) {
    this.keepEveryMs = deps.local.keepEveryMs;
    const leaseMs = deps.claimLeaseMs ?? CLAIM_LEASE_MS;
    // Renewed ten times a lease at most, every 2 s at most.
    this.pace = { leaseMs, renewMs: Math.min(CLAIM_RENEW_MS, leaseMs / 10), pollMs: CLAIM_POLL_MS };
  }

  /**
   * A start or resume spreads the run's items still to send into its claims first and tells every
   * instance; a run already spread is joined as it is.
   */
  async take(row: StoredEvalRun, how: Take, hooks: SenderHooks): Promise<RunWork | null> {
    if (how.only) return this.deps.local.take(row, how, hooks);
    const { work, owner, clock } = this.deps;
    if (!how.joining && !(await work.spreadRun(row.id, owner, await this.pendingWork(row), clock.now()))) {
      if (how.quietly) return null;
      throw new GatewayError(
        'bad_request',
        'The run is being sent by another instance of the server; pause it there, or wait until it ends or that instance stops',
      );
    }
    return new ClaimedRun(this.deps, this.pace, hooks, row);
  }

  /** Every instance sending it stops at its next renewal, letting its requests in flight finish. */
  async pause(id: string, hooks: SenderHooks): Promise<void> {
    const runner = hooks.runner(id);
    if (runner?.stoppingFor) return this.deps.local.pause(id, hooks);
    runner?.stop('paused');
    await this.deps.work.stopRun(id, 'paused', null, null);
  }

  /** Every instance sending it stops at its next renewal, its requests in flight cut off. */
  async cancel(row: StoredEvalRun, hooks: SenderHooks): Promise<void> {
    const runner = hooks.runner(row.id);
    if (!(runner?.work instanceof ClaimedRun)) return this.deps.local.cancel(row, hooks);
    runner.stop('cancelled');
    if (row.status !== 'done') await this.deps.runs.updateRun(row.id, { status: 'cancelled', message: null, finished_at: isoTime(this.deps.clock) });
  }

  /** A spread run's claims are renewed by its own runs; the leases of items sent again here are renewed as one process's. */
  keep(hooks: SenderHooks): Promise<void> {
    return this.deps.local.keep(hooks);
  }

  /** A run spread by another instance is joined at once; a lost connection looks at every running run again. */
  async listen(hooks: SenderHooks): Promise<void> {
    await this.deps.work.onSpread((id) => {
      const joined = id ? this.join(id, hooks) : this.takeUp(hooks);
      void joined.catch((error: unknown) => this.deps.logger.warn({ err: error, run: id }, 'evaluation run not joined'));
    });
  }

  async takeUp(hooks: SenderHooks): Promise<number> {
    const rows = await this.deps.runs.listRuns({ limit: 1_000_000, status: 'running' });
    const spread = new Set(await this.deps.work.spreadRuns());
    let taken = 0;
    for (const row of rows) {
      if (hooks.runner(row.id)) continue;
      // Spread: joined as it is. Not yet (sent alone by an instance that stopped, or by an earlier version): spread now.
      if (spread.has(row.id)) await this.join(row.id, hooks);
      else await hooks.launch(row, { quietly: true });
      if (hooks.runner(row.id)) taken += 1;
    }
    return taken;
  }

  /** Joins a running spread run (told by another instance, or found by a look): a share of its items is sent here too. */
  private async join(id: string, hooks: SenderHooks): Promise<boolean> {
    if (hooks.busy(id) || hooks.closing) return false;
    const row = await this.deps.runs.getRun(id);
    if (row?.status !== 'running') return false;
    await hooks.launch(row, { quietly: true, joining: true });
    return hooks.runner(id) !== undefined;
  }

  /** Items of a run still to send: no stored result, or a failure to try again. */
  private async pendingWork(row: StoredEvalRun): Promise<EvalWork[]> {
    const [stored, items] = await Promise.all([this.deps.results.triesByItem(row.id, MAX_ITEM_TRIES), this.deps.datasets.expectations(row.dataset_id)]);
    const work: EvalWork[] = [];
    for (const { position } of items)
      for (let variant = 0; variant < row.variants.length; variant += 1) {
        const tries = stored.get(position * 1024 + variant);
        if (tries === undefined || tries > 0) work.push({ variant, position });
      }
    return work;
  }
}

/** This instance's share of a spread run: its items claimed one at a time, its budget and status read from the store. */
class ClaimedRun implements RunWork {
  readonly whole = false;
  readonly roomPollMs: number;
  private renewTimer: ReturnType<typeof setInterval> | undefined;
  /** The budget's stop, being stored for every instance to see. */
  private budgetWrite: Promise<unknown> = Promise.resolve();
  private budgetUsd: number | null = null;

  constructor(
    private readonly deps: ClaimedQueueDeps,
    private readonly pace: Pace,
    private readonly hooks: SenderHooks,
    private readonly row: StoredEvalRun,
  ) {
    this.roomPollMs = pace.pollMs;
  }

  /** As stored now: a resume may have changed it. */
  async begin(): Promise<number | null> {
    this.budgetUsd = (await storedRun(this.deps.runs, this.row.id)).budget_usd;
    return this.budgetUsd;
  }

  /**
   * Claimed one at a time (claimed is in flight: a dead instance leaves no more than its requests in
   * flight to send again). With nothing to claim, the run is marked done when no claim is left
   * anywhere; else looked at again every pollMs, until its status changes.
   */
  async *tasks(runner: EvalRunner): AsyncGenerator<Task> {
    const { work, clock, datasets, owner } = this.deps;
    const id = this.row.id;
    for (;;) {
      if (runner.stoppingFor) return;
      const now = clock.now();
      const [claimed] = await work.claimWork(id, owner, now, now + this.pace.leaseMs, 1);
      if (claimed) {
        const item = await datasets.item(this.row.dataset_id, claimed.position);
        yield { position: claimed.position, variant: claimed.variant, state: item.state, tries: 0 };
        continue;
      }
      if (runner.inFlight === 0 && (await work.finishIfDrained(id, isoTime(clock), now))) return;
      const pace = await work.renewClaims(id, owner, clock.now() + this.pace.leaseMs);
      if (this.follow(runner, pace)) return;
      await runner.waitForChange(this.pace.pollMs);
    }
  }

  /**
   * The request's claim still this instance's, and its worst case held against the run's budget
   * beside every instance's stored costs and holds (the store's row lock orders them). Past the
   * budget even with nothing held, the run stops for every instance.
   */
  async admit(runner: EvalRunner, task: Task, maxCost: () => number): Promise<void> {
    // Without a budget nothing is held (a lapsed claim is then found out when its result is stored, at most once).
    if (this.budgetUsd === null) return;
    const worstCase = worstCaseOf(maxCost);
    const answer = await this.deps.work.reserveBudget(this.row.id, this.deps.owner, { variant: task.variant, position: task.position }, worstCase);
    if (answer.reserved) return;
    if (answer.reason === 'lost') throw new ItemLost('claimed by another instance');
    if (answer.reason === 'held') throw new WaitForRoom('waiting for requests in flight');
    if (runner.budgetStopped({ spent: answer.spent, worstCase }))
      this.budgetWrite = this.deps.work
        .stopRun(this.row.id, 'budget', budgetMessage(answer.budget, runner.budgetStop), isoTime(this.deps.clock))
        .catch(() => undefined);
    throw new BudgetReached('the budget would be exceeded');
  }

  /** The store holds the budget: nothing to give back here. */
  settle(): void {}

  holdOff(notBefore: number): Promise<void> {
    return this.deps.work.waitUntil(this.row.id, notBefore).catch(() => undefined);
  }

  opened(runner: EvalRunner): void {
    this.renewTimer = setInterval(() => {
      void this.deps.work
        .renewClaims(this.row.id, this.deps.owner, this.deps.clock.now() + this.pace.leaseMs)
        .then((pace) => this.follow(runner, pace))
        // Not renewed this time: the next renewal comes long before the lease ends.
        .catch(() => undefined);
    }, this.pace.renewMs);
    this.renewTimer.unref();
  }

  async closed(): Promise<void> {
    clearInterval(this.renewTimer);
    await this.budgetWrite;
  }

  /** Takes what the store says of the run (any instance's pause, cancel, budget, Retry-After); whether it stopped here. */
  private follow(runner: EvalRunner, pace: EvalRunPace | undefined): boolean {
    if (!pace) {
      runner.stop('cancelled');
      return true;
    }
    if (pace.not_before !== null) runner.holdUntil(pace.not_before);
    if (pace.status === 'running') return false;
    if (pace.status === 'cancelled') runner.stop('cancelled');
    // Paused, stopped by the budget or failed elsewhere: requests in flight here finish and are stored.
    else if (pace.status !== 'done') runner.halt(pace.status);
    return true;
  }

  /**
   * The run's status is the store's: set by whoever stored its last item (done), stopped it
   * (budget) or paused or cancelled it, on any instance. Here the claims are given back.
   */
  async ended(_runner: EvalRunner, end: RunnerEnd): Promise<void> {
    await this.letGo();
    if (this.hooks.resumeWanted(this.row.id, end)) await this.hooks.launch(await storedRun(this.deps.runs, this.row.id), { quietly: true });
  }

  async failed(error: unknown): Promise<void> {
    const id = this.row.id;
    this.deps.logger.error({ err: error, run: id }, 'evaluation run failed');
    const message = error instanceof Error ? error.message : String(error);
    await this.deps.work
      .stopRun(id, 'failed', message, isoTime(this.deps.clock))
      .catch((e: unknown) => this.deps.logger.error({ err: e, run: id }, 'evaluation run not marked failed'));
    await this.letGo();
  }

  /** Claims given back (others take them at once), no longer active. */
  private async letGo(): Promise<void> {
    const id = this.row.id;
    try {
      await this.deps.work
        .releaseClaims(id, this.deps.owner)
        .catch((error: unknown) => this.deps.logger.warn({ err: error, run: id }, 'claims not given back'));
    } finally {
      this.hooks.forget(id);
    }
  }
}
