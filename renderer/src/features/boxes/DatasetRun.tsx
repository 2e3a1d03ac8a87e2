import type { EvalEstimate, EvalRun } from '../../../../shared/schemas/evaluation';
import { clickOnce } from '../../lib/send-once';
import { ErrorNotice } from '../../ui/components';
import { costLines } from '../evaluations';
import { formatUsd } from '../../../../shared/money/format-usd';
import type { BoxQuestion } from './review';
import { useDatasetRun } from './use-dataset-run';
import { ProgressBar } from '../../ui/ProgressBar';

interface Props {
  datasetId: string;
  model: string;
  questions: readonly BoxQuestion[];
  runnable: boolean;
  runId: string | null;
  variant: number;
  onAnswers: (runId: string | null, variant: number) => void;
}

type DatasetRunState = ReturnType<typeof useDatasetRun>;

/** A cost, or why there is none: a price on the route is unknown. */
const money = (usd: number | null) => (usd === null ? 'unknown (a price is unknown)' : formatUsd(usd));
const fixed = (v: unknown) => (typeof v === 'number' ? v.toFixed(3) : '–');

/** The box questions' metrics of the run under review, on one line. */
const metricsLine = (metrics: DatasetRunState['metrics']) =>
  metrics
    .map(([q, m]) => `${q}: mean IoU ${fixed(m['mean_iou'])}, pass rate ${typeof m['pass_rate'] === 'number' ? `${Math.round(m['pass_rate'] * 100)} %` : '–'}`)
    .join(' · ');

/** A run that can go on: paused, stopped at its budget, failed, or done with items to retry. */
const resumable = (run: EvalRun) =>
  run.status === 'paused' || run.status === 'budget' || run.status === 'failed' || (run.status === 'done' && run.retryable > 0);

/** How far the run under review is: a progress bar with its value, not a live region (its end is announced once). */
function RunProgress({ run }: { run: EvalRun }) {
  const text = `${run.status === 'running' ? 'Running' : run.status}: ${run.done} of ${run.total} done${run.failed > 0 ? ` · ${run.failed} failed` : ''} · ${formatUsd(run.spent_usd)} spent`;
  return (
    <ProgressBar label="Items done" done={run.done} total={run.total} valueText={text} className="small" testId="box-run-progress">
      {text}
    </ProgressBar>
  );
}

function EstimateLine({ estimate }: { estimate: EvalEstimate }) {
  return (
    <span className="muted small" data-testid="box-estimate">
      {estimate.calls} calls · about {(estimate.input_tokens + estimate.output_tokens).toLocaleString('en-US')} tokens · <strong>expected cost</strong>{' '}
      {money(estimate.cost_usd)} · <strong>worst case</strong> {money(estimate.worst_usd)}
    </span>
  );
}

/** How a run is started: at once, budget, estimate, and the start itself. */
function StartToolbar({ s, model, runnable }: { s: DatasetRunState; model: string; runnable: boolean }) {
  return (
    <div className="toolbar">
      <label htmlFor="box-concurrency">At once</label>
      <input
        id="box-concurrency"
        type="number"
        min={1}
        max={64}
        value={s.concurrency}
        onChange={(e) => s.setConcurrency(Math.max(1, Math.min(64, Number(e.target.value) || 1)))}
        style={{ width: '4.5em' }}
      />
      <label htmlFor="box-budget">Budget (USD)</label>
      <input
        id="box-budget"
        type="number"
        min={0}
        step="0.01"
        placeholder="none"
        value={s.budget}
        onChange={(e) => s.setBudget(e.target.value)}
        style={{ width: '6em' }}
      />
      <button
        type="button"
        className="secondary"
        disabled={!model || !runnable || s.estimating.isPending}
        onClick={clickOnce(s.held, () => s.estimating.mutateAsync())}
      >
        Estimate
      </button>
      {/* Not disabled while it starts (a disabled button drops focus): marked so, and a second press sends nothing (clickOnce). */}
      <button type="button" disabled={!model || !runnable} aria-disabled={s.starting.isPending || undefined} onClick={s.startOnce}>
        Run over the dataset
      </button>
      {s.estimate ? <EstimateLine estimate={s.estimate} /> : null}
    </div>
  );
}

/** Which run's answers are under review: no run, or one model of one of the dataset's runs. */
function AnswersSelect({ s, variant, onAnswers }: { s: DatasetRunState; variant: number; onAnswers: Props['onAnswers'] }) {
  return (
    <select
      id="box-answers"
      value={s.run ? `${s.run.id}#${variant}` : ''}
      onChange={(e) => (
        s.setPicked(true),
        e.target.value ? onAnswers(e.target.value.split('#')[0]!, Number(e.target.value.split('#')[1])) : onAnswers(null, 0)
      )}
    >
      <option value="">no run (truth only)</option>
      {s.mine.flatMap((r) =>
        r.variants.map((v, i) => (
          <option key={`${r.id}#${i}`} value={`${r.id}#${i}`}>
            {r.name}
            {r.variants.length > 1 ? ` · ${v.label ?? v.model}` : ''} · {r.created_at.slice(0, 16).replace('T', ' ')} ({r.status}, {r.done} of {r.total})
          </option>
        )),
      )}
    </select>
  );
}

/** Pause while it runs, Resume (or Retry failed) when it can go on. */
function RunControl({ s, run }: { s: DatasetRunState; run: EvalRun | null }) {
  if (run?.status === 'running')
    return (
      <button type="button" className="secondary" onClick={clickOnce(s.held, () => s.control.mutateAsync('evals.pause'))}>
        Pause
      </button>
    );
  if (run && resumable(run))
    return (
      <button type="button" className="secondary" onClick={clickOnce(s.held, () => s.control.mutateAsync('evals.resume'))}>
        {run.status === 'done' ? 'Retry failed' : 'Resume'}
      </button>
    );
  return null;
}

/** The run under review: which one, how far it is, what it cost, its control and its metrics. */
function AnswersToolbar({ s, variant, onAnswers }: { s: DatasetRunState; variant: number; onAnswers: Props['onAnswers'] }) {
  const { run, metrics } = s;
  return (
    <div className="toolbar">
      <label htmlFor="box-answers">Answers of</label>
      <AnswersSelect s={s} variant={variant} onAnswers={onAnswers} />
      {run ? <RunProgress run={run} /> : null}
      {run?.estimate ? (
        // What the run was expected to cost, and once done, what it cost against that.
        <span className="small muted" data-testid="box-run-cost">
          {costLines(run, { short: true }).join(' · ')}
        </span>
      ) : null}
      <RunControl s={s} run={run} />
      {metrics.length > 0 ? (
        <span className="small" data-testid="box-run-metrics">
          {metricsLine(metrics)} · <a href="#/evaluations">IoU histogram and exports in Evaluations</a>
        </span>
      ) : null}
    </div>
  );
}

/**
 * "Run over the dataset" starts an evaluation run (the same runs as the Evaluations screen: an
 * estimate first if wanted, a budget, concurrency, progress, pause and resume after a restart);
 * the answers under review are one model's answers of one of the dataset's runs.
 */
export function DatasetRun({ datasetId, model, questions, runnable, runId, variant, onAnswers }: Props) {
  const s = useDatasetRun({ datasetId, model, questions, runId, variant, onAnswers });
  return (
    <>
      <StartToolbar s={s} model={model} runnable={runnable} />
      <AnswersToolbar s={s} variant={variant} onAnswers={onAnswers} />
      {s.starting.error ? <ErrorNotice error={s.starting.error} title="The run did not start" /> : null}
      {s.estimating.error ? <ErrorNotice error={s.estimating.error} title="No estimate" /> : null}
      {s.control.error ? <ErrorNotice error={s.control.error} title="The run did not change" /> : null}
    </>
  );
}
