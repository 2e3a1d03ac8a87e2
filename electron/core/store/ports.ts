import type { CalibrationStorage } from '../evaluations/calibration/storage';
import type { EvalResultStorage } from '../evaluations/results/storage';
import type { EvalRunStorage } from '../evaluations/runs/storage';
import type { EvalWorkStorage } from '../evaluations/sending/storage';
import type { ApiKeyRecord, KeyRequest, KeyStorage } from '../keys/storage';
import type { SettingsStorage } from '../settings/storage';
import type { StoredRefusal, RefusalStorage } from '../catalog/refusal-storage';
import type { ProviderKeyDates } from '../keys/provider-key-dates';
import type { MinuteFigures, FailedAttempt, MetricsStorage } from '../metrics/storage';
import type { StoredQuestionSet, QuestionSetStorage } from '../question-sets/storage';
import type { StoredCascadePreset, CascadePresetStorage } from '../cascade-presets/storage';
import type { StoredRun, RunFilter, RunStorage, LogPlace, LegacySpendStorage } from '../runs/storage';
import type { StoredDataset, StoredItem, StoredExpectedGroup, DatasetStorage } from '../datasets/storage';
import type { StoredBoxItem, StoredVerdict, StoredVerdictEnd, BoxStorage, VerdictChange } from '../boxes/storage';
import type { AuditFilter, AuditStorage } from '../audit/storage';
import type { StoredSession, SessionStorage } from '../audit/session-storage';
import type { CaptureStorage, NewCapture, StoredCapture, StoredCaptureRule } from '../captures/storage';
import type { ReviewStorage, ReviewWrite, StoredReview } from '../reviews/storage';
import type { HumanQueueFigures, HumanReviewStorage, StoredHumanReview } from '../reviews/human-storage';

/**
 * The storage interfaces the domains ask, one per domain that owns data, each beside its domain
 * (`keys/storage.ts`, `datasets/storage.ts`, `evaluations/<part>/storage.ts`, ...): gathered here into the
 * one `Storage` a backend implements, with the ports a team's instances share (admission, health,
 * presence). No SQL and no backend is named here: `store/sqlite/` and `store/postgres/` implement them, and a domain never reads a table
 * of another's. Values are plain domain values, never rows or JSON strings.
 *
 * Reads the request path needs on every call are kept in memory by the domain, loaded at open and
 * read again when the port's change token moves; the token is read synchronously (SQLite: the file's
 * data_version and this connection's own writes; Postgres: LISTEN/NOTIFY), so checking it adds no
 * await to the hot path.
 */

export type {
  ApiKeyRecord,
  KeyRequest,
  KeyStorage,
  SettingsStorage,
  StoredRefusal,
  RefusalStorage,
  ProviderKeyDates,
  MinuteFigures,
  FailedAttempt,
  MetricsStorage,
  StoredQuestionSet,
  QuestionSetStorage,
  StoredCascadePreset,
  CascadePresetStorage,
  StoredRun,
  RunFilter,
  RunStorage,
  LogPlace,
  LegacySpendStorage,
  StoredDataset,
  StoredItem,
  StoredExpectedGroup,
  DatasetStorage,
  StoredBoxItem,
  StoredVerdict,
  StoredVerdictEnd,
  BoxStorage,
  VerdictChange,
  AuditFilter,
  AuditStorage,
  StoredSession,
  SessionStorage,
  CaptureStorage,
  NewCapture,
  StoredCapture,
  StoredCaptureRule,
  ReviewStorage,
  ReviewWrite,
  StoredReview,
  HumanQueueFigures,
  HumanReviewStorage,
  StoredHumanReview,
};
export type { EvalRunStorage, StoredEvalRun } from '../evaluations/runs/storage';
export type { CopiedEvalResult, EvalCounts, EvalResultStorage, NewestAnswer, StoredEvalResult } from '../evaluations/results/storage';
export type { EvalBudgetAnswer, EvalRunPace, EvalWork, EvalWorkStorage, NewEvalFailure, NewEvalResult, StoppedStatus } from '../evaluations/sending/storage';
export type { CalibrationStorage, StoredCalibration } from '../evaluations/calibration/storage';

/** An endpoint cooled by one instance, told to the others: until when (ms since the epoch), and why. */
export interface HealthEvent {
  endpointId: string;
  /** 'cooldown': the provider asked to wait (Retry-After); 'open': the breaker opened on repeated faults. */
  kind: 'cooldown' | 'open';
  until: number;
}

/** How a team's instances tell each other of endpoints to leave alone (one process has nobody to tell). */
export interface HealthBroadcast {
  /** Sent without waiting; lost only when the database is away (each instance then learns on its own). */
  publish(event: HealthEvent): void;
  /** Calls `listener` with every event any instance publishes, this one's included. */
  subscribe(listener: (event: HealthEvent) => void): Promise<void>;
}

/** The evaluations domain's four ports on one backend. */
export type EvaluationStorage = Pick<Storage, 'evalRuns' | 'evalResults' | 'evalWork' | 'calibrations'>;

/** Every domain's storage on one backend, opened together and closed together. */
export interface Storage {
  readonly keys: KeyStorage;
  readonly settings: SettingsStorage;
  readonly refusals: RefusalStorage;
  readonly providerKeyDates: ProviderKeyDates;
  readonly metrics: MetricsStorage;
  readonly questionSets: QuestionSetStorage;
  readonly cascadePresets: CascadePresetStorage;
  readonly captures: CaptureStorage;
  readonly reviews: ReviewStorage;
  readonly humanReviews: HumanReviewStorage;
  readonly runs: RunStorage;
  readonly legacySpend: LegacySpendStorage;
  readonly datasets: DatasetStorage;
  readonly evalRuns: EvalRunStorage;
  readonly evalResults: EvalResultStorage;
  readonly evalWork: EvalWorkStorage;
  readonly calibrations: CalibrationStorage;
  readonly boxes: BoxStorage;
  readonly audit: AuditStorage;
  readonly sessions: SessionStorage;
  /** Endpoint cool-downs told between a team's instances; null where there is one process. */
  readonly health: HealthBroadcast | null;
  /** Which of a team's instances are alive; null where there is one process. */
  readonly presence: Presence | null;
  /** Where the data is, for people and logs, never with a password: "SQLite file …" or "PostgreSQL at host/db". */
  readonly where: string;
  /** The names of the tables the store holds (a store copy refuses one it does not know). */
  tables(): Promise<string[]>;
  /** Resolves when the database answers a trivial query; rejects with why not (readiness checks). */
  ping(): Promise<void>;
  /** Commits what is queued and closes the connections. */
  close(): Promise<void>;
}

/** One request asking to be admitted on a key with limits, on a team's shared admission. */
export interface SharedAdmissionAsk {
  keyId: string;
  /** The key's generation as this instance knows it (moved by revocations and limit changes). */
  generation: number;
  rateLimitRpm: number | null;
  creditLimit: number | null;
  /** The most the request can cost, USD (0: nothing is held). */
  worst: number;
  requestId: string;
}

export type SharedAdmissionAnswer =
  | { admitted: true; at: number }
  | { admitted: false; reason: 'rate'; retryAfterSeconds: number }
  | { admitted: false; reason: 'credit'; spent: number; held: number }
  | { admitted: false; reason: 'changed'; generation: number }
  | { admitted: false; reason: 'unknown_spend' };

/**
 * Rate limits and credit reservations shared by every instance of a team's server: one
 * round trip admits a request. Rejects with `SharedAdmissionUnavailable` when it cannot answer.
 */
export interface SharedAdmission {
  admit(ask: SharedAdmissionAsk): Promise<SharedAdmissionAnswer>;
  /** Gives a request's hold back and charges its real cost; sent without waiting. Resolves false (never rejects) when it did not arrive. */
  settle(keyId: string, requestId: string, costUsd: number, unheld?: boolean): Promise<boolean>;
  /**
   * Puts a key's spend (from the database) into the shared state, or raises the spend there to it
   * when lower (a charge that never arrived); never lowers it. The spend it then has.
   */
  seedSpend(keyId: string, spentUsd: number): Promise<number>;
  /** Moves a key's generation: every instance's next request on it reads the key again. */
  bumpGeneration(keyId: string): Promise<number>;
  /** Where it is, for people and logs, never with a password. */
  readonly where: string;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** A team's live instances: each beats every few seconds; one not heard from for a while is gone. */
export interface Presence {
  /** Says this instance is alive now. */
  beat(instance: string): Promise<void>;
  /** How many instances beat within the last `withinMs` (by the store's clock). */
  live(withinMs: number): Promise<number>;
  /** This instance stops (closed, not killed). */
  leave(instance: string): Promise<void>;
}

/** The shared admission did not answer (down, frozen, unreachable) in time. */
export class SharedAdmissionUnavailable extends Error {}

/** The database could not be reached (down, restarting, unreachable): nothing was written by the call that got it. */
export class StorageUnavailable extends Error {}
