import { variantKeys } from '../../shared/evaluations/variant-keys';
import { storageOf } from './internals-of';
import type { TempCore } from './temp-core';

/** An evaluation run and its answers stored through the evaluations port, as the runner stores them (answered when the run started). */
export async function storedRun(
  env: TempCore,
  run: {
    id: string;
    datasetId: string;
    createdAt: string;
    request: unknown;
    variants: { model: string; label?: string }[];
    answers: { variant: number; position: number; answers: string }[];
    status?: 'done' | 'paused';
  },
): Promise<void> {
  await storageOf(env.core).evalRuns.addRun({
    id: run.id,
    name: run.id,
    dataset_id: run.datasetId,
    set_key: 'k',
    request: run.request,
    variants: run.variants,
    concurrency: 1,
    budget_usd: null,
    status: run.status ?? 'done',
    message: null,
    created_at: run.createdAt,
    finished_at: null,
    calibrations: null,
    baseline_id: null,
    estimate: null,
  });
  const keys = variantKeys(run.variants);
  for (const a of run.answers)
    await storageOf(env.core).evalWork.putAnswer(
      run.id,
      {
        variant: a.variant,
        position: a.position,
        answers: JSON.parse(a.answers) as Record<string, unknown>,
        raw_answers: null,
        methods: null,
        attempts: null,
        provider: null,
        input_tokens: 0,
        output_tokens: 0,
        cost: null,
        latency_ms: 1,
        error: null,
        answered_at: run.createdAt,
        model_key: keys[a.variant]!,
        content_chars: 0,
      },
      { replace: false },
    );
}
