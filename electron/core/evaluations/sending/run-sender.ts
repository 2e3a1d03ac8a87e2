/**
 * evaluations/sending/: the sender. Owns sending a run's items: RunSender (here), one EvalRunner per
 * run sent in this process, the WorkSource it sends from (LocalQueue, ClaimedQueue: work-source.ts)
 * and `EvalWorkStorage` (results written, leases, claims). May import shared/, the clock, cancel,
 * errors, the logger, datasets and decisions/usage, the ports of runs/ and results/ (storage.ts,
 * runs/stored-run.ts) and calibration/ (applying temperatures); never the run book, EvalResults or
 * the reports.
 *
 * The RunSender keeps which runs are sent here, sends again a run resumed while it was stopping, has
 * the source renew what this process holds, and takes up runs left running by a process that stopped.
 */
import type { EvalVariant } from '../../../../shared/schemas/evaluation';
import type { DecisionsRequest } from '../../../../shared/schemas/decisions-request';
import type { Clock } from '../../clock';
import type { Logger } from '../../logger';
import type { CancelSignal } from '../../cancel';
import type { Datasets } from '../../datasets/datasets';
import type { AppliedCalibration } from '../calibration/calibrations';
import type { EvalResultStorage } from '../results/storage';
import type { EvalRunStorage, StoredEvalRun } from '../runs/storage';
import { storedRun } from '../runs/stored-run';
import { EvalRunner, type EvalDecide, type RunnerEnd } from './eval-runner';
import type { EvalWorkStorage } from './storage';
import type { Only, RunWork, SenderHooks, Take, WorkSource } from './work-source';

export interface RunSenderDeps {
  source: WorkSource;
  runs: Pick<EvalRunStorage, 'getRun' | 'updateRun'>;
  results: Pick<EvalResultStorage, 'counts' | 'triesByItem'>;
  work: Pick<EvalWorkStorage, 'putAnswer' | 'putFailure'>;
  /** The saved calibrations of a question set for each model of a run, as they stand now. */
  savedCalibrations: (setKey: string, variants: readonly EvalVariant[]) => Promise<AppliedCalibration[]>;
  datasets: Datasets;
  clock: Clock;
  logger: Logger;
  decide: EvalDecide;
  sleep?: ((ms: number, signal: CancelSignal) => Promise<void>) | undefined;
}

export class RunSender implements SenderHooks {
  private readonly active = new Map<string, EvalRunner>();
  /** Runs being read to start, before their runner is active: a second launch meanwhile is not a second runner. */
  private readonly launching = new Set<string>();
  /** Runs resumed while their pause was still letting requests in flight return: launched again as soon as they have. */
  private readonly resumeWhenStopped = new Set<string>();
  /** Each running run's end, once its status is stored. */
  private readonly ending = new Map<string, Promise<void>>();
  private closed = false;
  /** Whether this process takes up runs others left (a server does; the eval command runs only its own). */
  private takingUp = false;
  /** Renews what this process holds of the runs it sends, and takes up runs whose sender stopped. */
  private keepTimer: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly deps: RunSenderDeps) {}

  get closing(): boolean {
    return this.closed;
  }

  runner(id: string): EvalRunner | undefined {
    return this.active.get(id);
  }

  runners(): Iterable<[string, EvalRunner]> {
    return this.active.entries();
  }

  busy(id: string): boolean {
    return this.active.has(id) || this.launching.has(id);
  }

  forget(id: string): void {
    this.active.delete(id);
  }

  resumeWanted(id: string, end: RunnerEnd): boolean {
    return (end === 'paused' || end === 'budget') && this.resumeWhenStopped.delete(id) && !this.closed;
  }

  /** Sends a run here (every item still to send, or `only` some), unless it is sent here already. */
  async launch(row: StoredEvalRun, how: Take): Promise<void> {
    if (this.busy(row.id) || this.closed) return;
    this.launching.add(row.id);
    let runner: EvalRunner;
    try {
      const work = await this.deps.source.take(row, how, this);
      if (!work) return;
      runner = await this.runnerFor(row, work, how.only);
    } finally {
      this.launching.delete(row.id);
    }
    if (this.closed) {
      runner.stop('cancelled');
      return;
    }
    this.active.set(row.id, runner);
    this.keepLeasing();
    const ended = runner.finished.then((end) => runner.work.ended(runner, end)).catch((error: unknown) => runner.work.failed(error));
    // Ended once its status is stored (a database answers later than the runner stops).
    this.ending.set(row.id, ended);
    void ended.finally(() => {
      if (this.ending.get(row.id) === ended) this.ending.delete(row.id);
    });
  }

  private async runnerFor(row: StoredEvalRun, work: RunWork, only: Only | undefined): Promise<EvalRunner> {
    const variants = row.variants as EvalVariant[];
    // Those fixed when the run started; a run from before they were recorded reads the saved ones.
    const applied = row.calibrations ?? (await this.deps.savedCalibrations(row.set_key, variants));
    const calibrations = new Map<number, Map<string, number>>(variants.map((_, i) => [i, new Map()]));
    for (const c of applied) calibrations.get(c.variant)?.set(c.question, c.temperature);
    const budgetUsd = await work.begin();
    const { results, clock, datasets, decide } = this.deps;
    return EvalRunner.start(
      {
        id: row.id,
        datasetId: row.dataset_id,
        request: row.request as DecisionsRequest,
        variants,
        concurrency: row.concurrency,
        budgetUsd,
        calibrations,
        only,
      },
      { results, work: this.deps.work, clock, datasets, decide, sleep: this.deps.sleep ?? abortableSleep },
      work,
    );
  }

  /** Stops a run where it is sent; requests in flight finish. */
  async pause(id: string): Promise<void> {
    this.resumeWhenStopped.delete(id);
    await this.deps.source.pause(id, this);
  }

  /** Sends a run again; one still stopping here goes on once its requests in flight have returned. */
  async resume(id: string): Promise<void> {
    const runner = this.active.get(id);
    if (!runner) await this.launch(await storedRun(this.deps.runs, id), { quietly: false });
    else if (runner.stoppingFor === 'paused' || runner.stoppingFor === 'budget') {
      // Stopping, with requests still in flight: a resume now is not dropped; the run goes on once they return.
      this.resumeWhenStopped.add(id);
      await this.deps.runs.updateRun(id, { status: 'running', message: null });
    }
  }

  async cancel(row: StoredEvalRun): Promise<void> {
    this.resumeWhenStopped.delete(row.id);
    await this.deps.source.cancel(row, this);
  }

  /** Resolves once the run's runner here ended and its status is stored (at once when it is not sent here). */
  async wait(id: string): Promise<void> {
    await this.ending.get(id)?.catch(() => undefined);
  }

  /**
   * Restarts runs that were running when their sender stopped (this process before a restart, or
   * another instance whose lease ended); they send only items with no stored result. Then keeps what
   * this process holds of the runs sent here and looks again for runs to take up, every so often.
   */
  async resumeInterrupted(): Promise<number> {
    if (!this.takingUp && this.deps.source.listen) await this.deps.source.listen(this);
    this.takingUp = true;
    const taken = await this.deps.source.takeUp(this);
    this.keepLeasing();
    return taken;
  }

  private keepLeasing(): void {
    if (this.keepTimer || this.closed) return;
    this.keepTimer = setInterval(
      () => void this.keep().catch((error: unknown) => this.deps.logger.warn({ err: error }, 'run leases not kept')),
      this.deps.source.keepEveryMs,
    );
    this.keepTimer.unref();
  }

  private async keep(): Promise<void> {
    await this.deps.source.keep(this);
    if (this.takingUp && !this.closed) await this.deps.source.takeUp(this);
  }

  /**
   * Stops work without changing any status: running runs resume at the next start (or, sent by a
   * team, go on at the other instances, which take this one's items at once). Resolves once they stopped.
   */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.keepTimer);
    for (const runner of this.active.values()) runner.stop('cancelled');
    await Promise.all([...this.ending.values()].map((e) => e.catch(() => undefined)));
  }
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
