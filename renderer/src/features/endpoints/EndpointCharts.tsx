import { useMemo } from 'react';
import type { Endpoint, PercentileStats } from '../../../../shared/schemas/endpoint';
import { Chart } from '../../ui/Chart';

const PERCENTILES = ['p50', 'p75', 'p90', 'p99'] as const;
const COLORS = ['#3a5bd9', '#6c8cff', '#e39b2f', '#c0392b'];

function percentileOption(endpoints: Endpoint[], pick: (e: Endpoint) => PercentileStats | null, unit: string) {
  const measured = endpoints.filter((e) => pick(e) !== null);
  return {
    measured,
    option: {
      animation: false,
      tooltip: { trigger: 'axis', valueFormatter: (v: unknown) => (typeof v === 'number' ? `${Number(v.toFixed(3))} ${unit}` : 'not measured') },
      legend: { top: 0, textStyle: { color: 'inherit' } },
      grid: { left: 160, right: 24, top: 32, bottom: 28 },
      xAxis: { type: 'value', name: unit, nameLocation: 'end' },
      yAxis: { type: 'category', data: measured.map((e) => e.provider_name), inverse: true },
      series: PERCENTILES.map((p, i) => ({ name: p, type: 'bar', data: measured.map((e) => pick(e)![p]), itemStyle: { color: COLORS[i] } })),
    },
  };
}

/** Latency and throughput percentiles side by side per provider; unmeasured providers are named, not drawn as zero. */
export function EndpointCharts({ endpoints }: { endpoints: Endpoint[] }) {
  const latency = useMemo(() => percentileOption(endpoints, (e) => e.latency_last_30m, 's'), [endpoints]);
  const throughput = useMemo(() => percentileOption(endpoints, (e) => e.throughput_last_30m, 'tok/s'), [endpoints]);
  const unmeasured = (list: Endpoint[]) => endpoints.filter((e) => !list.includes(e)).map((e) => e.provider_name);
  return (
    <div className="chart-grid">
      {[
        { title: 'Time to first token, last 30 min', data: latency, label: 'Latency percentiles by provider' },
        { title: 'Throughput after the first token, last 30 min', data: throughput, label: 'Throughput percentiles by provider' },
      ].map(({ title, data, label }) => (
        <figure key={title} className="chart-box">
          <figcaption>{title}</figcaption>
          {data.measured.length > 0 ? <Chart option={data.option} height={60 + 44 * data.measured.length} label={label} /> : <p className="muted">No measurements in the last 30 minutes.</p>}
          {unmeasured(data.measured).length > 0 ? <p className="muted small">Not measured yet: {unmeasured(data.measured).join(', ')}</p> : null}
        </figure>
      ))}
    </div>
  );
}
