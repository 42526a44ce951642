import type { TFunction } from 'i18next';
import type { EChartsCoreOption } from 'echarts/core';
import type { StatName, StatResult, StatSeries } from '../../../contract/statistics';
import { figureText, periodText, seriesName } from './format';
import type { ChartTheme } from './chartTheme';

/**
 * How each statistic is drawn (areas §7: line, bar, stacked, pie where it fits): turnaround as lines (a duration
 * has no sum), counts over people, modalities or statuses as stacked bars (the stack's height is the total),
 * shares as pies (a device's part of the workload, a channel's part of the money), positives as stacked bars with
 * their rate as a line on its own axis, the overview's exams as bars with approvals as a line.
 */
export type ChartStyle = 'stack' | 'line' | 'pieSeries' | 'pieRows' | 'positive' | 'overview';

export const CHART_STYLE: Record<StatName, ChartStyle> = {
  study: 'stack', modality: 'pieSeries', report: 'line', 'report-positive': 'positive', 'note-taker': 'stack', registrar: 'stack',
  'remote-report': 'stack', 'group-payment': 'pieRows', consul: 'stack', 'overview-total': 'overview', 'overview-user': 'stack', 'overview-bucket': 'stack',
};

type Kind = StatSeries['kind'];

function axisLabel(kind: Kind, theme: ChartTheme) {
  return {
    color: theme.muted, fontFamily: theme.font, fontSize: 11,
    // Minutes on the axis in whole units; fen as yuan without decimals, so the labels stay short.
    formatter: (v: number) => (kind === 'fen' ? `¥${Math.round(v / 100)}` : kind === 'percent' ? `${v} %` : `${v}`),
  };
}

function valueAxis(t: TFunction, kind: Kind, theme: ChartTheme, extra: Record<string, unknown> = {}) {
  return {
    type: 'value',
    name: kind === 'minutes' ? t('statistics.page.minutes', { n: '' }).trim() : undefined,
    nameTextStyle: { color: theme.muted, fontFamily: theme.font, fontSize: 11, align: 'left' },
    nameGap: 12,
    axisLabel: axisLabel(kind, theme),
    axisLine: { show: false },
    splitLine: { lineStyle: { color: theme.grid } },
    minInterval: kind === 'count' ? 1 : undefined,
    ...extra,
  };
}

function colourOf(theme: ChartTheme, s: Pick<StatSeries, 'key'>, i: number): string {
  return theme.named[s.key] ?? theme.palette[i % theme.palette.length]!;
}

/** The ECharts option of one answer, in the page's theme and language. */
export function chartOption(t: TFunction, result: StatResult, theme: ChartTheme, motion = true): EChartsCoreOption {
  const style = CHART_STYLE[result.name];
  const text = { color: theme.fg, fontFamily: theme.font, fontSize: 12 };
  const base = {
    backgroundColor: 'transparent',
    textStyle: text,
    animation: motion,
    animationDuration: 250,
    tooltip: {
      backgroundColor: theme.raised, borderColor: theme.line, textStyle: text,
      confine: true,
    },
    legend: {
      type: 'scroll', top: 0, left: 0, right: 0, itemWidth: 12, itemHeight: 8, itemGap: 14,
      textStyle: { ...text, color: theme.muted },
      pageTextStyle: { color: theme.muted }, pageIconColor: theme.accent, pageIconInactiveColor: theme.quiet,
    },
  };

  if (style === 'pieSeries' || style === 'pieRows') {
    const kind: Kind = style === 'pieRows' ? 'fen' : 'count';
    const data = style === 'pieSeries'
      ? result.series.map((s, i) => ({ name: seriesName(t, s), value: s.values.reduce((a, b) => a + b, 0), itemStyle: { color: colourOf(theme, s, i) } }))
      : result.rows.map((row, i) => {
        const code = String(row.channel ?? 'unknown');
        return { name: t(`statistics.codes.${code}` as 'statistics.codes.unknown', { defaultValue: code }), value: Number(row.paidFen ?? 0), itemStyle: { color: colourOf(theme, { key: code }, i) } };
      });
    return {
      ...base,
      tooltip: { ...base.tooltip, trigger: 'item', valueFormatter: (v: number) => figureText(t, kind, v) },
      series: [{
        type: 'pie', radius: ['42%', '70%'], center: ['50%', '56%'], avoidLabelOverlap: true,
        itemStyle: { borderColor: theme.surface, borderWidth: 2 },
        label: { color: theme.fg, fontFamily: theme.font, fontSize: 12, formatter: '{b}\n{d}%' },
        labelLine: { lineStyle: { color: theme.lineStrong } },
        data: data.filter((d) => d.value > 0),
      }],
    };
  }

  const periods = result.periods.map((p) => periodText(p, result.range.unit));
  const firstKind: Kind = result.series[0]?.kind ?? 'count';
  const isRate = (s: StatSeries) => s.kind === 'percent';
  const rateAxis = style === 'positive' && result.series.some(isRate);
  const series = result.series.map((s, i) => {
    const colour = colourOf(theme, s, i);
    const asLine = style === 'line' || isRate(s) || (style === 'overview' && i > 0);
    return {
      name: seriesName(t, s), type: asLine ? 'line' : 'bar', data: s.values,
      stack: !asLine && style !== 'overview' ? 'total' : undefined,
      yAxisIndex: rateAxis && isRate(s) ? 1 : 0,
      barMaxWidth: 28, symbolSize: 5, showSymbol: result.periods.length <= 31,
      smooth: false, connectNulls: true,
      itemStyle: { color: colour }, lineStyle: { color: colour, width: 2 },
      emphasis: { focus: 'series' },
      tooltip: { valueFormatter: (v: number) => figureText(t, s.kind, v) },
    };
  });
  return {
    ...base,
    tooltip: { ...base.tooltip, trigger: 'axis', axisPointer: { type: style === 'line' ? 'line' : 'shadow', shadowStyle: { color: theme.shadow } } },
    // Room under the legend for an axis name (minutes), so the two never touch (Tibetan lines are taller).
    grid: { left: 8, right: rateAxis ? 8 : 16, top: firstKind === 'minutes' ? 60 : 44, bottom: 8, containLabel: true },
    xAxis: {
      type: 'category', data: periods,
      axisLabel: { color: theme.muted, fontFamily: theme.font, fontSize: 11, hideOverlap: true },
      axisLine: { lineStyle: { color: theme.lineStrong } }, axisTick: { show: false },
    },
    yAxis: rateAxis
      ? [valueAxis(t, 'count', theme), valueAxis(t, 'percent', theme, { max: 100, splitLine: { show: false } })]
      : [valueAxis(t, firstKind, theme)],
    series,
  };
}
