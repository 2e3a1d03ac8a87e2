import { useDeferredValue, useMemo, useState } from 'react';
import type { EvalReport } from '../../../../shared/schemas/evaluation';
import { quantileSorted } from 'simple-statistics';
import { resampleCount } from '../../../../shared/metrics/resample';
import { atThreshold, DEFAULT_THRESHOLD, f1Interval, rateIntervals, rates, type CurvePoint } from '../../../../shared/metrics/binary';
import { Chart, PALETTE } from '../../ui/Chart';
import { intervalText, value3 } from './metric-format';
import { ColumnHeads } from '../../ui/ColumnHeads';

const TOOLTIP = { trigger: 'item', renderMode: 'richText' } as const;

/** Precision against recall as the threshold moves from 1 down to 0, one line per model, the threshold in force marked. */
function PrCurve({ question, series, threshold }: { question: string; series: { model: string; curve: CurvePoint[] }[]; threshold: number }) {
  const option = useMemo(
    () => ({
      tooltip: TOOLTIP,
      legend: { top: 0, type: 'plain' },
      grid: { left: 56, right: 16, top: 36 + 18 * Math.floor(series.length / 3), bottom: 40 },
      xAxis: { type: 'value', min: 0, max: 1, name: 'recall', nameLocation: 'middle', nameGap: 26 },
      yAxis: { type: 'value', min: 0, max: 1, name: 'precision', nameLocation: 'middle', nameGap: 36 },
      series: series.flatMap((s, i) => {
        const points = s.curve.map((c) => ({ r: rates(c), t: c.threshold })).filter((x) => x.r.precision !== null && x.r.recall !== null);
        const at = atThreshold(s.curve, threshold);
        const here = at ? rates(at) : null;
        return [
          {
            name: s.model,
            type: 'line',
            color: PALETTE[i % PALETTE.length],
            step: 'end',
            symbol: 'none',
            data: points.map((x) => [x.r.recall, x.r.precision, x.t]),
          },
          {
            name: s.model,
            type: 'scatter',
            color: PALETTE[i % PALETTE.length],
            symbolSize: 10,
            tooltip: { formatter: () => `${s.model} at ${threshold.toFixed(2)}` },
            data: here && here.precision !== null && here.recall !== null ? [[here.recall, here.precision]] : [],
          },
        ];
      }),
    }),
    [series, threshold],
  );
  return <Chart option={option} height={260} label={`Precision-recall curve: ${question}`} />;
}

/** The 2 × 2 confusion of one model at the threshold: rows what was true, columns what was said. */
function Confusion({ model, c }: { model: string; c: CurvePoint }) {
  return (
    <table className="table small confusion binary-confusion" aria-label={`Confusion at the threshold: ${model}`}>
      <caption className="muted small">{model}</caption>
      <thead>
        <tr>
          {/* The corner names no column: a cell, not an empty header. */}
          <td />
          <th scope="col">said yes</th>
          <th scope="col">said no</th>
        </tr>
      </thead>
      <tbody>
        <tr>
          <th scope="row">was true</th>
          <td className="diagonal" title="true positives">
            {c.tp}
          </td>
          <td title="false negatives: true items missed">{c.fn}</td>
        </tr>
        <tr>
          <th scope="row">was false</th>
          <td title="false positives">{c.fp}</td>
          <td className="diagonal" title="true negatives">
            {c.tn}
          </td>
        </tr>
      </tbody>
    </table>
  );
}

const itemsOf = (c: CurvePoint) => c.tp + c.fp + c.fn + c.tn;

type Series = { model: string; curve: CurvePoint[] }[];

/** The threshold's slider, and the way back to 0.50 once it has moved. */
function ThresholdSlider({ id, question, threshold, setThreshold }: { id: string; question: string; threshold: number; setThreshold: (t: number) => void }) {
  return (
    <div className="toolbar">
      <label htmlFor={id}>Say yes at P(true) ≥ {threshold.toFixed(2)}</label>
      <input
        id={id}
        type="range"
        min={0}
        max={1}
        step={0.01}
        value={threshold}
        onChange={(e) => setThreshold(Number(e.target.value))}
        aria-label={`Threshold for ${question}`}
        aria-valuetext={`say yes at P(true) ${threshold.toFixed(2)} or more`}
      />
      {threshold !== DEFAULT_THRESHOLD ? (
        <button type="button" className="secondary small" onClick={() => setThreshold(DEFAULT_THRESHOLD)}>
          Back to 0.50
        </button>
      ) : null}
    </div>
  );
}

/** One model's rates at the threshold, each with its interval; F1's shows "…" until its bootstrap catches up with the slider. */
function RatesRow({ model, c, f1: f1Text }: { model: string; c: CurvePoint; f1: string }) {
  const r = rates(c);
  const i = rateIntervals(c);
  return (
    <tr>
      <th scope="row" className="mono">
        {model}
      </th>
      <td className="mono" data-threshold-metric={`${model} precision`}>
        {r.precision === null ? 'none said yes' : value3(r.precision)} <span className="muted">{intervalText(i.precision)}</span>
      </td>
      <td className="mono" data-threshold-metric={`${model} recall`}>
        {value3(r.recall)} <span className="muted">{intervalText(i.recall)}</span>
      </td>
      <td className="mono" data-threshold-metric={`${model} F1`}>
        {value3(r.f1)} <span className="muted">{f1Text}</span>
      </td>
      <td className="mono">
        {value3(r.accuracy)} <span className="muted">{intervalText(i.accuracy)}</span>
      </td>
      <td className="mono">
        {c.tp + c.fp} of {r.n}
      </td>
    </tr>
  );
}

/** The models' rates at the threshold. */
function RatesTable({ question, series, threshold, f1Text }: { question: string; series: Series; threshold: number; f1Text: (model: string) => string }) {
  return (
    <table className="table small" aria-label={`Yes/no metrics at the threshold: ${question}`}>
      <ColumnHeads names={['Model', 'precision', 'recall', 'F1', 'accuracy', 'said yes']} />
      <tbody>
        {series.map((s) => {
          const c = atThreshold(s.curve, threshold);
          return c ? <RatesRow key={s.model} model={s.model} c={c} f1={f1Text(s.model)} /> : null;
        })}
      </tbody>
    </table>
  );
}

/**
 * A yes/no question at a threshold the analyst moves (0.5 at first): precision, recall and accuracy
 * with Wilson intervals, F1 with a percentile bootstrap one, the confusion per model, and the
 * precision-recall curve.
 */
export function ThresholdPanel({ report, question }: { report: EvalReport; question: string }) {
  const [threshold, setThreshold] = useState(DEFAULT_THRESHOLD);
  const series = report.models.map((m) => ({ model: m.model, curve: (m.questions[question]?.curve ?? []) as CurvePoint[] })).filter((s) => s.curve.length > 0);
  // F1's bootstrap draws as many items as there are, per model: followed a moment behind the slider.
  const settled = useDeferredValue(threshold);
  const f1Intervals = useMemo(
    () =>
      new Map(
        series.map((s) => [
          s.model,
          (() => {
            const c = atThreshold(s.curve, settled);
            return c ? f1Interval(c, quantileSorted) : null;
          })(),
        ]),
      ),
    // Keyed on what series is made of: it is rebuilt from the report each render.
    [report, question, settled],
  );
  if (series.length === 0) return null;
  const id = `threshold-${question}`;
  return (
    <section className="threshold-panel" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="small-heading">
        <span className="mono">{question}</span> at a threshold
      </h3>
      <ThresholdSlider id={id} question={question} threshold={threshold} setThreshold={setThreshold} />
      <p className="muted small">
        95% intervals: Wilson score for precision, recall and accuracy; percentile bootstrap over items for F1 (
        {resampleCount(itemsOf(series[0]!.curve[0]!)).toLocaleString('en-US')} resamples, seeded).
      </p>
      <div className="threshold-grid">
        <RatesTable
          question={question}
          series={series}
          threshold={threshold}
          f1Text={(model) => (settled === threshold ? intervalText(f1Intervals.get(model)) : '…')}
        />
        <div className="confusions">
          {series.map((s) => {
            const c = atThreshold(s.curve, threshold);
            return c ? <Confusion key={s.model} model={s.model} c={c} /> : null;
          })}
        </div>
        <PrCurve question={question} series={series} threshold={threshold} />
      </div>
    </section>
  );
}
