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

/**
 * The run, fetched again while it runs, brought into view once loaded when asked; its report, fetched
 * about twenty times in all while it runs; and the item open beside the matrix.
 */
function useRunView(id: string, reveal: boolean) {
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
  return { run, top, done, report: report.data, open, setOpen, matrix, close };
}

/** The sections the run's page has, for the links at its top: only those it shows. */
function sectionsOf(r: EvalRun, title: string, report: EvalReport | undefined, labelQuestions: string[]) {
  return [
    { label: 'Summary', heading: panelHeading(title) },
    ...(r.baseline_id ? [{ label: 'Against baseline', heading: panelHeading('Against its baseline') }] : []),
    ...(report ? [{ label: 'Metrics', heading: panelHeading('Metrics') }] : []),
    ...(report && r.variants.length >= 2 ? [{ label: 'Cascade', heading: panelHeading('Cascade') }] : []),
    { label: 'Items', heading: panelHeading('Results') },
    ...(labelQuestions.length ? [{ label: 'Calibration', heading: panelHeading('Calibration') }] : []),
  ];
}

/** The run's summary: progress, cost, calibrations applied, its tools, and what it asked. */
function SummaryPanel({
  r,
  title,
  runs,
  running,
  report,
  onRunAgain,
}: {
  r: EvalRun;
  title: string;
  runs: readonly EvalRun[];
  running: boolean;
  report: EvalReport | undefined;
  onRunAgain: ((run: EvalRun) => void) | undefined;
}) {
  return (
    <Panel title={title} aside={<Controls run={r} />}>
      <Progress run={r} />
      <CostSummary run={r} />
      <Applied run={r} />
      {r.message ? <p className="notice notice-warn">{r.message}</p> : null}
      <div className="toolbar run-tools">
        <BaselinePicker run={r} runs={runs} />
        {onRunAgain && !running ? (
          <button type="button" className="secondary" onClick={() => onRunAgain(r)} title="New run on this dataset and these models, compared with this run">
            Run again against this run
          </button>
        ) : null}
        {report ? <Exports run={r} report={report} /> : null}
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
  );
}

/** Metrics side by side, the cascade's summary, a threshold panel per yes/no question, and the charts. */
function MetricsPanel({
  r,
  id,
  report,
  questions,
  running,
  done,
}: {
  r: EvalRun;
  id: string;
  report: EvalReport;
  questions: string[];
  running: boolean;
  done: number;
}) {
  return (
    <Panel title="Metrics">
      <MetricsTable report={report} running={running} />
      <CascadeRunSummary run={r} report={report} />
      {questions
        .filter((q) => report.models[0]?.questions[q]?.type === 'noul')
        .map((q) => (
          <ThresholdPanel key={q} report={report} question={q} />
        ))}
      <RunCharts report={report} runId={id} done={done} />
    </Panel>
  );
}

/** One evaluation run: progress and controls, metrics side by side, charts, the results matrix, calibration, exports. */
export function RunView({
  id,
  runs,
  reveal = false,
  onRunAgain,
}: {
  id: string;
  runs: readonly EvalRun[];
  reveal?: boolean;
  /** Opens New run on this run's dataset and models, with this run as the baseline. */
  onRunAgain?: (run: EvalRun) => void;
}) {
  const { run, top, done, report, open, setOpen, matrix, close } = useRunView(id, reveal);
  if (run.isPending) return <Loading what="the run" />;
  if (run.error) return <ErrorNotice error={run.error} title="Run not found" />;
  const r = run.data;
  const questions = Object.keys(report?.models[0]?.questions ?? {});
  const labelQuestions = questions.filter((q) => report?.models[0]?.questions[q]?.type !== 'box');
  const running = r.status === 'running' || r.in_flight > 0;
  const title = `${r.name} · ${r.status}`;
  return (
    <div data-run-id={id} className="run-view">
      <div ref={top} />
      <RunSections sections={sectionsOf(r, title, report, labelQuestions)} />
      <SummaryPanel r={r} title={title} runs={runs} running={running} report={report} onRunAgain={onRunAgain} />
      {r.baseline_id ? (
        <Panel title="Against its baseline">
          <Comparison run={r} />
        </Panel>
      ) : null}
      {report ? <MetricsPanel r={r} id={id} report={report} questions={questions} running={running} done={done} /> : null}
      {report && r.variants.length >= 2 ? (
        <Panel title="Cascade">
          <CascadePanel run={r} report={report} done={done} />
        </Panel>
      ) : null}
      <Panel title="Results">
        <div className={open === null ? 'results-split' : 'results-split with-item'}>
          <ResultsMatrix
            ref={matrix}
            runId={id}
            done={done}
            questions={questions}
            models={r.variants.map((v) => v.name)}
            onOpen={setOpen}
            confidence={report ? labelQuestions.length > 0 : true}
          />
          {open !== null ? <ItemDetail runId={id} position={open} onClose={close} /> : null}
        </div>
      </Panel>
      {/* Calibration adjusts probabilities: only questions that have them (not boxes). */}
      {labelQuestions.length ? <CalibrationPanel run={r} questions={labelQuestions} /> : null}
    </div>
  );
}
