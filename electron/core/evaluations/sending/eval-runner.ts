/**
 * One evaluation run's background work: items × variants sent with bounded concurrency, each
 * result committed to SQLite as it arrives (so a killed process resumes with only the items
 * that have none), 429s waited out as Retry-After says, a budget that stops the run before a
 * call could pass it.
 */
import type { Cascade } from '../../../../shared/schemas/cascade';
import type { DecisionsRequest } from '../../../../shared/schemas/decisions-request';
import type { DecisionsResponse } from '../../../../shared/schemas/decisions-response';
import type { EvalVariant } from '../../../../shared/schemas/evaluation';
import type { Question } from '../../../../shared/schemas/question';
import { isoTime, type Clock } from '../../clock';
import { GatewayError } from '../../errors';
import { Cancellation, type CancelSignal } from '../../cancel';
import type { EvalRunPace, EvaluationStorage } from '../../store/ports';
import { variantKeys } from '../../../../shared/evaluations/variant-keys';
import type { Datasets } from '../../datasets/datasets';
import { budgetMessage, type BudgetStop } from './budget';
import { answerRow, failureRow } from './result-rows';
import { variantRequest } from './variant-request';

export interface EvalDecide {
  (
    request: DecisionsRequest,
    options: { requestId: string; signal: CancelSignal; admit: (maxCost: () => number) => void },
    /** The variant's cascade: the second model and when it is asked. */
    cascade?: Cascade,
  ): Promise<{
    response: DecisionsResponse;
    methods: Record<string, string>;
    attempts: unknown[] | null;
  }>;
}

export interface RunnerSpec {
  id: string;
  datasetId: string;
  request: DecisionsRequest;
  variants: EvalVariant[];
  concurrency: number;
  budgetUsd: number | null;
  /** temperatures by variant index, then question name */
  calibrations: Map<number, Map<string, number>>;
  /**
   * Only these items (by position) and models (by place) are sent when given, answered or not, e.g.
   * one image run again from Boxes: a new answer replaces the stored one, a failure leaves it.
   */
  only?: { positions: readonly number[]; variants: readonly number[] } | undefined;
}

export type RunnerEnd = 'done' | 'paused' | 'cancelled' | 'budget' | 'failed';

/** Tries of one item against 429s before it is stored as failed. */
const MAX_RATE_LIMIT_TRIES = 6;
const MAX_BACKOFF_MS = 60_000;
/**
 * Times an item is sent in all before its failure stays: the first try, then one more at each of
 * up to two resumes. Only failures are tried again; an item whose answer was stored never is.
 */
export const MAX_ITEM_TRIES = 3;

interface Task {
  position: number;
  variant: number;
  state: unknown;
  /** times it was sent before: more than 0 for a stored failure sent again */
  tries: number;
}

class BudgetReached extends Error {}
/** Refused for now: what requests in flight hold would leave too little, but they may cost less. */
class WaitForRoom extends Error {}

export interface RunnerDeps {
  storage: EvaluationStorage;
  clock: Clock;
  datasets: Datasets;
  decide: EvalDecide;
  sleep: (ms: number, signal: CancelSignal) => Promise<void>;
  /**
   * A run spread over a team's instances: items are claimed one at a time from the run's claims
   * (this runner's share), renewed while they are sent; the budget, a Retry-After wait and the
   * run's status are read from the store, where every instance's are.
   */
  spread?: Spread | undefined;
}

export interface Spread {
  owner: string;
  /** how long a claim lasts unrenewed: a dead instance's items are taken by others after it */
  leaseMs: number;
  /** how often claims are renewed and the run's status and wait read */
  renewMs: number;
  /** how often a runner with nothing to claim looks again (items in flight elsewhere may lapse) */
  pollMs: number;
}

/** The item's claim lapsed and another instance took it: this one does not send it. */
class ClaimLost extends Error {}

export class EvalRunner {
  done = 0;
  failed = 0;
  spent = 0;
  private reserved = 0;
  /** Requests waiting for what those in flight hold to be given back. */
  private waitingForRoom: (() => void)[] = [];
  /** Why the budget stopped the run: the request's worst case that was refused, and (once the run ends) what it spent. */
  budgetStop: BudgetStop | null = null;
  private stopping: RunnerEnd | null = null;
  /** One for the run: cancelling stops every request in flight (cheaper than an AbortController per item). */
  private readonly controller = new Cancellation();
  /** Wakes waits on a Retry-After at any stop: a pause does not wait out a long Retry-After first. */
  private readonly wake = new Cancellation();
  private notBefore = 0;
  private readonly startedAt: number;
  /** Tasks this runner was started with (items with no result, and failures to retry), and those finished since. */
  private pendingAtStart = 0;
  private handled = 0;
  /** Stored results by `position * 1024 + variant`: the tries so far of a failure to send again, 0 for anything else. */
  private readonly stored: Map<number, number>;
  /** Stored failures that a resume would send again (kept here while running, so progress needs no query). */
  retryable = 0;
  /** Items taken and not yet stored or given up: after a pause, the answers still to come. */
  inFlight = 0;
  readonly total: number;
  readonly finished: Promise<RunnerEnd>;

  private readonly keys: string[];
  /** Wakes a spread runner waiting for something to claim: a result stored here may have been the last. */
  private poke = new Cancellation();
  private renewTimer: ReturnType<typeof setInterval> | undefined;
  /** The budget's stop, being stored for every instance to see. */
  private budgetWrite: Promise<unknown> = Promise.resolve();

  /** Whether this runner sends a share of a run spread over instances (its counts are then its own only). */
  get spread(): boolean {
    return this.deps.spread !== undefined;
  }

  private constructor(
    private readonly spec: RunnerSpec,
    private readonly deps: RunnerDeps,
    counts: { done: number; failed: number; spent: number },
    items: number,
    stored: Map<number, number>,
  ) {
    this.startedAt = deps.clock.now();
    this.keys = variantKeys(spec.variants);
    this.done = counts.done;
    this.failed = counts.failed;
    this.spent = counts.spent;
    this.total = items * spec.variants.length;
    this.stored = stored;
    for (const tries of this.stored.values()) if (tries > 0) this.retryable += 1;
    if (spec.only) {
      // Items sent again count as done when their new result is stored, not before.
      for (const p of spec.only.positions) for (const v of spec.only.variants) if (this.stored.has(p * 1024 + v)) this.done -= 1;
    }
    this.pendingAtStart = spec.only ? spec.only.positions.length * spec.only.variants.length : this.total - counts.done + this.retryable;
    this.finished = this.run();
  }

  /** A runner for the run as stored: what it has done, spent and may send again is read first. */
  static async start(spec: RunnerSpec, deps: RunnerDeps): Promise<EvalRunner> {
    const [counts, items, stored] = await Promise.all([
      deps.storage.evalResults.counts(spec.id),
      deps.datasets.itemCount(spec.datasetId),
      deps.storage.evalResults.triesByItem(spec.id, MAX_ITEM_TRIES),
    ]);
    return new EvalRunner(spec, deps, counts, items, stored);
  }

  /** ms left at the rate since this runner started; null until something was done. */
  eta(): number | null {
    if (this.handled <= 0) return null;
    return ((this.deps.clock.now() - this.startedAt) / this.handled) * Math.max(0, this.pendingAtStart - this.handled);
  }

  /** ms left of a wait a 429's Retry-After asked for (every request of the run waits it out); null when none. */
  waiting(): number | null {
    const left = this.notBefore - this.deps.clock.now();
    return left > 0 ? left : null;
  }

  /** Requests in flight finish on a pause (their answers are stored and paid for); a cancel stops them. */
  stop(why: 'paused' | 'cancelled'): void {
    this.stopping ??= why;
    this.wake.abort();
    this.poke.abort();
    this.roomMade();
    if (why === 'cancelled') this.controller.abort();
  }

  /** Why this runner is stopping (a pause, a cancel, the budget), null while it runs. */
  get stoppingFor(): RunnerEnd | null {
    return this.stopping;
  }

  /** Items with no stored result, and stored failures that may be sent again; never a stored answer. */
  private async *tasks(): AsyncGenerator<Task> {
    const only = this.spec.only;
    const spec = this.spec;
    const datasets = this.deps.datasets;
    const items = only
      ? (async function* () {
          for (const p of only.positions) yield await datasets.item(spec.datasetId, p);
        })()
      : datasets.iterate(this.spec.datasetId);
    for await (const item of items) {
      for (let variant = 0; variant < this.spec.variants.length; variant += 1) {
        if (only) {
          if (only.variants.includes(variant)) yield { position: item.position, variant, state: item.state, tries: 0 };
          continue;
        }
        const tries = this.stored.get(item.position * 1024 + variant);
        if (tries === undefined || tries > 0) yield { position: item.position, variant, state: item.state, tries: tries ?? 0 };
      }
    }
    this.stored.clear();
  }

  /**
   * A spread run's items, claimed one at a time (claimed is in flight: a dead instance leaves no
   * more than its requests in flight to send again). With nothing to claim, the run is marked done
   * when no claim is left anywhere; else looked at again every pollMs, until its status changes.
   */
  private async *claimed(spread: Spread): AsyncGenerator<Task> {
    const { storage, clock, datasets } = this.deps;
    for (;;) {
      if (this.stopping) return;
      const now = clock.now();
      const [work] = await storage.evalWork.claimWork(this.spec.id, spread.owner, now, now + spread.leaseMs, 1);
      if (work) {
        const item = await datasets.item(this.spec.datasetId, work.position);
        yield { position: work.position, variant: work.variant, state: item.state, tries: 0 };
        continue;
      }
      if (this.inFlight === 0 && (await storage.evalWork.finishIfDrained(this.spec.id, isoTime(clock), now))) return;
      const pace = await storage.evalWork.renewClaims(this.spec.id, spread.owner, clock.now() + spread.leaseMs);
      if (this.followed(pace)) return;
      this.poke = new Cancellation();
      await this.deps.sleep(spread.pollMs, this.poke).catch(() => undefined);
    }
  }

  /** Takes what the store says of the run (any instance's pause, cancel, budget, Retry-After); whether it stopped here. */
  private followed(pace: EvalRunPace | undefined): boolean {
    if (!pace) {
      this.stop('cancelled');
      return true;
    }
    if (pace.not_before !== null) this.notBefore = Math.max(this.notBefore, pace.not_before);
    if (pace.status === 'running') return false;
    if (pace.status === 'cancelled') this.stop('cancelled');
    else if (pace.status !== 'done') {
      // Paused, stopped by the budget or failed elsewhere: requests in flight here finish and are stored.
      this.stopping ??= pace.status;
      this.wake.abort();
      this.roomMade();
    }
    return true;
  }

  private async run(): Promise<RunnerEnd> {
    const spread = this.deps.spread;
    if (spread) {
      this.renewTimer = setInterval(() => {
        const { storage, clock } = this.deps;
        void storage.evalWork
          .renewClaims(this.spec.id, spread.owner, clock.now() + spread.leaseMs)
          .then((pace) => this.followed(pace))
          // Not renewed this time: the next renewal comes long before the lease ends.
          .catch(() => undefined);
      }, spread.renewMs);
      this.renewTimer.unref();
    }
    try {
      return await this.work(spread ? this.claimed(spread) : this.tasks());
    } finally {
      clearInterval(this.renewTimer);
      await this.budgetWrite;
    }
  }

  private async work(tasks: AsyncGenerator<Task>): Promise<RunnerEnd> {
    const worker = async () => {
      for (;;) {
        if (this.stopping) return;
        const next = await tasks.next();
        if (next.done) return;
        this.inFlight += 1;
        try {
          await this.item(next.value);
        } finally {
          this.inFlight -= 1;
        }
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.max(1, this.spec.concurrency) }, worker));
    } catch (error) {
      if (!(error instanceof BudgetReached)) throw error;
    }
    // Said with what the run spent in the end: requests in flight at the stop were paid for after it.
    if (this.budgetStop) this.budgetStop = { ...this.budgetStop, spent: this.spent };
    return this.stopping ?? 'done';
  }

  /** Gives back what a request held, and lets requests waiting for room try again. */
  private unreserve(amount: number): void {
    if (amount === 0) return;
    this.reserved -= amount;
    this.roomMade();
  }

  private roomMade(): void {
    const waiting = this.waitingForRoom;
    this.waitingForRoom = [];
    for (const wake of waiting) wake();
  }

  private async item(task: Task): Promise<void> {
    const request = variantRequest(this.spec.request, this.spec.variants[task.variant]!, task.state);
    for (let attempt = 1; ; attempt += 1) {
      const wait = this.notBefore - this.deps.clock.now();
      if (wait > 0) await this.deps.sleep(wait, this.wake).catch(() => undefined);
      if (this.stopping) return;
      let reservation = 0;
      const started = this.deps.clock.now();
      try {
        const outcome = await this.deps.decide(
          request,
          {
            requestId: `${this.spec.id}-${task.variant}-${task.position}`,
            signal: this.controller,
            admit: (maxCost) => {
              const spread = this.deps.spread;
              if (spread) return this.admitSpread(spread, task, maxCost);
              if (this.spec.budgetUsd === null) return;
              const most = maxCost();
              const worstCase = Number.isFinite(most) ? most : 0;
              // Past the budget even if nothing else were spent: the run stops here.
              if (this.spent + worstCase > this.spec.budgetUsd) {
                this.budgetStop ??= { spent: this.spent, worstCase };
                this.stopping ??= 'budget';
                this.roomMade();
                throw new BudgetReached('the budget would be exceeded');
              }
              // Past it only with what requests in flight hold: they usually cost less, so wait for them.
              if (this.spent + this.reserved + worstCase > this.spec.budgetUsd) throw new WaitForRoom('waiting for requests in flight');
              reservation = worstCase;
              this.reserved += reservation;
            },
          },
          this.spec.variants[task.variant]!.cascade,
        );
        this.unreserve(reservation);
        await this.store(task, { ok: true, outcome, latency: this.deps.clock.now() - started });
        return;
      } catch (error) {
        this.unreserve(reservation);
        if (error instanceof WaitForRoom) {
          // Nothing was sent (admission comes before any upstream call); not a try of its own.
          // Stopped while it was being admitted: the stop's wake-up has passed, and it would wait for the next answer.
          if (this.stopping) return;
          await new Promise<void>((resolve) => {
            this.waitingForRoom.push(resolve);
            // Spread: requests in flight on other instances give room back too, unheard here.
            if (this.deps.spread) setTimeout(resolve, this.deps.spread.pollMs).unref();
          });
          attempt -= 1;
          continue;
        }
        if (error instanceof BudgetReached || error instanceof ClaimLost || this.controller.aborted) return;
        if (error instanceof GatewayError && error.status === 429 && attempt < MAX_RATE_LIMIT_TRIES) {
          const retryAfter = Number(error.headers?.['Retry-After'] ?? error.headers?.['retry-after']);
          const delay = Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter * 1000 : Math.min(MAX_BACKOFF_MS, 500 * 2 ** attempt);
          this.notBefore = Math.max(this.notBefore, this.deps.clock.now() + delay);
          // Every instance sending the run waits it out too.
          if (this.deps.spread) await this.deps.storage.evalWork.waitUntil(this.spec.id, this.notBefore).catch(() => undefined);
          continue;
        }
        await this.store(task, { ok: false, error, latency: this.deps.clock.now() - started });
        return;
      }
    }
  }

  /**
   * Admission of a spread run's request: its claim still this runner's, and its worst case held
   * against the run's budget beside every instance's stored costs and holds (the store's row lock
   * orders them). Past the budget even with nothing held, the run stops for every instance.
   */
  private async admitSpread(spread: Spread, task: Task, maxCost: () => number): Promise<void> {
    // Without a budget nothing is held (a lapsed claim is then found out when its result is stored, at most once).
    if (this.spec.budgetUsd === null) return;
    const most = maxCost();
    const worstCase = Number.isFinite(most) ? most : 0;
    const answer = await this.deps.storage.evalWork.reserveBudget(this.spec.id, spread.owner, { variant: task.variant, position: task.position }, worstCase);
    if (answer.reserved) return;
    if (answer.reason === 'lost') throw new ClaimLost('claimed by another instance');
    if (answer.reason === 'held') throw new WaitForRoom('waiting for requests in flight');
    this.budgetStop ??= { spent: answer.spent, worstCase };
    if (!this.stopping) {
      this.stopping = 'budget';
      this.budgetWrite = this.deps.storage.evalWork
        .stopRun(this.spec.id, 'budget', budgetMessage(answer.budget, this.budgetStop), isoTime(this.deps.clock))
        .catch(() => undefined);
    }
    this.roomMade();
    throw new BudgetReached('the budget would be exceeded');
  }

  /**
   * Committed before the next item is taken: what is stored is never sent again. Results that
   * finish in the same turn of the event loop share one transaction (the store's group commit);
   * an item counts as done only once its commit has returned. What it cost counts at once, so the
   * budget never sees its money as neither reserved nor spent.
   */
  private async store(
    task: Task,
    result: { ok: true; outcome: Awaited<ReturnType<EvalDecide>>; latency: number } | { ok: false; error: unknown; latency: number },
  ): Promise<void> {
    const stamp = { task, modelKey: this.keys[task.variant]!, latency: result.latency, answeredAt: isoTime(this.deps.clock) };
    if (result.ok) {
      const questions = this.spec.request.questions as Record<string, Question>;
      const row = answerRow({ ...stamp, questions, outcome: result.outcome, temperatures: this.spec.calibrations.get(task.variant) });
      const committed = this.deps.storage.evalWork.putAnswer(this.spec.id, row, { replace: this.spec.only !== undefined });
      this.spent += row.cost ?? 0;
      await committed;
      if (task.tries > 0) {
        this.failed -= 1;
        this.retryable -= 1;
      }
    } else {
      const row = failureRow({ ...stamp, error: result.error });
      const committed = this.deps.storage.evalWork.putFailure(this.spec.id, row);
      this.spent += row.cost ?? 0;
      await committed;
      if (task.tries === 0) this.failed += 1;
      const again = row.retryable && task.tries + 1 < MAX_ITEM_TRIES;
      this.retryable += (again ? 1 : 0) - (task.tries > 0 ? 1 : 0);
    }
    if (task.tries === 0) this.done += 1;
    this.handled += 1;
    this.poke.abort();
  }
}
