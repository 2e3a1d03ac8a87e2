import type { ReliabilityBin } from '../../../../shared/schemas/evaluation';
import type { ChartTable } from '../../ui/chart-table';
import { NEUTRAL, PALETTE } from '../../ui/chart-theme';

export interface ReliabilitySeries {
  model: string;
  bins: ReliabilityBin[];
}

const SHAPES = ['emptyCircle', 'emptyRect', 'emptyTriangle', 'emptyDiamond'] as const;
const LINES = ['solid', 'dashed', 'dotted'] as const;

const point = (b: ReliabilityBin): [number, number, number] => [Number(b.confidence.toFixed(4)), Number(b.accuracy.toFixed(4)), b.count];

/**
 * Observed accuracy per confidence bin beside the bin's mean confidence; the diagonal is perfect
 * calibration. How many items a bin holds is the marker's size, the tooltip's "n = …" and a column
 * of the chart's table: printed beside every marker, five models' counts overprinted one another
 * ("n=10n=20") wherever their bins met.
 */
export function reliabilityOption(series: readonly ReliabilitySeries[]) {
  return {
    tooltip: { trigger: 'item', renderMode: 'richText' },
    legend: { top: 0 },
    grid: { left: 56, right: 16, top: 40, bottom: 40 },
    xAxis: { type: 'value', min: 0, max: 1, name: 'stated confidence', nameLocation: 'middle', nameGap: 26 },
    yAxis: { type: 'value', min: 0, max: 1, name: 'observed accuracy', nameLocation: 'middle', nameGap: 36 },
    series: [
      // Grey, so each model keeps the colour it has in every other chart (the palette's order).
      {
        name: 'perfect calibration',
        type: 'line',
        data: [
          [0, 0],
          [1, 1],
        ],
        symbol: 'none',
        color: NEUTRAL,
        lineStyle: { type: 'dashed', width: 1 },
        tooltip: { show: false },
      },
      ...series.map((s, i) => ({
        name: s.model,
        type: 'line',
        data: s.bins.map(point),
        // Models whose bins coincide must both stay visible: a shape, a line pattern and a size step
        // of their own (a later model is drawn larger, behind an earlier one).
        color: PALETTE[i % PALETTE.length],
        symbol: SHAPES[i % SHAPES.length],
        symbolSize: (value: number[]) => Math.min(18, 4 + Math.sqrt(value[2] ?? 1) * 2) + 4 * i,
        lineStyle: { type: LINES[i % LINES.length] },
        // Earlier (smaller) markers drawn over later (larger) ones, whose hollow shapes are filled white.
        z: 10 + series.length - i,
        label: { show: false },
        tooltip: {
          formatter: (p: { value: number[] }) => `${s.model}\nstated ${p.value[0]!.toFixed(2)} · observed ${p.value[1]!.toFixed(2)} · n = ${p.value[2]}`,
        },
      })),
    ],
  };
}

/** The chart's numbers, a row per bin with its count: every n readable, however the markers crowd. */
export function reliabilityTable(series: readonly ReliabilitySeries[]): ChartTable {
  return {
    columns: ['model', 'stated confidence', 'observed accuracy', 'items (n)'],
    rows: series.flatMap((s) => s.bins.map(point).map(([x, y, n]) => [s.model, x.toFixed(2), y.toFixed(2), String(n)])),
  };
}
