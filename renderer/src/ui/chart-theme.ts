import type { EChartsCoreOption } from 'echarts/core';

/**
 * Series colours that stay apart for colour-blind readers: the Okabe–Ito palette (Okabe & Ito,
 * "Color Universal Design", 2008). ECharts' own default has a dark slate third colour that vanished
 * on the dark theme. These name the colours; each is drawn in its theme's shade (`--series-1` … in
 * styles.css), made as light or as dark as it takes to stand 3:1 against the chart's surface
 * (WCAG 1.4.11). NEUTRAL is the grey of reference lines and intervals.
 */
export const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#F0E442'];
export const NEUTRAL = '#8a94a3';

/** The theme's shade of each named colour, read from the page's style when the chart is drawn. */
function themeShades(css: CSSStyleDeclaration): Map<string, string> {
  const shades = new Map<string, string>();
  PALETTE.forEach((c, i) => shades.set(c.toLowerCase(), css.getPropertyValue(`--series-${i + 1}`).trim() || c));
  shades.set(NEUTRAL, css.getPropertyValue('--chart-neutral').trim() || NEUTRAL);
  return shades;
}

/** The option with every named colour in its theme's shade (data and functions left as they are). */
function shaded<T>(value: T, shades: Map<string, string>): T {
  if (typeof value === 'string') return (shades.get(value.toLowerCase()) ?? value) as T;
  if (Array.isArray(value)) return value.map((v) => shaded(v, shades)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === 'data' || k === 'formatter' ? v : shaded(v, shades)])) as T;
  }
  return value;
}

/** The colour a chart's own drawing code (a custom series) uses for a named colour, in the theme shown. */
export const shadeOf = (colour: string): string => themeShades(getComputedStyle(document.documentElement)).get(colour.toLowerCase()) ?? colour;

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

/** Text and axis colours from the app's theme (light or dark), which ECharts does not read itself; legends wrap instead of paging; no easing. */
export function themed(option: EChartsCoreOption, width: number): EChartsCoreOption {
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
  const shades = themeShades(css);
  return {
    color: PALETTE.map((c) => shades.get(c.toLowerCase()) ?? c),
    ...o,
    // Drawn at once, at its values: ECharts' default eases every draw in over up to a second, and a
    // live chart is drawn again at each poll. Over the browser journeys the charts' code took 17.9 s
    // of the pages' CPU eased (the rest of the app 25.7 s), 12.9 s drawn at once; what is read is
    // the numbers, not their arrival.
    animation: false,
    ...(series ? { series: shaded(series, shades) } : {}),
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
export function extraHeight(option: EChartsCoreOption, width: number): number {
  const o = option as Record<string, unknown>;
  if (!o['legend'] || !o['grid']) return 0;
  const grid = withLegendRoom(o, width) as { top: number };
  return grid.top - ((o['grid'] as { top?: number }).top ?? 40);
}
