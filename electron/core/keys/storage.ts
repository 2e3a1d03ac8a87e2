import type { ApiKeyKind } from '../../../shared/schemas/inspector';

// The keys domain's storage: API keys (a hash of each, never the key) and their spend. Implemented by store/sqlite and store/postgres; gathered into Storage by store/ports.ts.

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
