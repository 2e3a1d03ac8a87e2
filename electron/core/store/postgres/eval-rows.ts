/** What the evaluations' Postgres stores share: runs and results as rows, and back (JSON as the text SQLite keeps). */
import type { StoredEvalResult, StoredEvalRun } from '../ports';

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

export interface ResultRow extends Omit<StoredEvalResult, 'answers' | 'raw_answers' | 'methods' | 'attempts'> {
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
  ...r,
  request: JSON.parse(r.request) as unknown,
  variants: JSON.parse(r.variants) as StoredEvalRun['variants'],
  calibrations: json(r.calibrations),
  estimate: json(r.estimate),
});

export const RESULT =
  'SELECT variant, position, ok, answers, raw_answers, methods, attempts, provider, input_tokens, output_tokens, cost, latency_ms, error, answered_at FROM eval_results';

export const toResult = (r: ResultRow): StoredEvalResult => ({
  ...r,
  answers: JSON.parse(r.answers) as Record<string, unknown>,
  raw_answers: json(r.raw_answers),
  methods: json(r.methods),
  attempts: json(r.attempts),
});
