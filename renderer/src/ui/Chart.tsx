import { useEffect, useRef, useState } from 'react';
import * as echarts from 'echarts/core';
import { BarChart, CustomChart, LineChart, ScatterChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent, DatasetComponent } from 'echarts/components';
import { SVGRenderer } from 'echarts/renderers';
import type { EChartsCoreOption } from 'echarts/core';

echarts.use([BarChart, LineChart, ScatterChart, CustomChart, GridComponent, LegendComponent, TooltipComponent, DatasetComponent, SVGRenderer]);

/**
 * Series colours that read on the light and the dark theme alike and stay apart for colour-blind
 * readers: the Okabe–Ito palette (Okabe & Ito, "Color Universal Design", 2008). ECharts' own
 * default has a dark slate third colour that vanished on the dark theme.
 */
export const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#F0E442'];

/** Rough width of a legend entry: its name at the legend's font, with the symbol and the gap. */
const legendEntryWidth = (name: string) => name.length * 7 + 34;

/**
 * Rows a plain (wrapping) legend takes at this width, so the plot starts below it: a paged legend
 * hid most names behind arrows and cut the others ("Bargain (simulate").
 */
export function legendRows(names: readonly string[], width: number): number {
  if (names.length === 0 || width <= 0) return 1;
  let rows = 1;
  let used = 0;
  for (const name of names) {
    const w = legendEntryWidth(name);
    if (used > 0 && used + w > width - 24) {
      rows += 1;
      used = 0;
    }
    used += w;
  }
  return rows;
}

const LEGEND_ROW = 22;

/** Text and axis colours from the app's theme (light or dark), which ECharts does not read itself; legends wrap instead of paging. */
function themed(option: EChartsCoreOption, width: number): EChartsCoreOption {
  const css = getComputedStyle(document.documentElement);
  const text = css.getPropertyValue('--text').trim() || '#1b1f24';
  const muted = css.getPropertyValue('--muted').trim() || '#5b6573';
  const border = css.getPropertyValue('--border').trim() || '#dde1e7';
  const axis = (a: unknown) =>
    a && typeof a === 'object'
      ? {
          ...a,
          axisLabel: { hideOverlap: true, ...((a as { axisLabel?: object }).axisLabel ?? {}), color: muted },
          nameTextStyle: { color: muted },
          axisLine: { lineStyle: { color: border } },
          splitLine: { lineStyle: { color: border } },
        }
      : a;
  const surface = css.getPropertyValue('--surface').trim() || '#ffffff';
  const o = option as Record<string, unknown>;
  // Point labels in the theme's text colour without ECharts' halo, which smudged them on the dark theme.
  const series = Array.isArray(o['series'])
    ? (o['series'] as Record<string, unknown>[]).map((one) =>
        one['label'] ? { ...one, label: { color: text, textBorderWidth: 0, ...(one['label'] as object) } } : one,
      )
    : o['series'];
  return {
    color: PALETTE,
    ...o,
    ...(series ? { series } : {}),
    textStyle: { color: text },
    // Rich-text tooltips are drawn by the chart itself: the HTML tooltip sets inline style attributes,
    // which the Content-Security-Policy (style-src without 'unsafe-inline') refuses, one report per move.
    ...(o['tooltip']
      ? { tooltip: { ...(o['tooltip'] as object), renderMode: 'richText', backgroundColor: surface, borderColor: border, textStyle: { color: text } } }
      : {}),
    ...(o['legend'] ? { legend: { type: 'plain', ...(o['legend'] as object), textStyle: { color: text } } } : {}),
    ...(o['legend'] && o['grid'] ? { grid: withLegendRoom(o, width) } : {}),
    ...(o['xAxis'] ? { xAxis: axis(o['xAxis']) } : {}),
    ...(o['yAxis'] ? { yAxis: axis(o['yAxis']) } : {}),
  };
}

/** The grid moved down by the rows its wrapping legend takes beyond the first. */
function withLegendRoom(o: Record<string, unknown>, width: number): object {
  const grid = o['grid'] as { top?: number };
  const series = Array.isArray(o['series']) ? (o['series'] as { name?: string }[]) : [];
  const names = [...new Set(series.map((x) => x.name).filter((n): n is string => typeof n === 'string'))];
  return { ...grid, top: (grid.top ?? 40) + (legendRows(names, width) - 1) * LEGEND_ROW };
}

/** What the legend's extra rows add to the chart's height, so the plot keeps its own. */
function extraHeight(option: EChartsCoreOption, width: number): number {
  const o = option as Record<string, unknown>;
  if (!o['legend'] || !o['grid']) return 0;
  const grid = withLegendRoom(o, width) as { top: number };
  return grid.top - ((o['grid'] as { top?: number }).top ?? 40);
}

/**
 * An ECharts chart that follows its container's size; `label` names it for assistive technology.
 * It is laid out again only when its option or its width changed: the size observer also reports
 * the first layout and every change of height (the legend's rows change the height), and each
 * `setOption` with `notMerge` redraws the whole chart.
 */
export function Chart({ option, height, label }: { option: EChartsCoreOption; height: number; label: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  const current = useRef(option);
  current.current = option;
  const drawn = useRef<{ option: EChartsCoreOption; width: number } | null>(null);
  const [extra, setExtra] = useState(0);
  const draw = (next: EChartsCoreOption) => {
    const width = ref.current?.clientWidth ?? 0;
    if (!chart.current || (drawn.current?.option === next && drawn.current.width === width)) return;
    drawn.current = { option: next, width };
    chart.current.setOption(themed(next, width), { notMerge: true });
    // A new width may wrap the legend onto more or fewer rows.
    setExtra(extraHeight(next, width));
  };
  useEffect(() => {
    if (!ref.current) return;
    chart.current = echarts.init(ref.current, null, { renderer: 'svg' });
    const observer = new ResizeObserver(() => {
      draw(current.current);
      chart.current?.resize();
    });
    observer.observe(ref.current);
    return () => {
      observer.disconnect();
      chart.current?.dispose();
      chart.current = null;
      drawn.current = null;
    };
    // Once per mount: `draw` reads only refs.
  }, []);
  useEffect(() => draw(option), [option]);
  return <div ref={ref} className="chart" role="img" aria-label={label} style={{ height: height + extra }} />;
}
