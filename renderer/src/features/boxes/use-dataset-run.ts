import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { EvalEstimate, EvalRun } from '../../../../shared/schemas/evaluation';
import { call } from '../../transport/transport';
import { clickOnce } from '../../lib/send-once';
import { evalKeys, evalRunsQuery, sameRunPlaceholder, useAnnounceRunEnd } from '../evaluations';
import type { BoxQuestion } from './review';

export interface DatasetRunArgs {
  datasetId: string;
  model: string;
  questions: readonly BoxQuestion[];
  runId: string | null;
  variant: number;
  onAnswers: (runId: string | null, variant: number) => void;
}

/** The dataset's runs and the one under review: it follows the newest run until the reviewer picks one. */
function useReviewedRun(datasetId: string, runId: string | null, onAnswers: DatasetRunArgs['onAnswers']) {
  const runs = useQuery(evalRunsQuery());
  const [picked, setPicked] = useState(false);
  const mine = (runs.data ?? []).filter((r) => r.dataset_id === datasetId);
  const run = mine.find((r) => r.id === runId) ?? null;
  useEffect(() => {
    // The newest run's answers until the reviewer picks, and again when the picked run is deleted.
    if (!runs.data || run || (picked && runId === null)) return;
    if ((mine[0]?.id ?? null) !== runId) onAnswers(mine[0]?.id ?? null, 0);
  }, [runs.data, run, mine, runId, picked, onAnswers]);
  return { mine, run, setPicked };
}

/** The run's report: while it runs, fetched about twenty times in all (as in Evaluations), not at every poll. */
function useRunReport(run: EvalRun | null) {
  const step = Math.max(1, Math.ceil((run?.total ?? 1) / 20));
  const reported = run ? (run.status === 'running' ? Math.floor(run.done / step) * step : run.done) : 0;
  return useQuery({
    queryKey: evalKeys.report(run?.id ?? '', reported),
    queryFn: () => call('evals.report', { id: run!.id }),
    enabled: run !== null && run.done > 0,
    placeholderData: sameRunPlaceholder(run?.id ?? ''),
  });
}

/**
 * The state and requests behind "Run over the dataset": concurrency and budget, the estimate (for the
 * input it was made for), starting a run, pausing and resuming it, and the report of the run under review.
 */
export function useDatasetRun({ datasetId, model, questions, runId, variant, onAnswers }: DatasetRunArgs) {
  const queryClient = useQueryClient();
  const [concurrency, setConcurrency] = useState(4);
  const [budget, setBudget] = useState('');
  const [estimated, setEstimated] = useState<{ of: string; estimate: EvalEstimate } | null>(null);
  const { mine, run, setPicked } = useReviewedRun(datasetId, runId, onAnswers);
  // One request at a time from these controls. A double click starts one run, not two: its second
  // click is ignored (`firstClick`) even when the run has started and answered before it comes.
  const held = useRef(false);
  const startHeld = useRef(false);
  const startOnce = clickOnce(startHeld, () => starting.mutateAsync());
  const input = () => ({
    request: { model, state: '', questions: Object.fromEntries(questions.map((q) => [q.name, { type: 'box' as const, instructions: q.instructions }])) },
    dataset_id: datasetId,
    variants: [{ model }],
  });
  // An estimate is shown only for the model, questions and dataset it was made for: they change under it as the reviewer works.
  const inputKey = JSON.stringify({ ...input(), concurrency });
  const estimating = useMutation({
    mutationFn: async () => ({ of: inputKey, estimate: await call('evals.estimate', { ...input(), concurrency }) }),
    onSuccess: setEstimated,
  });
  const estimate = estimated?.of === inputKey ? estimated.estimate : null;
  const starting = useMutation({
    mutationFn: () => call('evals.start', { ...input(), name: `Boxes: ${model}`, concurrency, ...(budget ? { budget_usd: Number(budget) } : {}) }),
    onSuccess: (started) => {
      // In the list before it is fetched again, so the answers under review stay on the new run.
      queryClient.setQueryData<EvalRun[]>(evalKeys.runs, (old) => [started, ...(old ?? []).filter((r) => r.id !== started.id)]);
      onAnswers(started.id, 0);
      return queryClient.invalidateQueries({ queryKey: evalKeys.runs });
    },
  });
  const control = useMutation({
    mutationFn: (action: 'evals.pause' | 'evals.resume') => call(action, { id: run!.id }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: evalKeys.runs }),
  });
  const report = useRunReport(run);
  useAnnounceRunEnd(run);
  const metrics = Object.entries(report.data?.models[variant]?.questions ?? {}).filter(([, m]) => m.type === 'box');
  return { concurrency, setConcurrency, budget, setBudget, estimate, estimating, starting, startOnce, control, held, mine, run, setPicked, metrics };
}
