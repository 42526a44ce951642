import { useId, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { REGISTRATION_STATUSES, SOURCE_SCOPES, type SourceScope } from '../../../../contract/registry';
import { Spinner } from '@/ui/Spinner';
import { MAIN_CONTROL } from '@/lib/mainFocus';

/** The list's bar: organisation, day (‹ today ›), sources, status, search, the page, labels and export. */
export function Toolbar({ desks, bucketId, day, today, scope, status, text, searchRef, loading, range, canPrevious, canNext, selected, exportDisabled,
  onDay, onScope, onStatus, onText, onPage, onRefresh, onPrint, onExport, onOrganisation }: {
  desks: { id: number; name: string }[];
  bucketId: number;
  day: string;
  today: string;
  scope: SourceScope;
  status: string;
  text: string;
  searchRef: RefObject<HTMLInputElement | null>;
  loading: boolean;
  range: { from: number; to: number; total: number } | null;
  canPrevious: boolean;
  canNext: boolean;
  selected: number;
  exportDisabled: boolean;
  onDay: (day: string) => void;
  onScope: (scope: SourceScope) => void;
  onStatus: (status: string) => void;
  onText: (text: string) => void;
  onPage: (step: 1 | -1) => void;
  onRefresh: () => void;
  onPrint: () => void;
  onExport: () => void;
  onOrganisation: (id: number) => void;
}) {
  const { t } = useTranslation();
  const ids = useId();
  const shift = (n: number) => {
    const [y, m, d] = day.split('-').map(Number) as [number, number, number];
    const next = new Date(Date.UTC(y, m - 1, d + n));
    onDay(next.toISOString().slice(0, 10));
  };
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1.5 border-b border-line bg-surface px-3 py-2 text-[13px]">
      <h1 className="text-base font-semibold">{t('registry.list.title')}</h1>
      {desks.length > 1 && (
        <select aria-label={t('registry.list.organisation')} className="input h-7 w-auto max-w-60 py-0 pr-6 text-[13px]" value={bucketId}
          onChange={(e) => onOrganisation(Number(e.target.value))}>
          {desks.map((d) => <option key={d.id} value={d.id}>{d.name}</option>)}
        </select>
      )}
      <div className="flex items-center gap-1" role="group" aria-label={t('registry.list.day')}>
        <button type="button" className="icon-button" onClick={() => shift(-1)} aria-label={t('registry.commands.previousDay')} title={`${t('registry.commands.previousDay')} (,)`}>
          <span aria-hidden="true">‹</span>
        </button>
        <input type="date" className="input h-7 w-36 text-[13px] tabular-nums" value={day} aria-label={t('registry.list.day')} data-testid="registry-day"
          onChange={(e) => e.target.value && onDay(e.target.value)} />
        <button type="button" className="icon-button" onClick={() => shift(1)} aria-label={t('registry.commands.nextDay')} title={`${t('registry.commands.nextDay')} (.)`}>
          <span aria-hidden="true">›</span>
        </button>
        <button type="button" className="btn h-7 px-2 text-xs" disabled={day === today} onClick={() => onDay(today)} title={`${t('registry.commands.today')} (T)`}>
          {t('registry.list.today')}
        </button>
      </div>
      <select aria-label={t('registry.list.scope')} className="input h-7 w-auto py-0 pr-6 text-[13px]" value={scope} onChange={(e) => onScope(e.target.value as SourceScope)}>
        {SOURCE_SCOPES.map((s) => <option key={s} value={s}>{t(`registry.scopes.${s}`)}</option>)}
      </select>
      <select aria-label={t('registry.columns.status')} className="input h-7 w-auto py-0 pr-6 text-[13px]" value={status} onChange={(e) => onStatus(e.target.value)}>
        <option value="">{t('registry.list.anyStatus')}</option>
        {REGISTRATION_STATUSES.map((s) => <option key={s} value={s}>{t(`registry.status.${s}`)}</option>)}
      </select>
      <label htmlFor={`${ids}-search`} className="sr-only">{t('registry.list.search')}</label>
      <input id={`${ids}-search`} ref={searchRef} {...MAIN_CONTROL} type="search" className="input h-7 w-44 min-w-44 flex-1 text-[13px]" placeholder={`${t('registry.list.search')} (/)`} value={text}
        onChange={(e) => onText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && text) {
            e.preventDefault();
            onText('');
          }
        }} />
      <div className="ml-auto flex items-center gap-1.5">
        {loading && <Spinner label={t('common.loading')} />}
        <span className="whitespace-nowrap text-fg-muted tabular-nums" aria-live="polite" data-testid="registry-range">{range ? t('registry.list.range', range) : ''}</span>
        <button type="button" className="icon-button disabled:opacity-40" onClick={() => onPage(-1)} disabled={!canPrevious} aria-label={t('registry.commands.previousPage')}
          title={`${t('registry.commands.previousPage')} ([)`}><span aria-hidden="true">‹</span></button>
        <button type="button" className="icon-button disabled:opacity-40" onClick={() => onPage(1)} disabled={!canNext} aria-label={t('registry.commands.nextPage')}
          title={`${t('registry.commands.nextPage')} (])`}><span aria-hidden="true">›</span></button>
        <button type="button" className="icon-button" onClick={onRefresh} aria-label={t('registry.commands.refresh')} title={`${t('registry.commands.refresh')} (R)`}>
          <span aria-hidden="true">↻</span>
        </button>
        <button type="button" className="btn h-7 px-2 text-xs" onClick={onPrint} disabled={selected === 0} title={`${t('registry.commands.print')} (P)`} data-testid="registry-print">
          {selected > 0 ? t('registry.list.printSelected', { count: selected }) : t('registry.commands.print')}
        </button>
        <button type="button" className="btn h-7 px-2 text-xs" onClick={onExport} disabled={exportDisabled}>{t('registry.list.export')}</button>
      </div>
    </div>
  );
}
