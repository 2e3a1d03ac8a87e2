import type { EvalReport, QuestionMetrics } from '../../../../shared/schemas/evaluation';
import { formatUsd } from '../../lib/money';
import { UNKNOWN } from '../../ui/format';
import { temperatureText } from './calibration-text';

const METRICS: Record<string, string[]> = {
  noul: ['accuracy', 'brier', 'log_loss', 'auroc', 'ece'],
  choice: ['accuracy', 'macro_f1', 'brier', 'log_loss', 'ece'],
  score: ['mae', 'exact', 'qwk'],
  box: ['mean_iou', 'pass_rate'],
};

/** Each metric's name on screen and what it measures (how each is computed: docs/DESIGN-NOTES.md#evaluations). */
const LABELS: Record<string, [string, string]> = {
  n: ['n', 'Answered items with an expected answer for this question'],
  accuracy: ['accuracy', 'Share of answers that match the expected one (higher is better)'],
  brier: ['Brier score', 'Mean squared gap between the stated probabilities and what was right (lower is better)'],
  log_loss: ['log loss', 'Mean −ln of the probability given to the expected answer (lower is better)'],
  auroc: ['AUROC', 'How well the probability ranks true items above false ones: 0.5 is chance, 1 is perfect'],
  ece: ['ECE', 'Expected calibration error: the gap between stated confidence and observed accuracy, averaged over 10 confidence bins weighted by their size (lower is better)'],
  macro_f1: ['macro-F1', 'F1 per option, averaged over the options that occur (higher is better)'],
  mae: ['MAE', 'Mean absolute gap between the score and the expected level (lower is better)'],
  exact: ['exact level', 'Share of answers whose most probable level is the expected one'],
  qwk: ['QWK', 'Quadratic weighted kappa of the levels against the expected ones: 0 is chance agreement, 1 is perfect'],
  mean_iou: ['mean IoU', 'Mean intersection over union of the answer box with the expected box'],
  pass_rate: ['pass rate', 'Share of boxes whose IoU reaches the threshold'],
  'calibrated ece': ['calibrated ECE', 'ECE on the odd items before → after a temperature fitted on the even ones'],
};

const num = (v: unknown) => (typeof v === 'number' ? v.toFixed(3) : UNKNOWN);

/** Per question, each metric with the models side by side; then cost, tokens and latency per model. */
export function MetricsTable({ report }: { report: EvalReport }) {
  const questions = Object.entries(report.models[0]?.questions ?? {});
  return (
    <div className="table-scroll">
      <table className="table" aria-label="Metrics per model">
        <thead>
          <tr>
            <th scope="col">Question</th>
            <th scope="col">Metric</th>
            {report.models.map((m) => (
              <th key={m.model} scope="col" className="mono">
                {m.model}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {questions.flatMap(([name, q]) =>
            ['n', ...(METRICS[q.type] ?? []), 'calibrated ece'].map((metric, i) => (
              <tr key={`${name}-${metric}`}>
                {i === 0 ? <th scope="row" rowSpan={(METRICS[q.type]?.length ?? 0) + 2}>{`${name} (${q.type})`}</th> : null}
                <td title={LABELS[metric]?.[1]}>{LABELS[metric]?.[0] ?? metric}</td>
                {report.models.map((m) => {
                  const qm = m.questions[name] as QuestionMetrics | undefined;
                  const value = metric === 'calibrated ece' ? (qm?.calibration ? `${num(qm.calibration.ece_before)} → ${num(qm.calibration.ece_after)} (${temperatureText(qm.calibration.temperature)})` : UNKNOWN) : metric === 'n' ? String(qm?.n ?? 0) : num(qm?.[metric]);
                  return (
                    <td key={m.model} className="mono" data-metric={`${m.model} ${name} ${metric}`}>
                      {value}
                    </td>
                  );
                })}
              </tr>
            )),
          )}
          <tr>
            <th scope="row" rowSpan={5}>
              per model
            </th>
            <td>items (failed)</td>
            {report.models.map((m) => (
              <td key={m.model} className="mono">
                {m.items} ({m.failed})
              </td>
            ))}
          </tr>
          <tr>
            <td>cost</td>
            {report.models.map((m) => (
              <td key={m.model} className="mono">
                {formatUsd(m.cost_usd)}
                {m.cost_unknown ? ` + ${m.cost_unknown} unknown` : ''}
              </td>
            ))}
          </tr>
          <tr>
            <td>cost / 1,000 items</td>
            {report.models.map((m) => (
              <td key={m.model} className="mono">
                {m.items - m.cost_unknown > 0 ? formatUsd((m.cost_usd / (m.items - m.cost_unknown)) * 1000) : UNKNOWN}
              </td>
            ))}
          </tr>
          <tr>
            <td>tokens in / out</td>
            {report.models.map((m) => (
              <td key={m.model} className="mono">
                {m.input_tokens.toLocaleString('en-US')} / {m.output_tokens.toLocaleString('en-US')}
              </td>
            ))}
          </tr>
          <tr>
            <td>latency p50 / p95</td>
            {report.models.map((m) => (
              <td key={m.model} className="mono">
                {m.latency_ms.p50 === null ? UNKNOWN : `${Math.round(m.latency_ms.p50)} / ${Math.round(m.latency_ms.p95 ?? 0)} ms`}
              </td>
            ))}
          </tr>
        </tbody>
      </table>
    </div>
  );
}
