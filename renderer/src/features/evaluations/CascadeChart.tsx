import { useMemo } from 'react';
import type { CascadeCurve, CascadePoint } from '../../../../shared/schemas/cascade-curve';
import { formatUsd } from '../../../../shared/money/format-usd';
import { Chart, NEUTRAL, PALETTE } from '../../ui/Chart';

const TOOLTIP = { trigger: 'item', renderMode: 'richText' } as const;
const percent = (x: number | null) => (x === null ? '–' : `${(x * 100).toFixed(1)}%`);
const perItem = (usd: number) => Number(usd.toPrecision(4));

/** Accuracy against cost per item (both stages billed): the cascade at every threshold as a line, each model alone as a point, the picked threshold ringed. */
export function CurveChart({
  curve,
  picked,
  preset,
}: {
  curve: CascadeCurve;
  picked: CascadePoint | null;
  /** a saved preset's threshold on this curve today, marked beside the picked one */
  preset?: { name: string; point: CascadePoint } | null;
}) {
  const option = useMemo(() => {
    const line = [...curve.points].sort((a, b) => a.cost_per_item - b.cost_per_item).filter((p) => p.accuracy !== null);
    const single = (s: CascadeCurve['first'], i: number) => ({
      name: `${s.model} alone`,
      type: 'scatter',
      color: PALETTE[i],
      symbol: i === 0 ? 'circle' : 'rect',
      symbolSize: 13,
      z: 3,
      // The cheaper model's name to its right, the dearer one's to its left: both stay inside the chart.
      label: { show: true, position: i === 0 ? 'right' : 'left', formatter: `${s.model.split('/').pop()} alone`, fontSize: 11 },
      tooltip: { formatter: () => `${s.model} alone: ${percent(s.accuracy)} at ${formatUsd(s.cost_per_item)} per item` },
      data: s.accuracy === null ? [] : [[perItem(s.cost_per_item), s.accuracy]],
    });
    return {
      tooltip: TOOLTIP,
      legend: { top: 0 },
      grid: { left: 64, right: 40, top: 40, bottom: 44 },
      xAxis: { type: 'value', name: 'USD per item', nameLocation: 'middle', nameGap: 28, scale: true },
      yAxis: { type: 'value', name: curve.metric, scale: true },
      series: [
        {
          name: 'cascade',
          type: 'line',
          color: NEUTRAL,
          symbolSize: 5,
          z: 2,
          tooltip: {
            formatter: (p: { dataIndex: number }) => {
              const x = line[p.dataIndex]!;
              return `threshold ${x.threshold}: ${percent(x.accuracy)} at ${formatUsd(x.cost_per_item)} per item, ${percent(x.escalated)} escalated`;
            },
          },
          data: line.map((p) => [perItem(p.cost_per_item), p.accuracy]),
        },
        single(curve.first, 0),
        single(curve.second, 1),
        {
          name: 'picked',
          type: 'scatter',
          color: PALETTE[2],
          symbol: 'emptyCircle',
          symbolSize: 20,
          z: 4,
          tooltip: { formatter: () => (picked ? `picked: threshold ${picked.threshold}` : '') },
          data: picked && picked.accuracy !== null ? [[perItem(picked.cost_per_item), picked.accuracy]] : [],
        },
        // A saved preset's threshold today, when one is chosen to adopt into and the curve holds its condition.
        ...(preset
          ? [
              {
                name: `${preset.name} now`,
                type: 'scatter',
                color: PALETTE[3],
                symbol: 'emptyRect',
                symbolSize: 18,
                z: 4,
                tooltip: { formatter: () => `${preset.name} now: threshold ${preset.point.threshold}` },
                data: preset.point.accuracy === null ? [] : [[perItem(preset.point.cost_per_item), preset.point.accuracy]],
              },
            ]
          : []),
      ],
    };
  }, [curve, picked, preset]);
  return <Chart option={option} height={300} label={`Cascade accuracy against cost: ${curve.first.model} then ${curve.second.model}`} />;
}
