/**
 * Where a run's items come from and what they are held to, as the sender sees it. A `WorkSource`
 * takes runs up for this process; for each run it sends here it gives a `RunWork`, which the runner
 * asks for items, for admission against the budget, and tells what it stored and how it ended. Two
 * implementations: `LocalQueue` (one process sends a run, under its lease) and `ClaimedQueue` (a
 * team's instances claim its items one at a time, its budget and waits held in the store).
 */
import type { StoredEvalRun } from '../runs/storage';
import type { EvalRunner, RunnerEnd } from './eval-runner';

/** One item of a run for one of its models, with its content: what a runner sends. */
export interface Task {
  position: number;
  variant: number;
  state: unknown;
  /** times it was sent before: more than 0 for a stored failure sent again */
  tries: number;
}

/** Only these items (by position) and models (by place), answered or not: one image sent again from Boxes. */
export interface Only {
  positions: readonly number[];
  variants: readonly number[];
}

/** Refused: the run's budget would be exceeded; the runner stops. */
export class BudgetReached extends Error {}
/** Refused for now: what requests in flight hold would leave too little, but they may cost less. */
export class WaitForRoom extends Error {}
/** The item's claim lapsed and another instance took it: this one does not send it. */
export class ItemLost extends Error {}

/** How one run is sent here, for as long as one runner sends it. */
export interface RunWork {
  /** Whether this runner sends the whole run here, so that its counts are the run's (else they are its share only). */
  readonly whole: boolean;
  /** Marks the run as sent here and says its budget (USD, null: none); once, before its runner starts. */
  begin(): Promise<number | null>;
  /** The items to send, one at a time. */
  tasks(runner: EvalRunner): AsyncGenerator<Task>;
  /**
   * Holds a request's worst case against the run's budget before anything is sent. Refuses with
   * `BudgetReached` (the runner stops), `WaitForRoom` or `ItemLost`; synchronous when it can be, as the
   * engine awaits only a promise.
   */
  admit(runner: EvalRunner, task: Task, maxCost: () => number): void | Promise<void>;
  /** Gives back what `admit` held for the task, once its request returned. */
  settle(runner: EvalRunner, task: Task): void;
  /** How long a request waiting for room waits before it asks again unwoken; null: until a request here gives room back. */
  readonly roomPollMs: number | null;
  /** A provider's Retry-After: no request of the run before `notBefore` (ms since the epoch), told where others read it. */
  holdOff(notBefore: number): void | Promise<void>;
  /** With the runner: started when it starts, and stopped (what it was writing written) when it ends. */
  opened(runner: EvalRunner): void;
  closed(): Promise<void>;
  /** The runner ended: the run's status stored, what this process held given back, the run sent again when it was resumed meanwhile. */
  ended(runner: EvalRunner, end: RunnerEnd): Promise<void>;
  /** The runner failed: the run marked failed, what this process held given back. */
  failed(error: unknown): Promise<void>;
}

/** What the sender lends a work source: its runners, and a way to send a run again. */
export interface SenderHooks {
  readonly closing: boolean;
  /** The runner sending a run here, if one does. */
  runner(id: string): EvalRunner | undefined;
  /** Every runner sending a run here, by run. */
  runners(): Iterable<[string, EvalRunner]>;
  /** Whether a runner sends the run here, or is being started. */
  busy(id: string): boolean;
  /** The runner of the run stopped here: it is no longer sending it. */
  forget(id: string): void;
  /** Whether a resume came while the runner stopped (a pause or the budget): it is then sent again, once. */
  resumeWanted(id: string, end: RunnerEnd): boolean;
  /** Takes a run up here (a resume, a run another instance started, a run left by a stopped process). */
  launch(row: StoredEvalRun, how: Take): Promise<void>;
}

/** How a run is taken up: every item still to send, or `only` some; `quietly` when nobody asked (a restart, a look). */
export interface Take {
  only?: Only | undefined;
  quietly: boolean;
  /** A run another instance is sending already: this process sends a share of it too. */
  joining?: boolean;
}

/** Who sends which runs, and how they stop. */
export interface WorkSource {
  /** How a run will be sent here; null when it is not this process's to send now (taken quietly), else throws why. */
  take(row: StoredEvalRun, how: Take, hooks: SenderHooks): Promise<RunWork | null>;
  /** Stops a run: requests in flight finish (their answers stored), wherever it is sent. */
  pause(id: string, hooks: SenderHooks): Promise<void>;
  /** Cancels a run: requests in flight cut off, wherever it is sent. */
  cancel(row: StoredEvalRun, hooks: SenderHooks): Promise<void>;
  /** How often `keep` is called. */
  readonly keepEveryMs: number;
  /** Renews what this process holds of the runs it sends; stops those another took. */
  keep(hooks: SenderHooks): Promise<void>;
  /** Takes up runs left running (by this process before a restart, or by another that stopped); how many. */
  takeUp(hooks: SenderHooks): Promise<number>;
  /** Hears from now on of runs other processes want sent here too (once, before the first `takeUp`). */
  listen?(hooks: SenderHooks): Promise<void>;
}
