import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { call } from '../../transport/transport';
import { Chart } from '../../ui/Chart';

/** Uptime per provider over the last hour, minute by minute; minutes without traffic are gaps, not 100%. */
export function UptimeChart({ model, live }: { model: string; live: boolean }) {
  const history = useQuery({ queryKey: ['endpoints', 'uptime', model], queryFn: () => call('endpoints.uptime', { model, hours: 1 }), refetchInterval: live ? 5_000 : false });
  const option = useMemo(() => {
    const series = (history.data ?? []).filter((e) => e.points.some((p) => p.uptime !== null));
    return {
      measured: series.length,
      option: {
        animation: false,
        tooltip: { trigger: 'axis', valueFormatter: (v: number | null) => (v === null || v === undefined ? 'no traffic' : `${v}%`) },
        legend: { top: 0 },
        grid: { left: 48, right: 24, top: 36, bottom: 28 },
        xAxis: { type: 'time' },
        yAxis: { type: 'value', min: 0, max: 100, name: '%' },
        series: series.map((e) => ({ name: e.provider_name, type: 'line', connectNulls: false, showSymbol: true, symbolSize: 4, data: e.points.map((p) => [p.at, p.uptime]) })),
      },
    };
  }, [history.data]);
  if (!history.data) return null;
  return (
    <figure className="chart-box">
      <figcaption>Uptime, last hour (per minute)</figcaption>
      {option.measured > 0 ? <Chart option={option.option} height={220} label="Uptime over time by provider" /> : <p className="muted">No traffic in the last hour.</p>}
    </figure>
  );
}
