/**
 * What the evaluations domain's four storage contracts share: the backends they run on (runs are over
 * datasets, so those are there too), and a run, an answer and a failure as a test writes them.
 */
import { PgDatasetStore } from '../core/store/postgres/dataset-store';
import { pgEvaluationStorage } from '../core/store/postgres/eval-store';
import type { DatasetStorage, EvaluationStorage, NewEvalFailure, NewEvalResult, StoredEvalResult, StoredEvalRun } from '../core/store/ports';
import { SqliteDatasetStore } from '../core/store/sqlite/dataset-store';
import { sqliteEvaluationStorage } from '../core/store/sqlite/eval-store';
import type { Makers } from './store-backends';

export interface EvaluationPorts extends EvaluationStorage {
  datasets: DatasetStorage;
}

/** Both backends' evaluation ports, beside the datasets their runs are over. */
export const evaluationPorts: Makers<EvaluationPorts> = {
  sqlite: (store) => ({ datasets: new SqliteDatasetStore(store), ...sqliteEvaluationStorage(store) }),
  postgres: async (db) => ({ datasets: await PgDatasetStore.open(db), ...(await pgEvaluationStorage(db)) }),
};

export const run = (id: string, created_at: string, over: Partial<StoredEvalRun> = {}): StoredEvalRun => ({
  id,
  name: `run ${id}`,
  dataset_id: 'ds',
  set_key: 'set-1',
  request: { model: 'sandbox/baseline-text', questions: { urgent: { type: 'noul' }, category: { type: 'enum', options: ['a', 'b'] } } },
  variants: [{ model: 'openai/gpt-5', label: 'fast' }, { model: 'groq/llama' }],
  concurrency: 4,
  budget_usd: 2.5,
  status: 'running',
  message: null,
  created_at,
  finished_at: null,
  calibrations: [{ variant: 0, question: 'urgent', temperature: 1.5 }],
  baseline_id: null,
  estimate: { expected_usd: 1.25, input_tokens: 1000 },
  ...over,
});

export const answer = (variant: number, position: number, over: Partial<NewEvalResult> = {}): NewEvalResult => ({
  variant,
  position,
  answers: { urgent: true },
  raw_answers: null,
  methods: null,
  attempts: null,
  provider: 'openai',
  input_tokens: 100,
  output_tokens: 20,
  cost: 0.5,
  latency_ms: 1200.5,
  error: null,
  model_key: variant === 0 ? 'openai/gpt-5 (fast)' : 'groq/llama',
  content_chars: 40,
  answered_at: '2026-01-01T00:01:00.000Z',
  ...over,
});

export const failure = (variant: number, position: number, over: Partial<NewEvalFailure> = {}): NewEvalFailure => ({
  variant,
  position,
  input_tokens: 10,
  output_tokens: 1,
  cost: 0.125,
  latency_ms: 300,
  error: 'upstream timed out',
  retryable: true,
  model_key: variant === 0 ? 'openai/gpt-5 (fast)' : 'groq/llama',
  content_chars: 40,
  answered_at: '2026-01-01T00:00:30.000Z',
  ...over,
});

/** A result as read back: what was stored, ok or not. */
export const stored = (r: NewEvalResult | NewEvalFailure, ok: boolean, over: Partial<StoredEvalResult> = {}): StoredEvalResult => ({
  variant: r.variant,
  position: r.position,
  ok,
  answers: 'answers' in r ? r.answers : {},
  raw_answers: 'raw_answers' in r ? r.raw_answers : null,
  methods: 'methods' in r ? r.methods : null,
  attempts: 'attempts' in r ? r.attempts : null,
  provider: 'provider' in r ? r.provider : null,
  input_tokens: r.input_tokens,
  output_tokens: r.output_tokens,
  cost: r.cost,
  latency_ms: r.latency_ms,
  error: r.error,
  answered_at: r.answered_at,
  ...over,
});

export async function withDataset(datasets: DatasetStorage, id = 'ds', created_at = '2026-01-01T00:00:00.000Z'): Promise<void> {
  await datasets.create({ id, name: id, items: 0, created_at, sample: false }, []);
}
