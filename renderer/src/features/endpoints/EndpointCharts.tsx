import { useMemo } from 'react';
import type { Endpoint, PercentileStats } from '../../../../shared/schemas/endpoint';
import { Chart, PALETTE } from '../../ui/Chart';

const PERCENTILES = ['p50', 'p75', 'p90', 'p99'] as const;

function percentileOption(endpoints: Endpoint[], pick: (e: Endpoint) => PercentileStats | null, unit: string) {
  const measured = endpoints.filter((e) => pick(e) !== null);
  return {
    measured,
    option: {
      tooltip: { trigger: 'axis', valueFormatter: (v: unknown) => (typeof v === 'number' ? `${Number(v.toFixed(3))} ${unit}` : 'not measured') },
      legend: { top: 0, textStyle: { color: 'inherit' } },
      grid: { left: 160, right: 24, top: 32, bottom: 28 },
      xAxis: { type: 'value', name: unit, nameLocation: 'end' },
      yAxis: { type: 'category', data: measured.map((e) => e.provider_name), inverse: true },
      series: PERCENTILES.map((p, i) => ({ name: p, type: 'bar', data: measured.map((e) => pick(e)![p]), itemStyle: { color: PALETTE[i] } })),
    },
  };
}

/**
 * Price against time to first token, one point per endpoint (as OpenRouter plots providers): the
 * ones down and to the left answer sooner for less. Only endpoints with both a price and a measured
 * latency are drawn; the others are named.
 */
function priceLatencyOption(endpoints: Endpoint[]) {
  const points = endpoints
    .map((e) => ({ name: e.provider_name, price: Number(e.pricing.prompt) * 1e6, latency: e.latency_last_30m?.p50 ?? null }))
    .filter((p): p is { name: string; price: number; latency: number } => p.latency !== null && Number.isFinite(p.price) && p.price >= 0);
  const prices = points.map((p) => p.price).filter((p) => p > 0);
  const log = prices.length > 1 && prices.length === points.length && Math.max(...prices) / Math.min(...prices) > 10;
  return {
    shown: points.map((p) => p.name),
    option: {
      tooltip: { trigger: 'item' },
      // Room on the right for the last point's name, above for the axis name.
      grid: { left: 56, right: 72, top: 30, bottom: 44 },
      xAxis: {
        type: log ? 'log' : 'value',
        name: `USD per million prompt tokens${log ? ' (log scale)' : ''}`,
        nameLocation: 'middle',
        nameGap: 28,
        scale: true,
      },
      yAxis: { type: 'value', name: 'TTFT p50, s', min: 0 },
      series: points.map((p) => ({
        name: p.name,
        type: 'scatter',
        symbolSize: 12,
        label: { show: true, position: 'right', formatter: p.name.replace(' (simulated)', ''), fontSize: 11 },
        tooltip: { formatter: () => `${p.name}: $${p.price.toFixed(2)}/M in, ${p.latency.toFixed(3)} s to first token` },
        data: [[p.price, p.latency]],
      })),
    },
  };
}

/** Latency and throughput percentiles side by side per provider; unmeasured providers are named, not drawn as zero. */
export function EndpointCharts({ endpoints }: { endpoints: Endpoint[] }) {
  const latency = useMemo(() => percentileOption(endpoints, (e) => e.latency_last_30m, 's'), [endpoints]);
  const throughput = useMemo(() => percentileOption(endpoints, (e) => e.throughput_last_30m, 'tok/s'), [endpoints]);
  const unmeasured = (list: Endpoint[]) => endpoints.filter((e) => !list.includes(e)).map((e) => e.provider_name);
  const priceLatency = useMemo(() => priceLatencyOption(endpoints), [endpoints]);
  const notPlotted = endpoints.map((e) => e.provider_name).filter((n) => !priceLatency.shown.includes(n));
  return (
    <div className="chart-grid">
      <figure className="chart-box">
        <figcaption>Price against time to first token, last 30 min</figcaption>
        {priceLatency.shown.length > 0 ? (
          <Chart option={priceLatency.option} height={240} label="Price against latency by provider" />
        ) : (
          <p className="muted">No endpoint has both a price and a measured latency yet.</p>
        )}
        {notPlotted.length > 0 && priceLatency.shown.length > 0 ? (
          <p className="muted small">Not plotted (no price or no measurement): {notPlotted.join(', ')}</p>
        ) : null}
      </figure>
      {[
        { title: 'Time to first token, last 30 min', data: latency, label: 'Latency percentiles by provider' },
        { title: 'Throughput after the first token, last 30 min', data: throughput, label: 'Throughput percentiles by provider' },
      ].map(({ title, data, label }) => (
        <figure key={title} className="chart-box">
          <figcaption>{title}</figcaption>
          {data.measured.length > 0 ? (
            <Chart option={data.option} height={60 + 44 * data.measured.length} label={label} />
          ) : (
            <p className="muted">No measurements in the last 30 minutes.</p>
          )}
          {unmeasured(data.measured).length > 0 ? <p className="muted small">Not measured yet: {unmeasured(data.measured).join(', ')}</p> : null}
        </figure>
      ))}
    </div>
  );
}
