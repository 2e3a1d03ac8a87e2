import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { EvalEstimate, EvalRun } from '../../../../shared/schemas/evaluation';
import { call } from '../../transport/transport';
import { clickOnce } from '../../lib/send-once';
import { ErrorNotice } from '../../ui/components';
import { costLines, evalKeys, evalRunsQuery, sameRunPlaceholder, useAnnounceRunEnd } from '../evaluations';
import { formatUsd } from '../../../../shared/money/format-usd';
import type { BoxQuestion } from './review';

interface Props {
  datasetId: string;
  model: string;
  questions: readonly BoxQuestion[];
  runnable: boolean;
  runId: string | null;
  variant: number;
  onAnswers: (runId: string | null, variant: number) => void;
}

/** A cost, or why there is none: a price on the route is unknown. */
const money = (usd: number | null) => (usd === null ? 'unknown (a price is unknown)' : formatUsd(usd));
const fixed = (v: unknown) => (typeof v === 'number' ? v.toFixed(3) : '–');

/** How far the run under review is: a progress bar with its value, not a live region (its end is announced once). */
function RunProgress({ run }: { run: EvalRun }) {
  const text = `${run.status === 'running' ? 'Running' : run.status}: ${run.done} of ${run.total} done${run.failed > 0 ? ` · ${run.failed} failed` : ''} · ${formatUsd(run.spent_usd)} spent`;
  return (
    <span
      role="progressbar"
      aria-label="Items done"
      aria-valuemin={0}
      aria-valuemax={run.total}
      aria-valuenow={run.done}
      aria-valuetext={text}
      className="small"
      data-testid="box-run-progress"
    >
      {text}
    </span>
  );
}

/**
 * "Run over the dataset" starts an evaluation run (the same runs as the Evaluations screen: an
 * estimate first if wanted, a budget, concurrency, progress, pause and resume after a restart);
 * the answers under review are one model's answers of one of the dataset's runs.
 */
export function DatasetRun({ datasetId, model, questions, runnable, runId, variant, onAnswers }: Props) {
  const queryClient = useQueryClient();
  const runs = useQuery(evalRunsQuery());
  const [concurrency, setConcurrency] = useState(4);
  const [budget, setBudget] = useState('');
  const [estimated, setEstimated] = useState<{ of: string; estimate: EvalEstimate } | null>(null);
  const [picked, setPicked] = useState(false);
  // One request at a time from these controls. A double click starts one run, not two: its second
  // click is ignored (`firstClick`) even when the run has started and answered before it comes.
  const held = useRef(false);
  const startHeld = useRef(false);
  const startOnce = clickOnce(startHeld, () => starting.mutateAsync());
  const mine = (runs.data ?? []).filter((r) => r.dataset_id === datasetId);
  const run = mine.find((r) => r.id === runId) ?? null;
  useEffect(() => {
    // The newest run's answers until the reviewer picks, and again when the picked run is deleted.
    if (!runs.data || run || (picked && runId === null)) return;
    if ((mine[0]?.id ?? null) !== runId) onAnswers(mine[0]?.id ?? null, 0);
  }, [runs.data, run, mine, runId, picked, onAnswers]);
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
  // As in Evaluations: while it runs, the report (with its intervals) is fetched about twenty times in all, not at every poll.
  const step = Math.max(1, Math.ceil((run?.total ?? 1) / 20));
  const reported = run ? (run.status === 'running' ? Math.floor(run.done / step) * step : run.done) : 0;
  const report = useQuery({
    queryKey: evalKeys.report(run?.id ?? '', reported),
    queryFn: () => call('evals.report', { id: run!.id }),
    enabled: run !== null && run.done > 0,
    placeholderData: sameRunPlaceholder(run?.id ?? ''),
  });
  useAnnounceRunEnd(run);
  const metrics = Object.entries(report.data?.models[variant]?.questions ?? {}).filter(([, m]) => m.type === 'box');
  return (
    <>
      <div className="toolbar">
        <label htmlFor="box-concurrency">At once</label>
        <input
          id="box-concurrency"
          type="number"
          min={1}
          max={64}
          value={concurrency}
          onChange={(e) => setConcurrency(Math.max(1, Math.min(64, Number(e.target.value) || 1)))}
          style={{ width: '4.5em' }}
        />
        <label htmlFor="box-budget">Budget (USD)</label>
        <input
          id="box-budget"
          type="number"
          min={0}
          step="0.01"
          placeholder="none"
          value={budget}
          onChange={(e) => setBudget(e.target.value)}
          style={{ width: '6em' }}
        />
        <button
          type="button"
          className="secondary"
          disabled={!model || !runnable || estimating.isPending}
          onClick={clickOnce(held, () => estimating.mutateAsync())}
        >
          Estimate
        </button>
        {/* Not disabled while it starts (a disabled button drops focus): marked so, and a second press sends nothing (clickOnce). */}
        <button type="button" disabled={!model || !runnable} aria-disabled={starting.isPending || undefined} onClick={startOnce}>
          Run over the dataset
        </button>
        {estimate ? (
          <span className="muted small" data-testid="box-estimate">
            {estimate.calls} calls · about {(estimate.input_tokens + estimate.output_tokens).toLocaleString('en-US')} tokens · <strong>expected cost</strong>{' '}
            {money(estimate.cost_usd)} · <strong>worst case</strong> {money(estimate.worst_usd)}
          </span>
        ) : null}
      </div>
      <div className="toolbar">
        <label htmlFor="box-answers">Answers of</label>
        <select
          id="box-answers"
          value={run ? `${run.id}#${variant}` : ''}
          onChange={(e) => (
            setPicked(true),
            e.target.value ? onAnswers(e.target.value.split('#')[0]!, Number(e.target.value.split('#')[1])) : onAnswers(null, 0)
          )}
        >
          <option value="">no run (truth only)</option>
          {mine.flatMap((r) =>
            r.variants.map((v, i) => (
              <option key={`${r.id}#${i}`} value={`${r.id}#${i}`}>
                {r.name}
                {r.variants.length > 1 ? ` · ${v.label ?? v.model}` : ''} · {r.created_at.slice(0, 16).replace('T', ' ')} ({r.status}, {r.done} of {r.total})
              </option>
            )),
          )}
        </select>
        {run ? <RunProgress run={run} /> : null}
        {run?.estimate ? (
          // What the run was expected to cost, and once done, what it cost against that.
          <span className="small muted" data-testid="box-run-cost">
            {costLines(run, { short: true }).join(' · ')}
          </span>
        ) : null}
        {run?.status === 'running' ? (
          <button type="button" className="secondary" onClick={clickOnce(held, () => control.mutateAsync('evals.pause'))}>
            Pause
          </button>
        ) : run && (run.status === 'paused' || run.status === 'budget' || run.status === 'failed' || (run.status === 'done' && run.retryable > 0)) ? (
          <button type="button" className="secondary" onClick={clickOnce(held, () => control.mutateAsync('evals.resume'))}>
            {run.status === 'done' ? 'Retry failed' : 'Resume'}
          </button>
        ) : null}
        {metrics.length > 0 ? (
          <span className="small" data-testid="box-run-metrics">
            {metrics
              .map(
                ([q, m]) =>
                  `${q}: mean IoU ${fixed(m['mean_iou'])}, pass rate ${typeof m['pass_rate'] === 'number' ? `${Math.round(m['pass_rate'] * 100)} %` : '–'}`,
              )
              .join(' · ')}{' '}
            · <a href="#/evaluations">IoU histogram and exports in Evaluations</a>
          </span>
        ) : null}
      </div>
      {starting.error ? <ErrorNotice error={starting.error} title="The run did not start" /> : null}
      {estimating.error ? <ErrorNotice error={estimating.error} title="No estimate" /> : null}
      {control.error ? <ErrorNotice error={control.error} title="The run did not change" /> : null}
    </>
  );
}
