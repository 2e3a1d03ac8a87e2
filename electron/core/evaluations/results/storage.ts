/** The read side's storage: the results of evaluation runs, as the sender stored them. */

/** A model's newest answer to one item of a dataset, and the run and variant it came from. */
export interface NewestAnswer {
  position: number;
  run_id: string;
  variant: number;
  at: string;
  answers: Record<string, unknown>;
}

/** One item's result for one variant of a run. */
export interface StoredEvalResult {
  variant: number;
  position: number;
  ok: boolean;
  /** answers as used (calibrated); {} when failed */
  answers: Record<string, unknown>;
  /** answers as the model gave them, when a calibration changed them */
  raw_answers: Record<string, unknown> | null;
  methods: Record<string, string> | null;
  attempts: unknown[] | null;
  provider: string | null;
  input_tokens: number;
  output_tokens: number;
  cost: number | null;
  latency_ms: number;
  error: string | null;
  /** when it was answered (the run's start for results stored before that was kept) */
  answered_at: string | null;
}

/** A result as copied between stores: everything stored, the bookkeeping of tries included. */
export interface CopiedEvalResult extends StoredEvalResult {
  tries: number;
  retryable: boolean;
  model_key: string | null;
  content_chars: number;
}

/** Counts of a run's results. */
export interface EvalCounts {
  done: number;
  failed: number;
  /** USD, known costs summed */
  spent: number;
}

/** Results of evaluation runs, read (they are written by the sender, `EvalWorkStorage`). */
export interface EvalResultStorage {
  counts(runId: string): Promise<EvalCounts>;
  /** Failed results that were not refused as malformed and were sent fewer than `maxTries` times. */
  retryableCount(runId: string, maxTries: number): Promise<number>;
  /** Tries of each stored result, by `position * 1024 + variant`: retryable failures under `maxTries` give their tries, anything else 0. */
  triesByItem(runId: string, maxTries: number): Promise<Map<number, number>>;
  /** Every result of a run, by position then variant. */
  results(runId: string): Promise<StoredEvalResult[]>;
  /** One position's results of a run, by variant (one variant only when given). */
  resultsAt(runId: string, position: number, variant?: number): Promise<StoredEvalResult[]>;
  /** Answered results of one variant, by position. */
  answersOf(runId: string, variant: number): Promise<{ position: number; answers: Record<string, unknown>; answered_at: string | null }[]>;
  /** Per variant, answered results: how many, their known costs summed (null when none is known) and how many costs are unknown, tokens and content characters summed. */
  answeredByVariant(runId: string): Promise<{ variant: number; n: number; cost: number | null; unknown: number; tokens: number; chars: number }[]>;
  /**
   * The newest answer of a model (by variantKey) to each item of a dataset over every run of it,
   * one position only when given.
   */
  newestAnswers(datasetId: string, modelKey: string, position?: number): Promise<NewestAnswer[]>;
  /**
   * How long a model's newest `newest` answered items of any run took (each result's time from
   * sending to its answer, ms), their tokens (input and output) and the providers that answered
   * them (names joined by ", " when several did), newest first.
   */
  recentItemTimes(modelKey: string, newest: number): Promise<{ ms: number; tokens: number; provider: string | null }[]>;
  /** Per model (the variant's model, unlabelled), answered results with their tokens summed. */
  answeredTokens(): Promise<{ model: string; requests: number; input: number; output: number; cost: number; priced: number }[]>;
  /** Every result of a run as stored (copies between stores), by position then variant. */
  exportResults(runId: string): Promise<CopiedEvalResult[]>;
  /** Writes results as they were stored elsewhere, in one transaction (the run must be there). */
  importResults(runId: string, results: readonly CopiedEvalResult[]): Promise<void>;
  /** Moves whenever results change, in any process. */
  changeToken(): number;
}
