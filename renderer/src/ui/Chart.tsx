import { useEffect, useMemo, useRef, useState } from 'react';
import * as echarts from 'echarts/core';
import { BarChart, CustomChart, LineChart, ScatterChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent, DatasetComponent } from 'echarts/components';
import { SVGRenderer } from 'echarts/renderers';
import type { EChartsCoreOption } from 'echarts/core';
import { ChartData, tableOf, type ChartTable } from './chart-table';
import { extraHeight, themed } from './chart-theme';

export { NEUTRAL, PALETTE, shadeOf } from './chart-theme';

echarts.use([BarChart, LineChart, ScatterChart, CustomChart, GridComponent, LegendComponent, TooltipComponent, DatasetComponent, SVGRenderer]);

/**
 * An ECharts chart that follows its container's size; `label` names it for assistive technology,
 * and its numbers follow it as a table (`table`, else read from the option), folded.
 * It is laid out again only when its option or its width changed: the size observer also reports
 * the first layout and every change of height (the legend's rows change the height), and each
 * `setOption` with `notMerge` redraws the whole chart.
 */
export function Chart({ option, height, label, table }: { option: EChartsCoreOption; height: number; label: string; table?: ChartTable }) {
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
    // A theme chosen or followed from the system: drawn again in its colours.
    const theme = new MutationObserver(() => {
      drawn.current = null;
      draw(current.current);
    });
    theme.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    return () => {
      observer.disconnect();
      theme.disconnect();
      chart.current?.dispose();
      chart.current = null;
      drawn.current = null;
    };
    // Once per mount: `draw` reads only refs.
  }, []);
  useEffect(() => draw(option), [option]);
  const numbers = useMemo(() => table ?? tableOf(option), [table, option]);
  return (
    <>
      <div ref={ref} className="chart" role="img" aria-label={label} style={{ height: height + extra }} />
      <ChartData label={label} table={numbers} />
    </>
  );
}
