import { sharedLabels } from './chart-labels';
import { useMemo, type CSSProperties } from 'react';
import type { EvalReport } from '../../../../shared/schemas/evaluation';
import { Chart, NEUTRAL, PALETTE, shadeOf } from '../../ui/Chart';
import { costPerThousand, metricOf } from './metric-format';
import { reliabilityOption, reliabilityTable, type ReliabilitySeries } from './reliability-chart';

/** Tooltips as rich text: no inline-styled HTML, so the app's Content-Security-Policy holds. */
const TOOLTIP = { trigger: 'axis', renderMode: 'richText' } as const;

/** Observed accuracy per confidence bin beside the bin's mean confidence (options in reliability-chart.ts). */
export function ReliabilityChart({ title, series }: { title: string; series: ReliabilitySeries[] }) {
  const option = useMemo(() => reliabilityOption(series), [series]);
  const table = useMemo(() => reliabilityTable(series), [series]);
  return <Chart option={option} height={260} label={`Reliability diagram: ${title}`} table={table} />;
}

/** Cost per 1,000 items per model, and latency p50/p95 per model: two charts, one axis each. */
export function CostLatencyChart({ report }: { report: EvalReport }) {
  const [cost, latency] = useMemo(() => {
    // The model's name after its author: four full names do not fit under four bars.
    const models = report.models.map((m) => m.model.slice(m.model.indexOf('/') + 1));
    const base = {
      tooltip: TOOLTIP,
      grid: { left: 64, right: 16, top: 32, bottom: 40 },
      xAxis: { type: 'category', data: models, axisLabel: { interval: 0, width: 96, overflow: 'break' } },
    };
    return [
      {
        ...base,
        yAxis: { type: 'value', name: 'USD per 1,000 items' },
        series: [
          {
            name: 'cost per 1,000 items',
            type: 'bar',
            data: report.models.map((m) => (m.items - m.cost_unknown > 0 ? Number(((m.cost_usd / (m.items - m.cost_unknown)) * 1000).toFixed(4)) : null)),
          },
        ],
      },
      {
        ...base,
        legend: { top: 0 },
        yAxis: { type: 'value', name: 'ms' },
        series: [
          { name: 'latency p50', type: 'bar', data: report.models.map((m) => (m.latency_ms.p50 === null ? null : Math.round(m.latency_ms.p50))) },
          { name: 'latency p95', type: 'bar', data: report.models.map((m) => (m.latency_ms.p95 === null ? null : Math.round(m.latency_ms.p95))) },
        ],
      },
    ];
  }, [report]);
  return (
    <>
      <Chart option={cost} height={200} label="Cost per 1,000 items per model" />
      <Chart option={latency} height={200} label="Latency p50 and p95 per model" />
    </>
  );
}

/** The headline metric of a question's kind: what accuracy against cost plots. */
export const HEADLINE: Record<string, string> = { noul: 'accuracy', choice: 'accuracy', score: 'exact', box: 'mean_iou' };

/**
 * Accuracy (or exact level, or mean IoU) against cost per 1,000 items, one point per model with its
 * 95% interval as a bar: the models up and to the left give more for less.
 */
export function AccuracyCostChart({ report, question, type }: { report: EvalReport; question: string; type: string }) {
  const metric = HEADLINE[type] ?? 'accuracy';
  const option = useMemo(() => {
    const points = report.models.map((m, i) => ({
      model: m.model,
      cost: costPerThousand(m),
      ...metricOf(m.questions[question], metric),
      colour: PALETTE[i % PALETTE.length],
    }));
    const shown = points.filter((p): p is typeof p & { cost: number; value: number } => p.cost !== null && p.value !== null);
    const labels = sharedLabels(shown);
    const costs = shown.map((p) => p.cost).filter((c) => c > 0);
    // Prices of models often differ a hundredfold: a log axis keeps the cheap ones apart.
    const spread = costs.length > 1 && Math.max(...costs) / Math.min(...costs) > 10;
    return {
      tooltip: { trigger: 'item', renderMode: 'richText' },
      grid: { left: 64, right: 24, top: 24, bottom: 44 },
      xAxis: { type: spread ? 'log' : 'value', name: `USD per 1,000 items${spread ? ' (log scale)' : ''}`, nameLocation: 'middle', nameGap: 28, scale: true },
      yAxis: { type: 'value', name: metric.replace('_', ' '), min: 0, max: 1 },
      series: [
        {
          type: 'custom',
          name: '95% interval',
          renderItem: (_params: unknown, api: { value: (i: number) => number; coord: (p: number[]) => number[]; style: (o: object) => object }) => {
            const low = api.coord([api.value(0), api.value(1)]);
            const high = api.coord([api.value(0), api.value(2)]);
            return { type: 'line', shape: { x1: low[0], y1: low[1], x2: high[0], y2: high[1] }, style: { stroke: shadeOf(NEUTRAL), lineWidth: 2 } };
          },
          data: shown.filter((p) => p.interval).map((p) => [p.cost, p.interval!.low, p.interval!.high]),
          z: 1,
        },
        ...shown.map((p, i) => ({
          name: p.model,
          type: 'scatter',
          color: p.colour,
          symbolSize: 12,
          z: 2,
          // Models at the same point share one label, not names printed over each other.
          label: { show: labels[i] !== '', position: 'right', formatter: labels[i], fontSize: 11 },
          tooltip: { formatter: () => `${p.model}: ${metric.replace('_', ' ')} ${p.value.toFixed(3)} at $${p.cost.toPrecision(3)} per 1,000 items` },
          data: [[p.cost, p.value]],
        })),
      ],
    };
  }, [report, question, metric]);
  return <Chart option={option} height={260} label={`Accuracy against cost: ${question}`} />;
}

/** A confusion matrix as a table: rows expected, columns predicted, shaded by count. */
export function ConfusionMatrix({ model, confusion }: { model: string; confusion: Record<string, Record<string, number>> }) {
  const labels = [...new Set([...Object.keys(confusion), ...Object.values(confusion).flatMap((r) => Object.keys(r))])].sort();
  const max = Math.max(1, ...Object.values(confusion).flatMap((r) => Object.values(r)));
  return (
    <table className="table small confusion" aria-label={`Confusion matrix of ${model}`}>
      <caption className="muted small">{model}: rows expected, columns predicted</caption>
      <thead>
        <tr>
          {/* The corner names no column: a cell, not an empty header. */}
          <td />
          {labels.map((l) => (
            <th key={l} scope="col">
              {l}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {labels.map((e) => (
          <tr key={e}>
            <th scope="row">{e}</th>
            {labels.map((p) => {
              const n = confusion[e]?.[p] ?? 0;
              return (
                // The fill is shaded by count, the number is not: it stays readable on a light or an empty cell.
                <td
                  key={p}
                  className={`${e === p ? 'diagonal' : ''}${n / max > 0.5 ? ' strong' : ''}`.trim() || undefined}
                  style={{ '--share': `${Math.round((100 * n) / max)}%` } as CSSProperties}
                >
                  {n}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Score errors (score − expected) or box IoUs in buckets, one bar series per model. */
export function DistributionChart({
  question,
  type,
  series,
}: {
  question: string;
  type: 'score' | 'box';
  series: { model: string; buckets: { at: number; count: number }[] }[];
}) {
  const option = useMemo(() => {
    const ats = [...new Set(series.flatMap((s) => s.buckets.map((b) => b.at)))].sort((a, b) => a - b);
    const label = (at: number) => (type === 'box' ? `${at.toFixed(1)}–${(at + 0.1).toFixed(1)}` : at > 0 ? `+${at}` : String(at));
    return {
      tooltip: TOOLTIP,
      legend: { top: 0 },
      grid: { left: 48, right: 16, top: 40, bottom: 40 },
      xAxis: { type: 'category', data: ats.map(label), name: type === 'box' ? 'IoU' : 'score − expected', nameLocation: 'middle', nameGap: 26 },
      yAxis: { type: 'value', name: 'items', minInterval: 1 },
      series: series.map((s) => ({ name: s.model, type: 'bar', data: ats.map((at) => s.buckets.find((b) => b.at === at)?.count ?? 0) })),
    };
  }, [series, type]);
  return <Chart option={option} height={240} label={`${type === 'box' ? 'IoU histogram' : 'Error distribution'}: ${question}`} />;
}
