import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { EvalReport, EvalRun } from '../../../../shared/schemas/evaluation';
import { call } from '../../transport/transport';
import { download, fileName } from '../../lib/download';
import { ErrorNotice, Loading, Panel } from '../../ui/components';
import { evalRunQuery, reportQuery } from './api';
import { CalibrationPanel } from './CalibrationPanel';
import { BaselinePicker, Comparison } from './Comparison';
import { costLines } from './cost-text';
import { QuestionsAsked } from './QuestionsAsked';
import { ThresholdPanel } from './ThresholdPanel';
import { CascadePanel } from './CascadePanel';
import { CascadeRunSummary } from './CascadeRunSummary';
import { ItemDetail } from './ItemDetail';
import { MetricsTable } from './MetricsTable';
import { ResultsMatrix, type ResultsMatrixHandle } from './ResultsMatrix';
import { Controls, Progress } from './RunControls';
import { RunCharts } from './RunCharts';
import { useAnnounceRunEnd } from './run-end';
import { panelHeading, RunSections } from './RunSections';

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
  useAnnounceRunEnd(run.data);
  const [open, setOpen] = useState<number | null>(null);
  const matrix = useRef<ResultsMatrixHandle>(null);
  // The pane closes back to the cell it was opened from.
  const close = useCallback(() => {
    setOpen(null);
    matrix.current?.focusActive();
  }, []);
  if (run.isPending) return <Loading what="the run" />;
  if (run.error) return <ErrorNotice error={run.error} title="Run not found" />;
  const r = run.data;
  const questions = Object.keys(report.data?.models[0]?.questions ?? {});
  const labelQuestions = questions.filter((q) => report.data?.models[0]?.questions[q]?.type !== 'box');
  const running = r.status === 'running' || r.in_flight > 0;
  const title = `${r.name} · ${r.status}`;
  const sections = [
    { label: 'Summary', heading: panelHeading(title) },
    ...(r.baseline_id ? [{ label: 'Against baseline', heading: panelHeading('Against its baseline') }] : []),
    ...(report.data ? [{ label: 'Metrics', heading: panelHeading('Metrics') }] : []),
    ...(report.data && r.variants.length >= 2 ? [{ label: 'Cascade', heading: panelHeading('Cascade') }] : []),
    { label: 'Items', heading: panelHeading('Results') },
    ...(labelQuestions.length ? [{ label: 'Calibration', heading: panelHeading('Calibration') }] : []),
  ];
  return (
    <div data-run-id={id} className="run-view">
      <div ref={top} />
      <RunSections sections={sections} />
      <Panel title={title} aside={<Controls run={r} />}>
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
          <RunCharts report={report.data} runId={id} done={done} />
        </Panel>
      ) : null}
      {report.data && r.variants.length >= 2 ? (
        <Panel title="Cascade">
          <CascadePanel run={r} report={report.data} done={done} />
        </Panel>
      ) : null}
      <Panel title="Results">
        <div className={open === null ? 'results-split' : 'results-split with-item'}>
          <ResultsMatrix ref={matrix} runId={id} done={done} questions={questions} models={r.variants.map((v) => v.name)} onOpen={setOpen} />
          {open !== null ? <ItemDetail runId={id} position={open} onClose={close} /> : null}
        </div>
      </Panel>
      {/* Calibration adjusts probabilities: only questions that have them (not boxes). */}
      {labelQuestions.length ? <CalibrationPanel run={r} questions={labelQuestions} /> : null}
    </div>
  );
}
