/**
 * What the evaluations' stores on both backends share: runs and results as rows, and back. Both keep
 * JSON as text; SQLite keeps `ok` as 0 or 1, Postgres as a boolean.
 */
import type { CopiedEvalResult, NewEvalFailure, NewEvalResult, StoredCalibration, StoredEvalResult, StoredEvalRun } from './ports';

export interface RunRow {
  id: string;
  name: string;
  dataset_id: string;
  set_key: string;
  request: string;
  variants: string;
  concurrency: number;
  budget_usd: number | null;
  status: StoredEvalRun['status'];
  message: string | null;
  created_at: string;
  finished_at: string | null;
  calibrations: string | null;
  baseline_id: string | null;
  estimate: string | null;
}

/** A stored result with its JSON fields as text and `ok` as the backend keeps it. */
export interface ResultRow extends Omit<StoredEvalResult, 'ok' | 'answers' | 'raw_answers' | 'methods' | 'attempts'> {
  ok: number | boolean;
  answers: string;
  raw_answers: string | null;
  methods: string | null;
  attempts: string | null;
}

export const json = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T));
export const text = (value: unknown): string | null => (value === null || value === undefined ? null : JSON.stringify(value));

export const RUN =
  'SELECT id, name, dataset_id, set_key, request, variants, concurrency, budget_usd, status, message, created_at, finished_at, calibrations, baseline_id, estimate FROM eval_runs';

export const toRun = (r: RunRow): StoredEvalRun => ({
  id: r.id,
  name: r.name,
  dataset_id: r.dataset_id,
  set_key: r.set_key,
  request: JSON.parse(r.request) as unknown,
  variants: JSON.parse(r.variants) as StoredEvalRun['variants'],
  concurrency: r.concurrency,
  budget_usd: r.budget_usd,
  status: r.status,
  message: r.message,
  created_at: r.created_at,
  finished_at: r.finished_at,
  calibrations: json(r.calibrations),
  baseline_id: r.baseline_id,
  estimate: json(r.estimate),
});

export const toResult = (r: ResultRow): StoredEvalResult => ({
  variant: r.variant,
  position: r.position,
  ok: r.ok === true || r.ok === 1,
  answers: JSON.parse(r.answers) as Record<string, unknown>,
  raw_answers: json(r.raw_answers),
  methods: json(r.methods),
  attempts: json(r.attempts),
  provider: r.provider,
  input_tokens: r.input_tokens,
  output_tokens: r.output_tokens,
  cost: r.cost,
  latency_ms: r.latency_ms,
  error: r.error,
  answered_at: r.answered_at,
});

export const RESULT =
  'SELECT variant, position, ok, answers, raw_answers, methods, attempts, provider, input_tokens, output_tokens, cost, latency_ms, error, answered_at FROM eval_results';

/** A column's value as both backends take it. */
type Value = string | number | null;

/** A run's values in the order of `INSERT INTO eval_runs (id, name, ..., estimate)`. */
export const runValues = (r: StoredEvalRun): Value[] => [
  r.id,
  r.name,
  r.dataset_id,
  r.set_key,
  JSON.stringify(r.request),
  JSON.stringify(r.variants),
  r.concurrency,
  r.budget_usd,
  r.status,
  r.message,
  r.created_at,
  r.finished_at,
  text(r.calibrations),
  r.baseline_id,
  text(r.estimate),
];

/** An answer's values in the order of `INSERT INTO eval_results (run_id, variant, position, answers, ..., content_chars)` without ok and error. */
export const answerValues = (
  runId: string,
  r: Omit<NewEvalResult, 'model_key' | 'answered_at'> & { model_key: string | null; answered_at: string | null },
): Value[] => [
  runId,
  r.variant,
  r.position,
  JSON.stringify(r.answers),
  text(r.raw_answers),
  text(r.methods),
  text(r.attempts),
  r.provider,
  r.input_tokens,
  r.output_tokens,
  r.cost,
  r.latency_ms,
  r.answered_at,
  r.model_key,
  r.content_chars,
];

/** A failure's values in the order of `INSERT INTO eval_results (run_id, variant, position, input_tokens, ..., content_chars)` without ok; `flag` writes a boolean as the backend keeps it. */
export const failureValues = <Flag>(runId: string, r: NewEvalFailure, flag: (value: boolean) => Flag): (Value | Flag)[] => [
  runId,
  r.variant,
  r.position,
  r.input_tokens,
  r.output_tokens,
  r.cost,
  r.latency_ms,
  r.error,
  flag(r.retryable),
  r.answered_at,
  r.model_key,
  r.content_chars,
];

/**
 * A copied result's values in the order of `INSERT INTO eval_results (run_id, variant, position,
 * answers, ..., content_chars, ok, error, tries, retryable)`: an answer's values, then the rest.
 */
export const copiedValues = <Flag>(runId: string, r: CopiedEvalResult, flag: (value: boolean) => Flag): (Value | Flag)[] => [
  ...answerValues(runId, r),
  flag(r.ok),
  r.error,
  r.tries,
  flag(r.retryable),
];

/** A calibration's values in the order of `INSERT INTO calibrations (set_key, model, question, temperature, created_at)`. */
export const calibrationValues = (c: StoredCalibration): [string, string, string, number, string] => [
  c.set_key,
  c.model,
  c.question,
  c.temperature,
  c.created_at,
];
