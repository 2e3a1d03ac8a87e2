import type { AuditActorKind, AuditEntry, AuditTargetKind } from '../../../shared/schemas/audit';
import type { ApiKeyKind } from '../../../shared/schemas/inspector';
import type { CalibrationStorage } from '../evaluations/calibration/storage';
import type { EvalResultStorage } from '../evaluations/results/storage';
import type { EvalRunStorage } from '../evaluations/runs/storage';
import type { EvalWorkStorage } from '../evaluations/sending/storage';

/**
 * The storage interfaces the domains ask, one per domain that owns data. No SQL and no backend is
 * named here: `store/sqlite/` and `store/postgres/` implement them, and a domain never reads a table
 * of another's. Values are plain domain values, never rows or JSON strings.
 *
 * Reads the request path needs on every call are kept in memory by the domain, loaded at open and
 * read again when the port's change token moves; the token is read synchronously (SQLite: the file's
 * data_version and this connection's own writes; Postgres: LISTEN/NOTIFY), so checking it adds no
 * await to the hot path.
 */

/** An API key as stored: only a SHA-256 of the whole key, never the key. */
export interface ApiKeyRecord {
  id: string;
  name: string;
  kind: ApiKeyKind;
  hash: Buffer;
  label: string;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
  credit_limit: number | null;
  rate_limit_rpm: number | null;
  /** USD charged to the key, all time. */
  spent: number;
}

/** A rate-limited request's start (ms since the epoch), kept for the sliding minute. */
export interface KeyRequest {
  keyId: string;
  at: number;
}

/** The keys domain's storage. */
export interface KeyStorage {
  /** Every key, oldest first. */
  all(): Promise<ApiKeyRecord[]>;
  /** Stores a new key; resolves once it is durable. */
  add(key: ApiKeyRecord): Promise<void>;
  /** Stores the key only when there is none at all, atomically among every process on the store; whether it did. */
  addFirst(key: ApiKeyRecord): Promise<boolean>;
  /** One key as stored now (read from the database each time, for checks that must see another process's revocation at once). */
  get(id: string): Promise<ApiKeyRecord | undefined>;
  /** Marks a key revoked at `at` unless it already is; the key as it is after, or undefined when unknown. */
  revoke(id: string, at: string): Promise<ApiKeyRecord | undefined>;
  /** Replaces a key's credit and rate limits (null: none); the key as it is after, or undefined when unknown. */
  setLimits(id: string, limits: { credit_limit: number | null; rate_limit_rpm: number | null }): Promise<ApiKeyRecord | undefined>;
  /**
   * Adds `usd` to a key's spend; resolves once durable. Charges made in one turn of the event loop
   * share a commit. A team's database, which a write may reach twice, keeps them as a ledger by
   * `requestId`: a request charged again in a later commit counts once.
   */
  charge(id: string, usd: number, requestId?: string): Promise<void>;
  /** What a key spent on each UTC day (`YYYY-MM-DD`) from `fromDay` on, charges not yet folded included; days with none are left out. */
  spendByDay(id: string, fromDay: string): Promise<Map<string, number>>;
  /** Adds to a key's spend by day without touching its spend in all (a store copy brings both apart); resolves once durable. */
  addSpendDays(id: string, days: ReadonlyMap<string, number>): Promise<void>;
  /** Records a rate-limited request's start: durable with the next group commit, which an answer awaits. */
  noteRequest(request: KeyRequest): void;
  /** Forgets request starts at or before `at` (with the next group commit). */
  forgetRequests(upTo: number): void;
  /** Request starts after `since`, oldest first. */
  requestsSince(since: number): Promise<KeyRequest[]>;
  /** A usage stamp nobody was promised: written behind, within a quarter of a second. */
  stampUsed(id: string, at: string): void;
  /**
   * Moves whenever the keys change in any process (created, revoked, limits), except by spend.
   * Read synchronously and cheaply; what was read before it moved must be read again.
   */
  changeToken(): number;
  /** Resolves once every write queued so far (request starts, usage stamps) is committed. */
  flush(): Promise<void>;
}

/** The settings domain's storage: each setting by name, as the value it was given. */
export interface SettingsStorage {
  /** Every stored setting; one whose stored value cannot be read back is left out (and left stored). */
  all(): Promise<Record<string, unknown>>;
  /** Stores these settings together: all of them or, on failure, none. */
  put(values: Record<string, unknown>): Promise<void>;
  /** Moves whenever settings change in any process. */
  changeToken(): number;
}

/** What an endpoint refused at run time (a parameter or feature), kept so later requests leave it out. */
export interface StoredRefusal {
  endpointId: string;
  parameter: string;
  message: string;
  learned_at: string;
}

/** The learned-capabilities domain's storage. */
export interface RefusalStorage {
  all(): Promise<StoredRefusal[]>;
  /** Stores a refusal, replacing one of the same endpoint and parameter. */
  put(refusal: StoredRefusal): Promise<void>;
  /** Forgets what an endpoint refused. */
  forget(endpointId: string): Promise<void>;
  /** Moves whenever refusals change in any process. */
  changeToken(): number;
}

/** When each provider's key was last set (the key itself is in the secret store, never here). */
export interface ProviderKeyDates {
  get(provider: string): Promise<string | undefined>;
  set(provider: string, at: string): Promise<void>;
  remove(provider: string): Promise<void>;
}

/** One minute of an endpoint's figures: counts, and HDR histograms (compressed, base64) when any. */
export interface MinuteFigures {
  endpointId: string;
  /** Minutes since the epoch. */
  minute: number;
  attempts: number;
  faults: number;
  latency: string | null;
  throughput: string | null;
  /** The instance that measured them, where a team's instances share the store; absent where one process writes. */
  instance?: string;
}

/** A failed upstream attempt, logged one by one with its message. */
export interface FailedAttempt {
  requestId: string;
  endpointId: string;
  startedAt: number;
  ttfbMs: number | null;
  firstTokenMs: number | null;
  totalMs: number;
  inputTokens: number | null;
  outputTokens: number | null;
  outcome: string;
  providerFault: boolean;
  message: string | null;
}

/** The endpoint-metrics domain's storage. Writes here are figures nobody was promised: written behind. */
export interface MetricsStorage {
  logFailure(attempt: FailedAttempt): void;
  /** Replaces what was saved for the endpoint and minute. */
  saveMinute(figures: MinuteFigures): void;
  /** Every endpoint's minutes after `minute`, oldest first. */
  minutesAfter(minute: number): Promise<MinuteFigures[]>;
  /**
   * The minutes other instances saved after `minute` that changed since `cursor` (the store's clock,
   * ms), with the cursor to ask from next. Where one process writes there are none.
   */
  minutesOfOthers(instance: string, cursor: number, minute: number): Promise<{ rows: MinuteFigures[]; cursor: number }>;
  /** Per endpoint, when its last provider-fault attempt started after `since` ended (ms since the epoch). */
  lastFaults(since: number): Promise<{ endpointId: string; at: number }[]>;
  /** Forgets minutes before `minute` and failures started before `startedAt`. */
  prune(minute: number, startedAt: number): Promise<void>;
  /** Resolves once what was written behind is stored. */
  flush(): Promise<void>;
}

/** A saved question set as stored; `request` is what was saved, checked again by the domain when read. */
export interface StoredQuestionSet {
  id: string;
  name: string;
  request: unknown;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  /** Offered on first start; removable with the samples. */
  sample: boolean;
}

/** The question-sets domain's storage. */
export interface QuestionSetStorage {
  /** Sets not deleted, the most recently updated first. */
  live(): Promise<StoredQuestionSet[]>;
  get(id: string): Promise<StoredQuestionSet | undefined>;
  add(set: StoredQuestionSet): Promise<void>;
  /** Replaces a set's name and request, and brings it back if it was deleted. */
  update(id: string, change: { name: string; request: unknown; updated_at: string }): Promise<void>;
  /** Marks a set deleted at `at`, or not deleted (null). */
  setDeleted(id: string, at: string | null): Promise<void>;
  /** Removes the sample sets for good; how many went. */
  removeSamples(): Promise<number>;
}

/**
 * A named cascade as stored: where a request goes when `when` holds on the first model's answers.
 * `when` is what was saved, checked again by the domain when read.
 */
export interface StoredCascadePreset {
  name: string;
  /** The model asked again when the condition holds. */
  model: string;
  /** The model asked first, when the preset names one (else the request's own model is). */
  first_model: string | null;
  when: unknown;
  /** Where the threshold came from (a run, its models and what the curve said there), or null. */
  source: unknown;
  created_at: string;
  updated_at: string;
}

/** The cascade presets' storage: one preset per name. */
export interface CascadePresetStorage {
  /** Every preset, by name. */
  list(): Promise<StoredCascadePreset[]>;
  get(name: string): Promise<StoredCascadePreset | undefined>;
  /** Adds the preset, or replaces the one of that name (keeping when it was created). */
  put(preset: StoredCascadePreset): Promise<void>;
  /** Removes the preset of that name; whether there was one. */
  remove(name: string): Promise<boolean>;
}

/** A decision request as recorded: a run from the inspector (with its content) or an API call of an earlier version (metadata only). */
export interface StoredRun {
  id: string;
  /** ms since the epoch */
  created_at: number;
  origin: 'api' | 'inspector';
  key_id: string | null;
  session_id: string | null;
  user: string | null;
  model: string;
  provider: string | null;
  endpoint_id: string | null;
  /** HTTP status of the outcome: 200 answered, 499 cancelled, else failed. */
  status: number;
  latency_ms: number;
  input_tokens: number | null;
  output_tokens: number | null;
  cost: number | null;
  methods: Record<string, string> | null;
  question_count: number;
  request: unknown;
  response: unknown;
  set_id: string | null;
  label: string | null;
  routing: unknown;
}

/** Which of the inspector's runs to list, newest first. */
export interface RunFilter {
  set_id?: string | undefined;
  model?: string | undefined;
  /** 'running': none (a stored run has ended). */
  status?: 'done' | 'cancelled' | 'failed' | 'running' | undefined;
  limit: number;
}

/** The runs domain's storage: the inspector's runs and the API records of earlier versions. */
export interface RunStorage {
  add(run: StoredRun): Promise<void>;
  /** An inspector run. */
  get(id: string): Promise<StoredRun | undefined>;
  list(filter: RunFilter): Promise<StoredRun[]>;
  /** Removes an inspector run; whether there was one. */
  remove(id: string): Promise<boolean>;
  /** Removes API records created before `cutoff`; how many went. */
  forgetApiRecordsBefore(cutoff: number): Promise<number>;
  /** Per model, answered requests with known tokens: how many, and their tokens summed. */
  answeredTokens(): Promise<{ model: string; requests: number; input: number; output: number; cost: number; priced: number }[]>;
}

/** A place in the request log: a day's file and a byte offset in it. */
export interface LogPlace {
  file: string;
  offset: number;
}

/**
 * Spend that versions before spend moved to the keys left only in the request log after their
 * checkpoint: added to the keys' spend once, the flag and the spend together (a crash halfway changes
 * nothing). Only SQLite data directories of those versions have any.
 */
export interface LegacySpendStorage {
  /** Calls `spendAfter` (USD per key id in the log after the checkpoint) and adds it, once ever. */
  foldOnce(spendAfter: (checkpoint: LogPlace | null) => Map<string, number>): Promise<void>;
}

/** A labelled dataset, ready to use (one still importing is not listed). */
export interface StoredDataset {
  id: string;
  name: string;
  /** how many items it has */
  items: number;
  created_at: string;
  /** one of the samples shipped with the app */
  sample: boolean;
}

/** One item of a dataset: its content and the answers it should get. */
export interface StoredItem {
  position: number;
  id: string;
  state: unknown;
  expected: Record<string, unknown>;
}

/** Expected answers of a dataset grouped by question and value: how many items give it, and one of them. */
export interface StoredExpectedGroup {
  name: string;
  /** the value; objects and arrays (boxes) are grouped by question alone, one of them given */
  value: unknown;
  items: number;
  example: string;
}

/** The datasets domain's storage: datasets and their items. */
export interface DatasetStorage {
  /** Drops datasets whose import never finished (a process killed while importing). */
  dropUnfinished(): Promise<void>;
  /** Ready datasets, newest first. */
  list(): Promise<StoredDataset[]>;
  /** A ready dataset. */
  get(id: string): Promise<StoredDataset | undefined>;
  /** Starts an import: the dataset is not listed until `finishImport`. */
  beginImport(dataset: { id: string; name: string; created_at: string }): Promise<void>;
  /** Adds items to a dataset being imported, all in one transaction. */
  appendItems(datasetId: string, items: readonly StoredItem[]): Promise<void>;
  /** Makes an import ready with its item count. */
  finishImport(datasetId: string, items: number): Promise<void>;
  /** A ready dataset with its items, stored together or not at all. */
  create(dataset: StoredDataset, items: readonly StoredItem[]): Promise<void>;
  /**
   * Adds items after the dataset's last one, each id made unique among the dataset's as "id (2)",
   * "id (3)"…, with empty expected answers, and counts them, in one transaction; the ids given.
   */
  addItems(datasetId: string, items: readonly { id: string; state: unknown }[]): Promise<{ position: number; id: string }[]>;
  /** Removes a dataset and its items (and what other domains keep of it, by the database's cascades); whether there was one. */
  remove(id: string): Promise<boolean>;
  /** A page of items in order, with how many match; `search` matches the id or the content's text. */
  page(datasetId: string, page: { offset: number; limit: number; search?: string | undefined }): Promise<{ total: number; items: StoredItem[] }>;
  /** Up to `limit` items after position `after` (-1: from the first), in order. */
  itemsAfter(datasetId: string, after: number, limit: number): Promise<StoredItem[]>;
  item(datasetId: string, position: number): Promise<StoredItem | undefined>;
  /** Every item's position, id and expected answers, in order, without their content (one position only when given). */
  expectations(datasetId: string, position?: number): Promise<{ position: number; id: string; expected: Record<string, unknown> }[]>;
  /** Positions of the `n` items with the longest stored content, longest first (then by position). */
  largest(datasetId: string, n: number): Promise<number[]>;
  expectedGroups(datasetId: string): Promise<StoredExpectedGroup[]>;
  /** Replaces an item's expected answers; whether there was the item. */
  setExpected(datasetId: string, position: number, expected: Record<string, unknown>): Promise<boolean>;
  /** The first `chars` characters of an item's content as stored (JSON). */
  contentHead(datasetId: string, position: number, chars: number): Promise<string | undefined>;
  /** Ready datasets whose first item's content has an image in its first 200 characters as stored. */
  withImageFirst(): Promise<string[]>;
  /** Moves whenever items change, in any process; what was read before it moved must be read again. */
  changeToken(): number;
}

/**
 * The evaluations domain's four ports sit beside their parts: the run book's runs, the read side's
 * results, the sender's writes, leases and claims, and saved calibrations.
 */
export type { EvalRunStorage, StoredEvalRun } from '../evaluations/runs/storage';
export type { CopiedEvalResult, EvalCounts, EvalResultStorage, StoredEvalResult } from '../evaluations/results/storage';
export type { EvalBudgetAnswer, EvalRunPace, EvalWork, EvalWorkStorage, NewEvalFailure, NewEvalResult } from '../evaluations/sending/storage';
export type { CalibrationStorage, StoredCalibration } from '../evaluations/calibration/storage';

/** An image added to Boxes before datasets kept images (the old review table). */
export interface StoredBoxItem {
  id: string;
  name: string;
  /** '' when listed without images */
  data_url: string;
  truth: unknown[];
  answer: unknown;
  answers: Record<string, unknown>;
  model: string | null;
  run_id: string | null;
  verdict: 'accepted' | 'rejected' | null;
  verdict_run_id: string | null;
  note: string;
  width: number | null;
  height: number | null;
  created_at: string;
}

/** A box verdict on one item of a dataset, for one model and question ('' the whole image). */
export interface StoredVerdict {
  item_id: string;
  question: string;
  /** '' when the model is not known */
  model: string;
  verdict: 'accepted' | 'rejected' | null;
  note: string;
  /** the boxes judged, by question, as written (JSON text, compared as text) */
  answers: string;
  /** the truth judged against, as written (JSON text); null before it was kept */
  truth: string | null;
  run_id: string | null;
  variant: number;
  /** when the answer judged was given (null: not known) */
  answered_at: string | null;
  updated_at: string;
}

/** A verdict replaced or cleared, with its note. */
export interface StoredVerdictEnd {
  question: string;
  verdict: 'accepted' | 'rejected';
  note: string;
  given_at: string;
  ended_at: string;
}

/** The boxes domain's storage: images of the old review table, box verdicts and their history, image sizes. */
export interface BoxStorage {
  listItems(options: { images: boolean }): Promise<StoredBoxItem[]>;
  getItem(id: string): Promise<StoredBoxItem | undefined>;
  addItem(item: StoredBoxItem): Promise<void>;
  putItem(item: StoredBoxItem): Promise<void>;
  removeItem(id: string): Promise<void>;
  /** A dataset's verdicts, of these models, one item only when given; by item, then question, then model. */
  verdicts(datasetId: string, models: readonly string[], itemId?: string): Promise<StoredVerdict[]>;
  /** Every verdict of a dataset, by item, question and model (backups). */
  allVerdicts(datasetId: string): Promise<StoredVerdict[]>;
  /** The newest 20 verdicts of an item and model that were replaced or cleared, newest first. */
  history(datasetId: string, itemId: string, model: string): Promise<StoredVerdictEnd[]>;
  /**
   * Changes one item's verdicts of one model in one transaction: `change` gets that model's rows and
   * those of no known model ('') and returns the model's rows as they are to be, and the rows that
   * ended (kept in the history, when they had a verdict, as ended at `at`). A throw in it writes nothing.
   */
  changeVerdicts(
    datasetId: string,
    itemId: string,
    model: string,
    change: (mine: StoredVerdict[], unknownModel: StoredVerdict[]) => { rows: StoredVerdict[]; ended: StoredVerdict[]; at: string },
  ): Promise<void>;
  /** Adds verdicts as they are (from a backup or the old review table), replacing any on the same item, question and model. */
  putVerdicts(datasetId: string, verdicts: readonly StoredVerdict[]): Promise<void>;
  /** Every ended verdict of a dataset, oldest first (copies between stores). */
  allHistory(datasetId: string): Promise<(StoredVerdictEnd & { item_id: string; model: string })[]>;
  /** Adds ended verdicts in the order given, in one transaction. */
  putHistory(datasetId: string, rows: readonly (StoredVerdictEnd & { item_id: string; model: string })[]): Promise<void>;
  /** Image sizes by item id (nulls: the header could not be read). */
  imageSizes(datasetId: string): Promise<Map<string, { width: number | null; height: number | null }>>;
  keepImageSizes(datasetId: string, sizes: readonly { item_id: string; width: number | null; height: number | null }[]): Promise<void>;
}

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

/** Which entries of the audit log to read, newest first. */
export interface AuditFilter {
  offset: number;
  limit: number;
  actorKind?: AuditActorKind | undefined;
  actorKeyId?: string | undefined;
  targetKind?: AuditTargetKind | undefined;
}

/** The audit domain's storage: an append-only log of who changed keys, limits, sets and datasets. */
export interface AuditStorage {
  /** Adds an entry; resolves once it is durable. Entries are never changed or removed. */
  append(entry: AuditEntry): Promise<void>;
  /** A page of the entries that match, newest first (by `at`, then the order they were added), and how many match in all. */
  list(filter: AuditFilter): Promise<{ total: number; entries: AuditEntry[] }>;
}

/** A browser's sign-in with a management key: only a SHA-256 of its token is stored, never the token or the key. */
export interface StoredSession {
  tokenHash: Buffer;
  keyId: string;
  created_at: string;
  expires_at: string;
}

/** The sign-in sessions of the web UI, shared by every instance that shares the database. */
export interface SessionStorage {
  add(session: StoredSession): Promise<void>;
  /** The session with this token hash, expired or not (the caller judges); undefined when there is none. */
  get(tokenHash: Buffer): Promise<StoredSession | undefined>;
  /** Removes a session (signing out); whether there was one. */
  remove(tokenHash: Buffer): Promise<boolean>;
  /** Removes sessions that expired at or before `at` (ISO time); how many went. */
  removeExpired(at: string): Promise<number>;
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
