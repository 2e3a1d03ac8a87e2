import type { EChartsCoreOption } from 'echarts/core';

/** A chart's numbers as a table: its text alternative (WCAG 1.1.1), as Grafana's panel inspector shows a panel's data. */
export interface ChartTable {
  columns: string[];
  rows: string[][];
}

type Axis = { type?: string; name?: string; data?: unknown[] };
type Series = { name?: string; type?: string; data?: unknown[] };

const first = <T,>(axis: T | T[] | undefined): T | undefined => (Array.isArray(axis) ? axis[0] : axis);

/** A number as a table shows it: four significant figures, never in exponent form for the usual sizes. */
export function cellOf(value: unknown, axis?: Axis): string {
  if (value === null || value === undefined || (typeof value === 'number' && !Number.isFinite(value))) return '–';
  if (axis?.type === 'time' && (typeof value === 'number' || typeof value === 'string')) return new Date(value).toLocaleString();
  if (typeof value === 'number') return Number.isInteger(value) ? value.toLocaleString('en-US') : String(Number(value.toPrecision(4)));
  return String(value);
}

/**
 * The numbers an ECharts option draws, as a table: with a category axis (bars), a row per category
 * and a column per series; otherwise (points on two value or time axes) a row per point, named by
 * its series. A custom series of intervals ([x, low, high]) gives its range in the value column.
 */
export function tableOf(option: EChartsCoreOption): ChartTable {
  const o = option as { xAxis?: Axis | Axis[]; yAxis?: Axis | Axis[]; series?: Series[] };
  const x = first(o.xAxis);
  const y = first(o.yAxis);
  const series = (o.series ?? []).filter((s) => Array.isArray(s.data) && s.data.length > 0);
  const category = x?.type === 'category' ? x : y?.type === 'category' ? y : undefined;
  if (category) {
    const values = category === x ? y : x;
    const columns = [category.name ?? '', ...series.map((s) => s.name ?? '')];
    const rows = (category.data ?? []).map((c, i) => [String(c), ...series.map((s) => cellOf(s.data![i], values))]);
    return { columns, rows };
  }
  const rows: string[][] = [];
  for (const s of series) {
    for (const point of s.data!) {
      if (!Array.isArray(point)) continue;
      const value = s.type === 'custom' && point.length >= 3 ? `${cellOf(point[1], y)}–${cellOf(point[2], y)}` : cellOf(point[1], y);
      rows.push([s.name ?? '', cellOf(point[0], x), value]);
    }
  }
  return { columns: ['series', x?.name ?? 'x', y?.name ?? 'y'], rows };
}

/** The chart's table, folded under the chart: one disclosure, nothing inside its summary but words. */
export function ChartData({ label, table }: { label: string; table: ChartTable }) {
  if (table.rows.length === 0) return null;
  return (
    <details className="chart-data">
      <summary>The numbers</summary>
      <table className="table small" aria-label={`${label}: the numbers`}>
        <thead>
          <tr>
            {table.columns.map((c, i) => (
              <th key={i} scope="col">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {table.rows.map((row, r) => (
            <tr key={r}>
              {row.map((cell, i) =>
                i === 0 ? (
                  <th key={i} scope="row">
                    {cell}
                  </th>
                ) : (
                  <td key={i} className="num">
                    {cell}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
