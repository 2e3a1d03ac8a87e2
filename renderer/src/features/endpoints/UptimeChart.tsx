import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Chart } from '../../ui/Chart';
import { uptimeQuery } from './api';

type Series = { tag: string; provider_name: string; points: { at: string; uptime: number | null; ttft_p50: number | null; throughput_p50: number | null }[] };
type Pick = 'uptime' | 'ttft_p50' | 'throughput_p50';

const CHARTS: { pick: Pick; title: string; label: string; unit: string; max?: number }[] = [
  { pick: 'uptime', title: 'Uptime, last hour (per minute)', label: 'Uptime over time by provider', unit: '%', max: 100 },
  // Each point is a minute's median over the hour the axis shows (the table's columns are over 30 minutes).
  { pick: 'ttft_p50', title: 'Time to first token, median per minute, last hour', label: 'Latency over time by provider', unit: 's' },
  { pick: 'throughput_p50', title: 'Throughput, median per minute, last hour', label: 'Throughput over time by provider', unit: 'tok/s' },
];

function lineOption(series: Series[], pick: Pick, unit: string, max: number | undefined) {
  const shown = series.filter((e) => e.points.some((p) => p[pick] !== null));
  return {
    measured: shown.length,
    option: {
      tooltip: { trigger: 'axis', valueFormatter: (v: unknown) => (typeof v === 'number' ? `${Number(v.toFixed(3))} ${unit}` : 'no traffic') },
      legend: { top: 0 },
      grid: { left: 48, right: 24, top: 36, bottom: 28 },
      xAxis: { type: 'time', splitNumber: 4 },
      yAxis: { type: 'value', min: 0, ...(max !== undefined ? { max } : {}), name: unit },
      series: shown.map((e) => ({
        name: e.provider_name,
        type: 'line',
        connectNulls: false,
        showSymbol: true,
        symbolSize: 4,
        data: e.points.map((p) => [p.at, p[pick]]),
      })),
    },
  };
}

/** Uptime, latency and throughput per provider over the last hour, minute by minute; minutes without traffic are gaps, not 100%. */
export function UptimeChart({ model, live }: { model: string; live: boolean }) {
  const history = useQuery(uptimeQuery(model, live));
  const charts = useMemo(() => CHARTS.map((c) => ({ ...c, ...lineOption(history.data ?? [], c.pick, c.unit, c.max) })), [history.data]);
  if (!history.data) return null;
  return (
    <div className="chart-grid">
      {charts.map((c) => (
        <figure key={c.pick} className="chart-box">
          <figcaption>{c.title}</figcaption>
          {c.measured > 0 ? <Chart option={c.option} height={220} label={c.label} /> : <p className="muted">No traffic in this window.</p>}
        </figure>
      ))}
    </div>
  );
}
