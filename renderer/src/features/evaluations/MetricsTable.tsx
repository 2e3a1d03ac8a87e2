import type { ReactNode } from 'react';
import type { EvalReport, QuestionMetrics } from '../../../../shared/schemas/evaluation';
import { formatUsd } from '../../../../shared/money/format-usd';
import { UNKNOWN } from '../../ui/format';
import { bestOf, costPerThousand, intervalText, marksLegend, metricOf, provisionalReason, value3 } from './metric-format';
import { ScrollArea } from '../../ui/ScrollArea';

const METRICS: Record<string, string[]> = {
  noul: ['accuracy', 'precision', 'recall', 'f1', 'brier', 'log_loss', 'auroc', 'ece'],
  choice: ['accuracy', 'macro_f1', 'brier', 'log_loss', 'ece'],
  score: ['exact', 'mae', 'qwk'],
  box: ['mean_iou', 'pass_rate'],
};

export const TYPE_NAMES: Record<string, string> = { noul: 'yes/no', choice: 'choice', score: 'score', box: 'box' };

/** Each metric's name on screen and what it measures (how each is computed: docs/DESIGN-NOTES.md#evaluations). */
export const METRIC_LABELS: Record<string, [string, string]> = {
  n: ['n', 'Answered items with an expected answer for this question'],
  accuracy: ['accuracy', 'Share of answers that match the expected one (higher is better); yes/no answers say yes at P(true) ≥ 0.5'],
  precision: ['precision', 'Of the answers that said yes (P(true) ≥ 0.5), the share that were true (higher is better); none when nothing was said yes'],
  recall: ['recall', 'Of the items that were true, the share answered yes (P(true) ≥ 0.5): 0 means no true item was found (higher is better)'],
  f1: ['F1', 'Harmonic mean of precision and recall at P(true) ≥ 0.5: 2TP / (2TP + FP + FN) (higher is better)'],
  brier: ['Brier score', 'Mean squared gap between the stated probabilities and what was right (lower is better)'],
  log_loss: ['log loss', 'Mean −ln of the probability given to the expected answer (lower is better)'],
  auroc: ['AUROC', 'How well the probability ranks true items above false ones: 0.5 is chance, 1 is perfect'],
  ece: [
    'ECE',
    'Expected calibration error over all items: the gap between stated confidence and observed accuracy, averaged over 10 confidence bins weighted by their size (lower is better)',
  ],
  macro_f1: ['macro-F1', 'F1 per option, averaged over the options that occur (higher is better)'],
  mae: ['MAE', 'Mean absolute gap between the score and the expected level (lower is better)'],
  exact: ['exact level', 'Share of answers whose most probable level is the expected one (higher is better)'],
  qwk: ['QWK', 'Quadratic weighted kappa of the levels against the expected ones: 0 is chance agreement, 1 is perfect'],
  mean_iou: ['mean IoU', 'Mean intersection over union of the answer box with the expected box (higher is better)'],
  pass_rate: ['pass rate', 'Share of boxes whose IoU reaches 0.5 (higher is better)'],
};

/** The question's heading: its kind, the base rate of a yes/no question, and whether its figures are provisional. */
function QuestionHead({ name, q, minimum, running, span }: { name: string; q: QuestionMetrics; minimum: number; running: boolean; span: number }) {
  const why = provisionalReason(q.n, minimum, running);
  const base =
    q.type === 'noul' && typeof q['base_rate'] === 'number' ? `base rate ${value3(q['base_rate'] as number)} (${String(q['positives'])} of ${q.n} true)` : null;
  return (
    <tr className="metric-question">
      <th scope="rowgroup" colSpan={span}>
        <span className="mono">{name}</span> <span className="muted">· {TYPE_NAMES[q.type] ?? q.type}</span>
        {base ? <span className="muted"> · {base}</span> : null}
        {why ? (
          <span className="badge badge-warn provisional-badge" title="Figures from few items, or from a run still going, move as items arrive">
            provisional: {why}
          </span>
        ) : null}
      </th>
    </tr>
  );
}

/** The majority-class baseline, beside accuracy (or exact level): what always giving the commonest expected answer scores. */
function BaselineCell({ q, metric }: { q: QuestionMetrics | undefined; metric: string }) {
  const b = q?.baseline;
  if (!b || (metric !== 'accuracy' && metric !== 'exact')) return <td className="baseline-cell" />;
  return (
    <td className="baseline-cell mono" data-baseline={metric}>
      <span className="muted">{b.label}</span> {value3(b.accuracy)} <span className="muted small">{intervalText(b.interval)}</span>
    </td>
  );
}

type ModelReport = EvalReport['models'][number];

/** One model's value of a metric, with the best mark when it is the row's best and its interval. */
function MetricCell({
  value,
  interval,
  best,
  provisional,
  testid,
}: {
  value: ReturnType<typeof metricOf>['value'];
  interval: ReturnType<typeof metricOf>['interval'];
  best: { clear: boolean } | null;
  provisional: boolean;
  testid: string;
}) {
  return (
    <td className={`metric-cell${provisional ? ' provisional' : ''}`}>
      <span className="mono" data-metric={testid}>
        {value3(value)}
      </span>
      {best ? (
        <span
          className="best-mark"
          title={
            best.clear
              ? 'Best in this row, beyond the other models’ intervals'
              : 'Best in this row, but within another model’s interval: the lead may be chance'
          }
          aria-label={best.clear ? 'best' : 'best, within the others’ intervals'}
        >
          {best.clear ? ' ★' : ' ☆'}
        </span>
      ) : null}
      {interval ? <span className="metric-interval">{intervalText(interval)}</span> : null}
    </td>
  );
}

interface QuestionProps {
  models: readonly ModelReport[];
  name: string;
  first: QuestionMetrics;
  provisional: boolean;
  withBaseline: boolean;
}

/** One metric of a question, the models side by side, the best marked unless the figures are provisional. */
function MetricRow({ models, name, first, provisional, withBaseline, metric }: QuestionProps & { metric: string }) {
  const cells = models.map((m) => metricOf(m.questions[name], metric));
  const best = provisional
    ? null
    : bestOf(
        metric,
        cells.map((c) => c.value),
        cells.map((c) => c.interval),
      );
  return (
    <tr>
      <td title={METRIC_LABELS[metric]?.[1]}>{METRIC_LABELS[metric]?.[0] ?? metric}</td>
      {withBaseline ? <BaselineCell q={first} metric={metric} /> : null}
      {models.map((m, i) => (
        <MetricCell
          key={m.model}
          value={cells[i]!.value}
          interval={cells[i]!.interval}
          best={best?.index === i ? best : null}
          provisional={provisional}
          testid={`${m.model} ${name} ${metric}`}
        />
      ))}
    </tr>
  );
}

/** A question's rows: its heading, n, and each metric of its kind. */
function QuestionBody({
  models,
  name,
  first,
  minimum,
  running,
  span,
  withBaseline,
}: Omit<QuestionProps, 'provisional'> & { minimum: number; running: boolean; span: number }) {
  const provisional = provisionalReason(first.n, minimum, running) !== null;
  return (
    <tbody>
      <QuestionHead name={name} q={first} minimum={minimum} running={running} span={span} />
      <tr>
        <td title={METRIC_LABELS['n']![1]}>n</td>
        {withBaseline ? <td /> : null}
        {models.map((m) => (
          <td key={m.model} className="mono" data-metric={`${m.model} ${name} n`}>
            {String(m.questions[name]?.n ?? 0)}
          </td>
        ))}
      </tr>
      {(METRICS[first.type] ?? []).map((metric) => (
        <MetricRow key={metric} models={models} name={name} first={first} provisional={provisional} withBaseline={withBaseline} metric={metric} />
      ))}
    </tbody>
  );
}

/** A row of the per-model part: its label, the baseline column's empty cell, and one cell per model. */
function ModelRow({ label, models, pad, cell }: { label: string; models: readonly ModelReport[]; pad: boolean; cell: (m: ModelReport) => ReactNode }) {
  return (
    <tr>
      <td>{label}</td>
      {pad ? <td /> : null}
      {models.map((m) => (
        <td key={m.model} className="mono">
          {cell(m)}
        </td>
      ))}
    </tr>
  );
}

const costCell = (m: ModelReport) => (
  <>
    {formatUsd(m.cost_usd)}
    {m.cost_unknown ? ` + ${m.cost_unknown} unknown` : ''}
  </>
);
const perThousandCell = (m: ModelReport) => {
  const c = costPerThousand(m);
  return c === null ? UNKNOWN : formatUsd(c);
};
const latencyCell = (m: ModelReport) => (m.latency_ms.p50 === null ? UNKNOWN : `${Math.round(m.latency_ms.p50)} / ${Math.round(m.latency_ms.p95 ?? 0)} ms`);

/** Cost, tokens and latency per model. */
function PerModelBody({ models, pad, span }: { models: readonly ModelReport[]; pad: boolean; span: number }) {
  return (
    <tbody>
      <tr className="metric-question">
        <th scope="rowgroup" colSpan={span}>
          per model
        </th>
      </tr>
      {/* Each row has the baseline column's cell, empty: the rows run the table's width. */}
      <ModelRow label="items (failed)" models={models} pad={pad} cell={(m) => `${m.items} (${m.failed})`} />
      <ModelRow label="cost" models={models} pad={pad} cell={costCell} />
      <ModelRow label="cost / 1,000 items" models={models} pad={pad} cell={perThousandCell} />
      <ModelRow
        label="tokens in / out"
        models={models}
        pad={pad}
        cell={(m) => `${m.input_tokens.toLocaleString('en-US')} / ${m.output_tokens.toLocaleString('en-US')}`}
      />
      <ModelRow label="latency p50 / p95" models={models} pad={pad} cell={latencyCell} />
    </tbody>
  );
}

function HeaderRow({ models, withBaseline }: { models: readonly ModelReport[]; withBaseline: boolean }) {
  return (
    <thead>
      <tr>
        <th scope="col">Metric</th>
        {withBaseline ? (
          <th scope="col" title="What always giving the most common expected answer scores">
            Majority baseline
          </th>
        ) : null}
        {models.map((m) => (
          <th key={m.model} scope="col" className="mono">
            {m.model}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/**
 * Per question, each metric with the models side by side, each value with its 95% interval, the
 * best in a row marked (★ when the others' intervals stay below it, ☆ when they reach it), the
 * majority-class baseline beside accuracy, first after the metric's name so no number of models pushes it out of view;
 * then cost, tokens and latency per model.
 */
export function MetricsTable({ report, running }: { report: EvalReport; running: boolean }) {
  const questions = Object.entries(report.models[0]?.questions ?? {});
  // A majority baseline is for answers with classes (yes/no, choice, score): box runs have no such column.
  const withBaseline = questions.some(([, q]) => q.type !== 'box');
  const span = report.models.length + (withBaseline ? 2 : 1);
  const minimum = report.min_final_n ?? 0;
  return (
    <ScrollArea label="Metrics per model, scrolls sideways">
      <p className="muted small" data-testid="interval-method">
        {report.interval_method}.{' '}
        {marksLegend(
          questions.map(([, q]) => q.n),
          minimum,
          running,
        )}
      </p>
      <table className="table metrics-table" aria-label="Metrics per model">
        <HeaderRow models={report.models} withBaseline={withBaseline} />
        {questions.map(([name, first]) => (
          <QuestionBody
            key={name}
            models={report.models}
            name={name}
            first={first}
            minimum={minimum}
            running={running}
            span={span}
            withBaseline={withBaseline}
          />
        ))}
        <PerModelBody models={report.models} pad={withBaseline} span={span} />
      </table>
    </ScrollArea>
  );
}
