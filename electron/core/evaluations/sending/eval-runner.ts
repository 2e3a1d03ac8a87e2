/**
 * One evaluation run's background work in this process: items × variants sent with bounded
 * concurrency, each result committed to the store as it arrives (so a killed process resumes with
 * only the items that have none), 429s waited out as Retry-After says, and every request admitted
 * against the run's budget before it is sent. Which items, and how the budget is held, is the run's
 * `RunWork` (work-source.ts).
 */
import type { Cascade } from '../../../../shared/schemas/cascade';
import type { DecisionsRequest } from '../../../../shared/schemas/decisions-request';
import type { DecisionsResponse } from '../../../../shared/schemas/decisions-response';
import type { EvalVariant } from '../../../../shared/schemas/evaluation';
import type { Question } from '../../../../shared/schemas/question';
import { variantKeys } from '../../../../shared/evaluations/variant-keys';
import { isoTime, type Clock } from '../../clock';
import { GatewayError } from '../../errors';
import { Cancellation, type CancelSignal } from '../../cancel';
import type { Datasets } from '../../datasets/datasets';
import type { EvalResultStorage } from '../results/storage';
import type { BudgetStop } from './budget';
import { answerRow, failureRow } from './result-rows';
import type { EvalWorkStorage } from './storage';
import { variantRequest } from './variant-request';
import { BudgetReached, ItemLost, WaitForRoom, type Only, type RunWork, type Task } from './work-source';

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
  only?: Only | undefined;
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

export interface RunnerDeps {
  results: Pick<EvalResultStorage, 'counts' | 'triesByItem'>;
  work: Pick<EvalWorkStorage, 'putAnswer' | 'putFailure'>;
  clock: Clock;
  datasets: Datasets;
  decide: EvalDecide;
  sleep: (ms: number, signal: CancelSignal) => Promise<void>;
}

export class EvalRunner {
  done = 0;
  failed = 0;
  spent = 0;
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
  readonly tries: Map<number, number>;
  /** Stored failures that a resume would send again (kept here while running, so progress needs no query). */
  retryable = 0;
  /** Items taken and not yet stored or given up: after a pause, the answers still to come. */
  inFlight = 0;
  readonly total: number;
  readonly finished: Promise<RunnerEnd>;

  private readonly keys: string[];
  /** Wakes a wait for something to send: a result stored here may have been the last. */
  private poke = new Cancellation();

  private constructor(
    readonly spec: RunnerSpec,
    private readonly deps: RunnerDeps,
    readonly work: RunWork,
    counts: { done: number; failed: number; spent: number },
    items: number,
    tries: Map<number, number>,
  ) {
    this.startedAt = deps.clock.now();
    this.keys = variantKeys(spec.variants);
    this.done = counts.done;
    this.failed = counts.failed;
    this.spent = counts.spent;
    this.total = items * spec.variants.length;
    this.tries = tries;
    for (const n of this.tries.values()) if (n > 0) this.retryable += 1;
    if (spec.only) {
      // Items sent again count as done when their new result is stored, not before.
      for (const p of spec.only.positions) for (const v of spec.only.variants) if (this.tries.has(p * 1024 + v)) this.done -= 1;
    }
    this.pendingAtStart = spec.only ? spec.only.positions.length * spec.only.variants.length : this.total - counts.done + this.retryable;
    this.finished = this.run();
  }

  /** A runner for the run as stored: what it has done, spent and may send again is read first. */
  static async start(spec: RunnerSpec, deps: RunnerDeps, work: RunWork): Promise<EvalRunner> {
    const [counts, items, tries] = await Promise.all([
      deps.results.counts(spec.id),
      deps.datasets.itemCount(spec.datasetId),
      deps.results.triesByItem(spec.id, MAX_ITEM_TRIES),
    ]);
    return new EvalRunner(spec, deps, work, counts, items, tries);
  }

  /** Whether this runner sends the whole run, so that its counts are the run's. */
  get whole(): boolean {
    return this.work.whole;
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

  /** Stopped from elsewhere (paused, stopped by the budget or failed): requests in flight here finish and are stored. */
  halt(why: 'paused' | 'budget' | 'failed'): void {
    this.stopping ??= why;
    this.wake.abort();
    this.roomMade();
  }

  /** The budget refused a request: the runner stops; true for the first stop (the one that says why). */
  budgetStopped(stop: BudgetStop): boolean {
    this.budgetStop ??= stop;
    const first = this.stopping === null;
    this.stopping ??= 'budget';
    this.roomMade();
    return first;
  }

  /** No request before `notBefore` (ms since the epoch): the later of it and any earlier wait. */
  holdUntil(notBefore: number): void {
    this.notBefore = Math.max(this.notBefore, notBefore);
  }

  /** Waits up to `ms` for something to change here: a result stored, or a stop. */
  async waitForChange(ms: number): Promise<void> {
    this.poke = new Cancellation();
    await this.deps.sleep(ms, this.poke).catch(() => undefined);
  }

  /** Why this runner is stopping (a pause, a cancel, the budget), null while it runs. */
  get stoppingFor(): RunnerEnd | null {
    return this.stopping;
  }

  /** Lets requests waiting for room in the budget try again. */
  roomMade(): void {
    const waiting = this.waitingForRoom;
    this.waitingForRoom = [];
    for (const wake of waiting) wake();
  }

  private async run(): Promise<RunnerEnd> {
    this.work.opened(this);
    try {
      return await this.send(this.work.tasks(this));
    } finally {
      await this.work.closed();
    }
  }

  private async send(tasks: AsyncGenerator<Task>): Promise<RunnerEnd> {
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

  private async item(task: Task): Promise<void> {
    const request = variantRequest(this.spec.request, this.spec.variants[task.variant]!, task.state);
    for (let attempt = 1; ; attempt += 1) {
      const wait = this.notBefore - this.deps.clock.now();
      if (wait > 0) await this.deps.sleep(wait, this.wake).catch(() => undefined);
      if (this.stopping) return;
      const started = this.deps.clock.now();
      try {
        const outcome = await this.deps.decide(
          request,
          {
            requestId: `${this.spec.id}-${task.variant}-${task.position}`,
            signal: this.controller,
            admit: (maxCost) => this.work.admit(this, task, maxCost),
          },
          this.spec.variants[task.variant]!.cascade,
        );
        this.work.settle(this, task);
        await this.store(task, { ok: true, outcome, latency: this.deps.clock.now() - started });
        return;
      } catch (error) {
        this.work.settle(this, task);
        if (error instanceof WaitForRoom) {
          // Nothing was sent (admission comes before any upstream call); not a try of its own.
          // Stopped while it was being admitted: the stop's wake-up has passed, and it would wait for the next answer.
          if (this.stopping) return;
          await new Promise<void>((resolve) => {
            this.waitingForRoom.push(resolve);
            // Requests in flight elsewhere give room back too, unheard here.
            if (this.work.roomPollMs !== null) setTimeout(resolve, this.work.roomPollMs).unref();
          });
          attempt -= 1;
          continue;
        }
        if (error instanceof BudgetReached || error instanceof ItemLost || this.controller.aborted) return;
        if (error instanceof GatewayError && error.status === 429 && attempt < MAX_RATE_LIMIT_TRIES) {
          const retryAfter = Number(error.headers?.['Retry-After'] ?? error.headers?.['retry-after']);
          const delay = Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter * 1000 : Math.min(MAX_BACKOFF_MS, 500 * 2 ** attempt);
          this.holdUntil(this.deps.clock.now() + delay);
          // Every instance sending the run waits it out too.
          const told = this.work.holdOff(this.notBefore);
          if (told) await told;
          continue;
        }
        await this.store(task, { ok: false, error, latency: this.deps.clock.now() - started });
        return;
      }
    }
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
      const committed = this.deps.work.putAnswer(this.spec.id, row, { replace: this.spec.only !== undefined });
      this.spent += row.cost ?? 0;
      await committed;
      if (task.tries > 0) {
        this.failed -= 1;
        this.retryable -= 1;
      }
    } else {
      const row = failureRow({ ...stamp, error: result.error });
      const committed = this.deps.work.putFailure(this.spec.id, row);
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
