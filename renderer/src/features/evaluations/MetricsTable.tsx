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
                <td>{metric}</td>
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
