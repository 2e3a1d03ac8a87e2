// The runs domain's storage: inspector runs, API records of earlier versions, and their legacy spend. Implemented by store/sqlite and store/postgres; gathered into Storage by store/ports.ts.

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
