// The captures domain's storage. Implemented by store/sqlite and store/postgres; gathered into Storage by store/ports.ts.

/** A capture rule as stored; `when` is what was saved, checked again by the domain when read. */
export interface StoredCaptureRule {
  id: string;
  name: string;
  dataset_id: string;
  key_ids: string[] | null;
  question_set_id: string | null;
  question_signature: string | null;
  models: string[] | null;
  when: unknown;
  sample_rate: number;
  daily_cap: number;
  retention_days: number;
  keep_images: boolean;
  created_at: string;
}

/** How a captured request went, for the monitor (null on captures made before it was kept). */
export interface CaptureOutcome {
  /** from the call's arrival to its answer, milliseconds */
  latency_ms: number;
  /** a cascade sent it on to its next model */
  escalated: boolean;
  /** a cascade's human stage holds it: its answers are provisional until a person reviews them */
  provisional: boolean;
  /** the questions the model declined to answer */
  refused: string[];
}

/** A captured request on its way to the rule's dataset: the item's content and the answers as predictions. */
export interface NewCapture {
  /** The dataset item's id: the request's id. */
  request_id: string;
  state: unknown;
  key_id: string;
  model: string;
  provider: string | null;
  cost: number | null;
  captured_at: string;
  questions: unknown;
  answers: unknown;
  outcome: CaptureOutcome | null;
}

/** A captured item's prediction as stored, by the item's position in the rule's dataset. */
export interface StoredCapture extends Omit<NewCapture, 'state'> {
  position: number;
  rule_id: string;
}

/** The captures' storage: rules, and the items they add to datasets with their predictions. */
export interface CaptureStorage {
  /** Every rule, oldest first, with the name of its dataset. */
  list(): Promise<(StoredCaptureRule & { dataset_name: string })[]>;
  get(id: string): Promise<StoredCaptureRule | undefined>;
  add(rule: StoredCaptureRule): Promise<void>;
  /** Removes a rule (its dataset and items stay); whether there was one. */
  remove(id: string): Promise<boolean>;
  /**
   * Adds captures to the rule's dataset as items (with empty expected answers) and their
   * predictions, in one transaction, as long as the rule has taken fewer than its daily cap on
   * `day` (a UTC date, compared with the start of each capture's time) in every process: what is
   * past the cap is dropped. How many were kept; 0 when the rule or its dataset is gone.
   */
  append(ruleId: string, day: string, captures: readonly NewCapture[]): Promise<number>;
  /** How many items each rule holds, and how many it captured on `day`. */
  counts(day: string): Promise<Map<string, { today: number; total: number }>>;
  /** How many each rule captured on `day` alone (read every few seconds: the day's rows only, by index). */
  takenOn(day: string): Promise<Map<string, number>>;
  /** Deletes a rule's items captured before `before` (an ISO time), with their predictions; how many. */
  expire(ruleId: string, before: string): Promise<number>;
  /** The predictions of a dataset's captured items, by position (every one when `positions` is null). */
  predictions(datasetId: string, positions: readonly number[] | null): Promise<StoredCapture[]>;
  /** What a rule captured from `from` (inclusive) to `to` (exclusive, ISO times): the newest `limit`, newest first. */
  between(ruleId: string, from: string, to: string, limit: number): Promise<StoredCapture[]>;
  /** Keeps predictions of items a dataset already holds, as a store copy carries them. */
  putPredictions(datasetId: string, captures: readonly StoredCapture[]): Promise<void>;
}
