import { QUICK_RANGES, STAT_NAMES, type QuickRange, type StatName, type StatUnit } from '../../../contract/statistics';
import type { CommandSpec } from '@/lib/commands';

/** The statistics page (scope 'statistics'). */
export interface StatisticsCtx {
  quick(range: QuickRange): void;
  unit(unit: StatUnit): void;
  /** Next (1) or previous (-1) chart of the rail. */
  move(step: 1 | -1): void;
  /** The turnaround chart's rows: by modality ⇄ by radiologist. */
  canToggleBy: boolean;
  toggleBy(): void;
  canExport: boolean;
  exportNow(): void;
  focusFrom(): void;
}

const label = (name: string) => `statistics.page.commands.${name}`;
const keywords = ['statistics', '统计', 'chart'] as const;
const QUICK_KEY: Record<QuickRange, { key: string; name: string }> = {
  yesterday: { key: '1', name: 'quickYesterday' }, '7d': { key: '2', name: 'quick7d' }, '30d': { key: '3', name: 'quick30d' },
};
const UNIT_KEY: Record<StatUnit, { key: string; name: string }> = {
  day: { key: 'd', name: 'unitDay' }, week: { key: 'w', name: 'unitWeek' }, month: { key: 'm', name: 'unitMonth' }, year: { key: 'y', name: 'unitYear' },
};

/**
 * 1 / 2 / 3 quick ranges, D / W / M / Y units, J / K the next and previous chart (↑/↓ inside the rail are the
 * rail's own), B the turnaround table's rows, E export, F the from-date.
 */
export const statisticsCommands: readonly CommandSpec<StatisticsCtx>[] = [
  ...QUICK_RANGES.map((q): CommandSpec<StatisticsCtx> => ({
    id: `statistics.quick.${q}`, label: label(QUICK_KEY[q].name), scope: 'statistics', shortcut: QUICK_KEY[q].key, keywords, run: (c) => c.quick(q),
  })),
  ...(['day', 'week', 'month', 'year'] as const).map((u): CommandSpec<StatisticsCtx> => ({
    id: `statistics.unit.${u}`, label: label(UNIT_KEY[u].name), scope: 'statistics', shortcut: UNIT_KEY[u].key, keywords, run: (c) => c.unit(u),
  })),
  { id: 'statistics.next', label: label('next'), scope: 'statistics', shortcut: 'j', repeat: true, run: (c) => c.move(1) },
  { id: 'statistics.previous', label: label('previous'), scope: 'statistics', shortcut: 'k', repeat: true, run: (c) => c.move(-1) },
  { id: 'statistics.toggleBy', label: label('toggleBy'), scope: 'statistics', shortcut: 'b', keywords: ['radiologist', 'modality', '医师'], when: (c) => c.canToggleBy, run: (c) => c.toggleBy() },
  { id: 'statistics.export', label: label('export'), scope: 'statistics', shortcut: 'e', keywords: ['excel', 'xlsx', '导出'], when: (c) => c.canExport, run: (c) => c.exportNow() },
  { id: 'statistics.focusFrom', label: label('focusFrom'), scope: 'statistics', shortcut: 'f', keywords: ['date', '日期'], run: (c) => c.focusFrom() },
];

/** What opening a chart from anywhere needs (the global commands' context has both). */
export interface StatisticsOpenCtx {
  canVisit(path: string): boolean;
  navigate(path: string): void;
}

/** The page's address with a chart selected (?chart=report-positive). */
export const statisticsPath = (name: StatName, groupId?: number) =>
  `${groupId === undefined ? '/group-statistics' : `/groups/${groupId}/statistics`}?chart=${name}`;

/** The palette's "Open statistics: <chart>", one per chart, from any page, for an account the navbar leads there. */
export const statisticsOpenCommands: readonly CommandSpec<StatisticsOpenCtx>[] = STAT_NAMES.map((name) => ({
  id: `statistics.open.${name}`,
  label: `statistics.page.open.${name}`,
  section: 'commands.sections.goTo',
  scope: 'global',
  keywords: ['statistics', '统计', name],
  when: (c) => c.canVisit('/group-statistics'),
  run: (c) => c.navigate(statisticsPath(name)),
}));
