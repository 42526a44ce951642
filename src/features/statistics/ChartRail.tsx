import { useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { StatName } from '../../../contract/statistics';
import { KeyHint } from '@/ui/Section';
import { MAIN_CONTROL } from '@/lib/mainFocus';

/**
 * The rail of charts: a vertical tab list (↑/↓ move and select inside it, Home/End to the ends; J/K anywhere on the
 * page). Only the selected tab is in the Tab order, so Tab leaves the rail for the chart.
 */
export function ChartRail({ charts, chart, onSelect }: { charts: readonly StatName[]; chart: StatName; onSelect(name: StatName): void }) {
  const { t } = useTranslation();
  const list = useRef<HTMLDivElement>(null);
  const go = (i: number) => {
    const name = charts[(i + charts.length) % charts.length]!;
    onSelect(name);
    requestAnimationFrame(() => list.current?.querySelector<HTMLElement>(`[data-chart="${name}"]`)?.focus());
  };
  const onKeyDown = (e: KeyboardEvent) => {
    const i = charts.indexOf(chart);
    const to = e.key === 'ArrowDown' ? i + 1 : e.key === 'ArrowUp' ? i - 1 : e.key === 'Home' ? 0 : e.key === 'End' ? charts.length - 1 : null;
    if (to === null) return;
    e.preventDefault();
    go(to);
  };
  return (
    <div ref={list} role="tablist" aria-orientation="vertical" aria-label={t('statistics.page.charts')} onKeyDown={onKeyDown}
      className="flex shrink-0 flex-col gap-0.5 overflow-auto border-line bg-surface p-2 lg:w-52 lg:border-r max-lg:flex-row max-lg:border-b"
      data-testid="stat-rail">
      <div className="mb-1 flex items-center justify-between px-2 text-xs text-fg-subtle max-lg:hidden">
        <span>{t('statistics.page.charts')}</span><KeyHint keys="J / K" />
      </div>
      {charts.map((name) => {
        const on = name === chart;
        return (
          <button key={name} type="button" role="tab" aria-selected={on} tabIndex={on ? 0 : -1} data-chart={name} {...(on ? MAIN_CONTROL : {})}
            onClick={() => onSelect(name)} title={t(`statistics.charts.${name}.hint`)}
            className={`shrink-0 rounded px-2 py-1 text-left text-[13px] ${on ? 'bg-accent-soft font-medium text-fg' : 'text-fg-muted hover:bg-sunken hover:text-fg'}`}>
            {t(`statistics.charts.${name}.title`)}
          </button>
        );
      })}
    </div>
  );
}
