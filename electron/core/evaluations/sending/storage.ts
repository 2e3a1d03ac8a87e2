/**
 * The sender's storage: results written as they come back, the lease under which one process sends
 * a run, and the claims, shared budget and waits of a run a team's instances send together.
 */
import type { StoredEvalRun } from '../runs/storage';
import type { StoredEvalResult } from '../results/storage';

/** The statuses a running run stops with (done is reached by draining, not by a stop). */
export type StoppedStatus = Exclude<StoredEvalRun['status'], 'running' | 'done'>;

/** What a new result carries besides the stored fields: who answered it, and how long the item's content is. */
export interface NewEvalResult extends Omit<StoredEvalResult, 'ok' | 'answered_at'> {
  /** the variant's name as variantKey() forms it, for looking answers up by model across runs */
  model_key: string;
  /** characters of the item's content as stored, for refining the expected cost */
  content_chars: number;
  answered_at: string;
}

/** A new failure: what a new result carries without answers, and whether a resume may send it again. */
export type NewEvalFailure = Omit<NewEvalResult, 'answers' | 'raw_answers' | 'methods' | 'attempts' | 'provider'> & { retryable: boolean };

/** One item of a run for one of its models: what one instance claims and sends. */
export interface EvalWork {
  variant: number;
  position: number;
}

/** What an instance sending a spread run reads at each renewal of its claims: how the run stands. */
export interface EvalRunPace {
  status: StoredEvalRun['status'];
  /** ms since the epoch before which no request of the run is sent (a provider's Retry-After, seen by any instance); null when none */
  not_before: number | null;
  /** claims this owner still holds and renewed */
  held: number;
}

/** The run's budget asked for one request's worst case, counting every instance's spend and holds. */
export type EvalBudgetAnswer =
  | { reserved: true }
  /** the item is no longer this owner's (its claim lapsed and another took it): not to be sent */
  | { reserved: false; reason: 'lost' }
  /** `budget`: past the budget even with nothing held; `held`: past it only with what requests in flight hold */
  | { reserved: false; reason: 'budget' | 'held'; spent: number; held: number; budget: number };

/** Writing results, and who sends which of a run's items. */
export interface EvalWorkStorage {
  /**
   * Stores an answer. Over a stored failure it adds its tokens and cost to the failure's and counts
   * one more try; over a stored answer it changes nothing, unless `replace` (an item sent again on
   * purpose). Results stored in one turn of the event loop share a commit; durable when it resolves.
   * The item's claim (spread runs) ends in the same commit.
   */
  putAnswer(runId: string, result: NewEvalResult, options: { replace: boolean }): Promise<void>;
  /**
   * Stores a failure: a new one with one try, or over a stored failure with one more try. Over a
   * stored answer it changes nothing (an answer is never replaced by a failure). Tokens and cost add
   * up over the tries. Shares a commit as `putAnswer` does; durable when it resolves.
   */
  putFailure(runId: string, result: NewEvalFailure): Promise<void>;
  /**
   * Takes (or renews) the right to send a run's requests until `until` (ms since the epoch): granted
   * when nobody holds it, its holder's lease ended before `now`, or `owner` holds it already. One
   * process of a team's instances sends a run at a time; a dead one's run is taken up once its
   * lease ends.
   */
  leaseRun(id: string, owner: string, now: number, until: number): Promise<boolean>;
  /** Gives the run's lease back, if `owner` holds it. */
  releaseRun(id: string, owner: string): Promise<void>;
  /**
   * Spreads a run over a team's instances: marks it running and spread, and puts each of `work` (the
   * items it has to send) in its claims, unclaimed; work already there is kept as it is (an item in
   * flight stays its sender's). Refused (false) while another owner holds the run's lease (one
   * instance sending it alone, `leaseRun`); a lease of `owner`'s own is given back. Told to every
   * instance listening (`onSpread`).
   */
  spreadRun(id: string, owner: string, work: readonly EvalWork[], now: number): Promise<boolean>;
  /** A spread run's claims (items still to send), whoever holds them; for a store copy. */
  exportClaims(runId: string): Promise<EvalWork[]>;
  /** Puts these items in a run's claims, unclaimed, leaving the run as it is; for a store copy. */
  importClaims(runId: string, work: readonly EvalWork[]): Promise<void>;
  /** Running runs that are spread over instances. */
  spreadRuns(): Promise<string[]>;
  /** Calls `listener` with a run's id when a run is spread (by any instance; without an id after a lost connection: look again). */
  onSpread(listener: (runId?: string) => void): Promise<void>;
  /**
   * Claims up to `limit` items of a running spread run for `owner` until `until`: items nobody
   * claimed, or whose claim lapsed before `now`. Never the same item to two callers at once
   * (`FOR UPDATE SKIP LOCKED` on Postgres); a claim taken over starts with nothing held.
   */
  claimWork(runId: string, owner: string, now: number, until: number, limit: number): Promise<EvalWork[]>;
  /** Extends `owner`'s claims on a run to `until`, and says how the run stands (undefined: no such run). */
  renewClaims(runId: string, owner: string, until: number): Promise<EvalRunPace | undefined>;
  /** Gives `owner`'s claims on a run back (unclaimed, nothing held): others take them at once. */
  releaseClaims(runId: string, owner: string): Promise<void>;
  /**
   * Holds `worst` USD of the run's budget for an item `owner` claimed, when the run's stored
   * results' costs, what every other claim holds and `worst` fit in it: checked and held under the
   * run's row lock, so two instances never both take the last room. A run with no budget holds nothing.
   */
  reserveBudget(runId: string, owner: string, work: EvalWork, worst: number): Promise<EvalBudgetAnswer>;
  /**
   * Marks a running spread run done when no claim is left (every item stored) and nobody holds its
   * lease; true for the one call that did. The result that ends the last claim is committed first.
   */
  finishIfDrained(runId: string, finishedAt: string, now: number): Promise<boolean>;
  /** Sets a running run's status (budget, paused, cancelled, failed); true only for the call that changed it from running. */
  stopRun(runId: string, status: StoppedStatus, message: string | null, finishedAt: string | null): Promise<boolean>;
  /** No request of the run before `notBefore` (ms since the epoch), for every instance: the later of it and any earlier wait. */
  waitUntil(runId: string, notBefore: number): Promise<void>;
}
