/** What the evaluations' SQLite stores share: runs and results as rows, and back. */
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

export interface ResultRow {
  variant: number;
  position: number;
  ok: number;
  answers: string;
  raw_answers: string | null;
  methods: string | null;
  attempts: string | null;
  provider: string | null;
  input_tokens: number;
  output_tokens: number;
  cost: number | null;
  latency_ms: number;
  error: string | null;
  answered_at: string | null;
}

export const json = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T));

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
  ok: r.ok === 1,
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
