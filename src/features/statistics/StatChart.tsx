import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import * as echarts from 'echarts/core';
import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { SVGRenderer } from 'echarts/renderers';
import type { StatResult } from '../../../contract/statistics';
import { useTheme } from '@/lib/theme';
import { chartOption } from './chartOption';
import { readChartTheme } from './chartTheme';

// Only what the twelve charts draw: this module is imported by the statistics screens alone, so ECharts lands in
// their chunk and nowhere else (the login page stays small). SVG: crisp text at any zoom, and CJK/Tibetan drawn
// by the browser's own font stack.
echarts.use([BarChart, LineChart, PieChart, GridComponent, LegendComponent, TooltipComponent, SVGRenderer]);

/** One statistic's chart, re-drawn when the answer, the theme or the language changes, and sized with its box. */
export function StatChart({ result, label }: { result: StatResult; label: string }) {
  const { t, i18n } = useTranslation();
  const [theme] = useTheme();
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);

  useEffect(() => {
    const el = box.current!;
    const instance = echarts.init(el, null, { renderer: 'svg' });
    chart.current = instance;
    const resize = new ResizeObserver(() => instance.resize());
    resize.observe(el);
    return () => {
      resize.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    // notMerge: a chart of another kind (pie after bars) must not keep the previous one's axes or series.
    // Users who ask for less motion (the OS setting) get the chart drawn at once.
    const motion = !matchMedia('(prefers-reduced-motion: reduce)').matches;
    chart.current?.setOption(chartOption(t, result, readChartTheme(theme), motion), { notMerge: true });
  }, [t, i18n.language, result, theme]);

  return <div ref={box} role="img" aria-label={label} className="h-full min-h-[260px] w-full" data-testid="stat-chart" />;
}
