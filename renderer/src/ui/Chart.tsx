import { useEffect, useRef } from 'react';
import * as echarts from 'echarts/core';
import { BarChart, CustomChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent, DatasetComponent } from 'echarts/components';
import { SVGRenderer } from 'echarts/renderers';
import type { EChartsCoreOption } from 'echarts/core';

echarts.use([BarChart, LineChart, CustomChart, GridComponent, LegendComponent, TooltipComponent, DatasetComponent, SVGRenderer]);

/**
 * Series colours that read on the light and the dark theme alike and stay apart for colour-blind
 * readers: the Okabe–Ito palette (Okabe & Ito, "Color Universal Design", 2008). ECharts' own
 * default has a dark slate third colour that vanished on the dark theme.
 */
export const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#F0E442'];

/** Text and axis colours from the app's theme (light or dark), which ECharts does not read itself. */
function themed(option: EChartsCoreOption): EChartsCoreOption {
  const css = getComputedStyle(document.documentElement);
  const text = css.getPropertyValue('--text').trim() || '#1b1f24';
  const muted = css.getPropertyValue('--muted').trim() || '#5b6573';
  const border = css.getPropertyValue('--border').trim() || '#dde1e7';
  const axis = (a: unknown) => (a && typeof a === 'object' ? { ...a, axisLabel: { hideOverlap: true, ...((a as { axisLabel?: object }).axisLabel ?? {}), color: muted }, nameTextStyle: { color: muted }, axisLine: { lineStyle: { color: border } }, splitLine: { lineStyle: { color: border } } } : a);
  const surface = css.getPropertyValue('--surface').trim() || '#ffffff';
  const o = option as Record<string, unknown>;
  // Point labels in the theme's text colour without ECharts' halo, which smudged them on the dark theme.
  const series = Array.isArray(o['series']) ? (o['series'] as Record<string, unknown>[]).map((one) => (one['label'] ? { ...one, label: { color: text, textBorderWidth: 0, ...(one['label'] as object) } } : one)) : o['series'];
  return {
    color: PALETTE,
    ...o,
    ...(series ? { series } : {}),
    textStyle: { color: text },
    // Rich-text tooltips are drawn by the chart itself: the HTML tooltip sets inline style attributes,
    // which the Content-Security-Policy (style-src without 'unsafe-inline') refuses, one report per move.
    ...(o['tooltip'] ? { tooltip: { ...(o['tooltip'] as object), renderMode: 'richText', backgroundColor: surface, borderColor: border, textStyle: { color: text } } } : {}),
    ...(o['legend'] ? { legend: { type: 'scroll', ...(o['legend'] as object), textStyle: { color: text }, pageTextStyle: { color: muted }, pageIconColor: text, pageIconInactiveColor: border } } : {}),
    ...(o['xAxis'] ? { xAxis: axis(o['xAxis']) } : {}),
    ...(o['yAxis'] ? { yAxis: axis(o['yAxis']) } : {}),
  };
}

/** An ECharts chart that follows its container's size; `label` names it for assistive technology. */
export function Chart({ option, height, label }: { option: EChartsCoreOption; height: number; label: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  useEffect(() => {
    if (!ref.current) return;
    chart.current = echarts.init(ref.current, null, { renderer: 'svg' });
    const observer = new ResizeObserver(() => chart.current?.resize());
    observer.observe(ref.current);
    return () => {
      observer.disconnect();
      chart.current?.dispose();
      chart.current = null;
    };
  }, []);
  useEffect(() => {
    chart.current?.setOption(themed(option), { notMerge: true });
  }, [option]);
  return <div ref={ref} className="chart" role="img" aria-label={label} style={{ height }} />;
}
