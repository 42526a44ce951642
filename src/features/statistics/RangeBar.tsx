import { useId, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { QUICK_RANGES, STAT_UNITS, type QuickRange, type StatScopeAnswer, type StatUnit } from '../../../contract/statistics';
import type { StatisticsRangeContext } from '../../../machines/statisticsRange';
import { KeyHint } from '@/ui/Section';

const QUICK_KEY: Record<QuickRange, string> = { yesterday: '1', '7d': '2', '30d': '3' };
const UNIT_KEY: Record<StatUnit, string> = { day: 'D', week: 'W', month: 'M', year: 'Y' };

const segment = (on: boolean) =>
  `h-7 px-2.5 text-[13px] border-r border-line-strong last:border-r-0 ${on ? 'bg-accent-soft font-medium text-fg' : 'bg-surface text-fg-muted hover:bg-sunken'}`;

export interface RangeBarProps {
  range: StatisticsRangeContext;
  scope: StatScopeAnswer;
  bucketId: number | null;
  fromRef: RefObject<HTMLInputElement | null>;
  onQuick(q: QuickRange): void;
  onUnit(u: StatUnit): void;
  onRange(from: string, to: string): void;
  onBucket(id: number | null): void;
}

/**
 * The page's question: quick ranges, a custom from–to, the unit and the organisations. A choice the server would
 * refuse shows its catalogue message here (role=alert) while the chart below keeps the last good answer.
 */
export function RangeBar({ range, scope, bucketId, fromRef, onQuick, onUnit, onRange, onBucket }: RangeBarProps) {
  const { t } = useTranslation();
  const ids = useId();
  const { draft, quick, problem } = range;
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-2 border-b border-line bg-surface px-3 py-2" data-testid="stat-range">
      <div role="group" aria-label={t('statistics.page.range')} className="inline-flex overflow-hidden rounded-md border border-line-strong">
        {QUICK_RANGES.map((q) => (
          <button key={q} type="button" className={segment(quick === q)} aria-pressed={quick === q} onClick={() => onQuick(q)} data-testid={`stat-quick-${q}`}>
            {t(`statistics.page.quick.${q}`)} <KeyHint keys={QUICK_KEY[q]} />
          </button>
        ))}
      </div>
      <div className="flex items-center gap-1.5 text-[13px]">
        <label htmlFor={`${ids}-from`} className="text-fg-muted">{t('statistics.page.from')} <KeyHint keys="F" /></label>
        <input id={`${ids}-from`} ref={fromRef} type="date" className="input h-7 w-[9.5rem] px-1.5" value={draft.from}
          aria-invalid={problem !== null} aria-describedby={problem ? `${ids}-problem` : undefined}
          onChange={(e) => onRange(e.target.value, draft.to)} data-testid="stat-from" />
        <label htmlFor={`${ids}-to`} className="text-fg-muted">{t('statistics.page.to')}</label>
        <input id={`${ids}-to`} type="date" className="input h-7 w-[9.5rem] px-1.5" value={draft.to}
          aria-invalid={problem !== null} aria-describedby={problem ? `${ids}-problem` : undefined}
          onChange={(e) => onRange(draft.from, e.target.value)} data-testid="stat-to" />
      </div>
      <div role="group" aria-label={t('statistics.page.unit')} className="inline-flex overflow-hidden rounded-md border border-line-strong">
        {STAT_UNITS.map((u) => (
          <button key={u} type="button" className={segment(draft.unit === u)} aria-pressed={draft.unit === u} onClick={() => onUnit(u)} data-testid={`stat-unit-${u}`}>
            {t(`statistics.page.units.${u}`)} <KeyHint keys={UNIT_KEY[u]} />
          </button>
        ))}
      </div>
      {scope.buckets.length > 1 && (
        <div className="flex items-center gap-1.5 text-[13px]">
          <label htmlFor={`${ids}-bucket`} className="text-fg-muted">{t('statistics.page.organisations')}</label>
          <select id={`${ids}-bucket`} className="input h-7 max-w-[14rem] px-1.5" value={bucketId ?? ''}
            onChange={(e) => onBucket(e.target.value ? Number(e.target.value) : null)} data-testid="stat-bucket">
            <option value="">{t('statistics.page.allOrganisations')}</option>
            {scope.buckets.map((b) => <option key={b.id} value={b.id}>{b.name}</option>)}
          </select>
        </div>
      )}
      {/* One line always there: the question asked, or why the draft cannot be asked (no jump when it appears). */}
      <p className="basis-full text-[13px]" data-testid="stat-range-line">
        <span id={`${ids}-problem`} role="alert" className="text-danger" data-testid="stat-problem">{problem ? t(`errors.${problem.code}`) : ''}</span>
        {problem && <span className="ml-2 text-fg-muted">{t('statistics.page.stale')}</span>}
        {!problem && (
          <span className="text-fg-muted">
            {t('statistics.page.rangeLine', { from: range.question.from, to: range.question.to, unit: t(`statistics.page.units.${range.question.unit}`) })}
          </span>
        )}
      </p>
    </div>
  );
}
