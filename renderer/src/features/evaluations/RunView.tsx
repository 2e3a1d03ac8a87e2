import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { EvalReport, EvalRun, ReliabilityBin } from '../../../../shared/schemas/evaluation';
import { call } from '../../transport/transport';
import { download, fileName } from '../../lib/download';
import { formatUsd } from '../../../../shared/money/format-usd';
import { ErrorNotice, Loading, Panel } from '../../ui/components';
import { evalKeys, evalRunQuery, forgetRuns, reportQuery } from './api';
import { CalibrationPanel } from './CalibrationPanel';
import { AccuracyCostChart, ConfusionMatrix, CostLatencyChart, DistributionChart, HEADLINE, ReliabilityChart } from './EvalCharts';
import { BaselinePicker, Comparison } from './Comparison';
import { costLines } from './cost-text';
import { QuestionsAsked } from './QuestionsAsked';
import { ThresholdPanel } from './ThresholdPanel';
import { CascadePanel } from './CascadePanel';
import { CascadeRunSummary } from './CascadeRunSummary';
import { ItemDetail } from './ItemDetail';
import { MetricsTable } from './MetricsTable';
import { ResultsMatrix } from './ResultsMatrix';
import { firstClick, once, onceConfirmed } from '../../lib/send-once';

function Progress({ run }: { run: EvalRun }) {
  const eta = run.eta_ms === null ? '' : ` · about ${Math.ceil(run.eta_ms / 1000)} s left`;
  const waiting = run.waiting_ms === null ? '' : ` · waiting ${Math.ceil(run.waiting_ms / 1000)} s: a provider asked to slow down (429, Retry-After)`;
  // Paused or stopped, the requests already sent are still answered (and paid for): say so until they are in.
  const finishing =
    run.status !== 'running' && run.in_flight > 0
      ? ` · ${run.in_flight} sent before the ${run.status === 'paused' ? 'pause' : 'stop'}, still being answered`
      : '';
  return (
    <div className="progress" role="progressbar" aria-valuemin={0} aria-valuemax={run.total} aria-valuenow={run.done} aria-label="Items done">
      <span className="progress-fill" style={{ width: `${(100 * run.done) / Math.max(1, run.total)}%` }} />
      <span className="progress-text">
        {run.done.toLocaleString('en-US')} of {run.total.toLocaleString('en-US')} done · {run.failed} failed · {formatUsd(run.spent_usd)} spent
        {run.status === 'running' ? `${eta}${waiting}` : finishing}
      </span>
    </div>
  );
}

/** Which saved calibrations the run's answers went through (fixed when it started). */
function Applied({ run }: { run: EvalRun }) {
  if (run.calibrations === null || run.calibrations.length === 0) return null;
  const byModel = run.variants
    .map((v, i) => ({ name: v.name, items: run.calibrations!.filter((c) => c.variant === i) }))
    .filter((m) => m.items.length > 0)
    .map((m) => `${m.name}: ${m.items.map((c) => `${c.question} T = ${Number(c.temperature.toPrecision(4))}`).join(', ')}`);
  return (
    <p className="muted" data-testid="applied-calibrations">
      Calibrations applied (saved ones, as they were when the run started; raw answers kept): {byModel.join(' · ')}
    </p>
  );
}

function Controls({ run }: { run: EvalRun }) {
  const queryClient = useQueryClient();
  // Set in the click's own event: a double click pauses, resumes or retries once.
  const held = useRef(false);
  const act = useMutation({
    mutationFn: (action: 'evals.pause' | 'evals.resume' | 'evals.cancel' | 'uncapped') =>
      action === 'uncapped' ? call('evals.resume', { id: run.id, budget_usd: null }) : call(action, { id: run.id }),
    onSuccess: (fresh) => {
      // Its new status at once, so the buttons that no longer apply go before anyone clicks them again.
      queryClient.setQueryData(evalKeys.run(run.id), fresh);
      void queryClient.invalidateQueries({ queryKey: evalKeys.all });
    },
  });
  const remove = useMutation({
    mutationFn: () => call('evals.delete', { id: run.id }),
    onSuccess: () => {
      forgetRuns(queryClient, [run.id]);
      void queryClient.invalidateQueries({ queryKey: evalKeys.runs, exact: true });
    },
  });
  const send = (action: 'evals.pause' | 'evals.resume' | 'uncapped') => once(held, () => act.mutateAsync(action));
  const results = `${run.done.toLocaleString('en-US')} ${run.done === 1 ? 'result' : 'results'}${run.failed > 0 ? ` (${run.failed.toLocaleString('en-US')} failed)` : ''}`;
  const deleteRun = () =>
    onceConfirmed(held, `Delete the run “${run.name}” and its ${results}? Its answers and metrics cannot be brought back.`, () => remove.mutateAsync());
  // Cancelling cannot be undone (a cancelled run is not resumed), unlike a pause: asked first.
  const cancelRun = () =>
    onceConfirmed(
      held,
      `Cancel the run “${run.name}”? Requests in flight are stopped and the items not yet sent are never sent: a cancelled run cannot be resumed (Pause can). Its ${results} so far stay.`,
      () => act.mutateAsync('evals.cancel'),
    );
  const busy = act.isPending || remove.isPending;
  return (
    <div className="toolbar">
      {run.status === 'running' ? (
        <button type="button" className="secondary" disabled={busy} onClick={firstClick(() => send('evals.pause'))}>
          Pause
        </button>
      ) : null}
      {run.status === 'budget' ? (
        <button type="button" className="secondary" disabled={busy} onClick={firstClick(() => send('uncapped'))}>
          Resume without a budget
        </button>
      ) : null}
      {run.status === 'paused' || run.status === 'failed' ? (
        <button type="button" className="secondary" disabled={busy} onClick={firstClick(() => send('evals.resume'))}>
          Resume
        </button>
      ) : null}
      {run.status === 'done' && run.retryable > 0 ? (
        <button
          type="button"
          className="secondary"
          disabled={busy}
          onClick={firstClick(() => send('evals.resume'))}
          title="Send the failed items again; answers already stored are not sent again"
        >
          Retry {run.retryable.toLocaleString('en-US')} failed
        </button>
      ) : null}
      {run.status === 'running' || run.status === 'paused' ? (
        <button type="button" className="secondary" disabled={busy} onClick={firstClick(cancelRun)}>
          Cancel
        </button>
      ) : (
        <button type="button" className="secondary" disabled={busy} onClick={firstClick(deleteRun)}>
          Delete run
        </button>
      )}
      {act.error ? <ErrorNotice error={act.error} /> : null}
      {remove.error ? <ErrorNotice error={remove.error} title="Not deleted" /> : null}
    </div>
  );
}

function Exports({ run, report }: { run: EvalRun; report: EvalReport }) {
  const results = async (format: 'csv' | 'jsonl') =>
    download(
      fileName(`${run.name}-results`, format),
      (await call('evals.export', { id: run.id, format })).content,
      format === 'csv' ? 'text/csv' : 'application/x-ndjson',
    );
  return (
    <div className="toolbar">
      <button type="button" className="secondary" onClick={() => void results('csv')}>
        Export results CSV
      </button>
      <button type="button" className="secondary" onClick={() => void results('jsonl')}>
        Export results JSONL
      </button>
      <button type="button" className="secondary" onClick={() => download(fileName(`${run.name}-report`, 'json'), `${JSON.stringify(report, null, 2)}\n`)}>
        Export report JSON
      </button>
    </div>
  );
}

function Charts({ report, runId, done }: { report: EvalReport; runId: string; done: number }) {
  const questions = Object.entries(report.models[0]?.questions ?? {});
  const hasDistributions = questions.some(([, q]) => q.type === 'score' || q.type === 'box');
  const distributions = useQuery({
    queryKey: [...evalKeys.run(runId), 'distributions', done],
    queryFn: () => call('evals.distributions', { id: runId }),
    enabled: hasDistributions,
    placeholderData: (previous) => previous,
  });
  return (
    <div className="chart-grid">
      {questions.map(([name, q]) => (
        <figure key={`${name}-cost`} className="chart-box">
          <figcaption>
            {HEADLINE[q.type] === 'accuracy' ? 'Accuracy' : HEADLINE[q.type] === 'exact' ? 'Exact level' : 'Mean IoU'} against cost: {name}
            <span className="muted small caption-note"> · up and to the left gives more for less; bars are 95% intervals</span>
          </figcaption>
          <AccuracyCostChart report={report} question={name} type={q.type} />
        </figure>
      ))}
      {questions
        .filter(([, q]) => q.type === 'noul' || q.type === 'choice')
        .map(([name]) => (
          <figure key={name} className="chart-box">
            <figcaption>Reliability: {name}</figcaption>
            <ReliabilityChart
              title={name}
              series={report.models.map((m) => ({ model: m.model, bins: (m.questions[name]?.['reliability'] as ReliabilityBin[] | undefined) ?? [] }))}
            />
          </figure>
        ))}
      {questions
        .filter(([, q]) => q.type === 'choice')
        .map(([name]) => (
          <figure key={`${name}-confusion`} className="chart-box">
            <figcaption>Confusion: {name}</figcaption>
            {report.models.map((m) => (
              <ConfusionMatrix
                key={m.model}
                model={m.model}
                confusion={(m.questions[name]?.['confusion'] as Record<string, Record<string, number>> | undefined) ?? {}}
              />
            ))}
          </figure>
        ))}
      {questions
        .filter(([, q]) => q.type === 'score' || q.type === 'box')
        .map(([name, q]) => (
          <figure key={`${name}-distribution`} className="chart-box">
            <figcaption>
              {q.type === 'box' ? 'IoU' : 'Errors'}: {name}
              {q.type === 'score' ? (
                <span className="muted small caption-note"> · score − expected level, as MAE counts it (exact level and QWK use the most likely level)</span>
              ) : null}
            </figcaption>
            <DistributionChart question={name} type={q.type as 'score' | 'box'} series={(distributions.data ?? []).filter((d) => d.question === name)} />
          </figure>
        ))}
      <figure className="chart-box">
        <figcaption>Cost and latency</figcaption>
        <CostLatencyChart report={report} />
      </figure>
    </div>
  );
}

/** What the run was expected to cost and what it cost (see cost-text.ts). */
function CostSummary({ run }: { run: EvalRun }) {
  return (
    <div className="cost-summary small" data-testid="estimate-against-actual">
      {costLines(run).map((line) => (
        <p key={line}>{line}</p>
      ))}
    </div>
  );
}

/** One evaluation run: progress and controls, metrics side by side, charts, the results matrix, calibration, exports. */
export function RunView({ id, runs, reveal = false }: { id: string; runs: readonly EvalRun[]; reveal?: boolean }) {
  const run = useQuery(evalRunQuery(id));
  const top = useRef<HTMLDivElement>(null);
  const loaded = run.data !== undefined;
  useEffect(() => {
    if (reveal && loaded) top.current?.scrollIntoView({ block: 'start' });
  }, [reveal, loaded]);
  // While it runs, the report and the matrix are fetched again about twenty times in all, not at
  // every poll: a report over 10,000 items fits temperatures, which takes the core a while.
  const step = Math.max(1, Math.ceil((run.data?.total ?? 1) / 20));
  const done = run.data ? (run.data.status === 'running' ? Math.floor(run.data.done / step) * step : run.data.done) : 0;
  const report = useQuery({ ...reportQuery(id, done), enabled: run.data !== undefined });
  const [open, setOpen] = useState<number | null>(null);
  const close = useCallback(() => setOpen(null), []);
  if (run.isPending) return <Loading what="the run" />;
  if (run.error) return <ErrorNotice error={run.error} title="Run not found" />;
  const r = run.data;
  const questions = Object.keys(report.data?.models[0]?.questions ?? {});
  const labelQuestions = questions.filter((q) => report.data?.models[0]?.questions[q]?.type !== 'box');
  const running = r.status === 'running' || r.in_flight > 0;
  return (
    <>
      <div ref={top} />
      <Panel title={`${r.name} · ${r.status}`} aside={<Controls run={r} />}>
        <Progress run={r} />
        <CostSummary run={r} />
        <Applied run={r} />
        {r.message ? <p className="notice notice-warn">{r.message}</p> : null}
        <div className="toolbar run-tools">
          <BaselinePicker run={r} runs={runs} />
          {report.data ? <Exports run={r} report={report.data} /> : null}
        </div>
        <details className="asked-details">
          <summary>
            What this run asked: {Object.keys(r.questions).join(', ')} on {r.variants.map((v) => v.name).join(', ')}
          </summary>
          <QuestionsAsked
            title="Questions, instructions and preferences as sent"
            models={r.variants.map((v) => v.name)}
            questions={r.questions}
            provider={r.provider}
          />
        </details>
      </Panel>
      {r.baseline_id ? (
        <Panel title="Against its baseline">
          <Comparison run={r} />
        </Panel>
      ) : null}
      {report.data ? (
        <Panel title="Metrics">
          <MetricsTable report={report.data} running={running} />
          <CascadeRunSummary run={r} report={report.data} />
          {questions
            .filter((q) => report.data.models[0]?.questions[q]?.type === 'noul')
            .map((q) => (
              <ThresholdPanel key={q} report={report.data} question={q} />
            ))}
          <Charts report={report.data} runId={id} done={done} />
        </Panel>
      ) : null}
      {report.data && r.variants.length >= 2 ? (
        <Panel title="Cascade">
          <CascadePanel run={r} done={done} />
        </Panel>
      ) : null}
      <Panel title="Results">
        <div className={open === null ? 'results-split' : 'results-split with-item'}>
          <ResultsMatrix runId={id} done={done} questions={questions} models={r.variants.map((v) => v.name)} onOpen={setOpen} />
          {open !== null ? <ItemDetail runId={id} position={open} onClose={close} /> : null}
        </div>
      </Panel>
      {/* Calibration adjusts probabilities: only questions that have them (not boxes). */}
      {labelQuestions.length ? <CalibrationPanel run={r} questions={labelQuestions} /> : null}
    </>
  );
}
