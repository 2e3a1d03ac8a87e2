import type { ApiKeyKind } from '../../../shared/schemas/inspector';

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
  /** Marks a key revoked at `at` unless it already is; the key as it is after, or undefined when unknown. */
  revoke(id: string, at: string): Promise<ApiKeyRecord | undefined>;
  /** Adds `usd` to a key's spend; resolves once durable. Charges made in one turn of the event loop share a commit. */
  charge(id: string, usd: number): Promise<void>;
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
  answeredTokens(): Promise<{ model: string; requests: number; input: number; output: number }[]>;
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
