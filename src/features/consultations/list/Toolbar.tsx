import { useId, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { CONSULTATION_STATUSES, type ConsultationStatus } from '../../../../contract/consultations';
import { Spinner } from '@/ui/Spinner';
import { hasField, type ListView } from './filters';

/** The list's filters: status chips (0–5), created range, applicant and target organisation. */
export function Toolbar({ view, organisations, onView }: {
  view: ListView;
  organisations: { id: number; name: string }[];
  onView: (view: ListView) => void;
}) {
  const { t } = useTranslation();
  const ids = useId();
  const chip = (active: boolean) =>
    `inline-flex h-7 items-center rounded-full border px-2.5 text-[13px] whitespace-nowrap ${active ? 'border-accent bg-accent-soft font-medium text-fg' : 'border-line text-fg-muted hover:bg-sunken'}`;
  const setStatus = (status: ConsultationStatus | null) => onView({ ...view, status });
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1.5 border-b border-line bg-surface px-3 py-2 text-[13px]">
      <div className="flex items-center gap-1" role="group" aria-label={t('consultations.list.status')}>
        <button type="button" className={chip(view.status === null)} aria-pressed={view.status === null} onClick={() => setStatus(null)}
          title={`${t('consultations.commands.status.all')} (0)`}>
          {t('consultations.list.allStatuses')}
        </button>
        {CONSULTATION_STATUSES.map((s, i) => (
          <button key={s} type="button" className={chip(view.status === s)} aria-pressed={view.status === s} data-status-chip={s} onClick={() => setStatus(view.status === s ? null : s)}
            title={`${t(`consultations.status.${s}`)} (${i + 1})`}>
            {t(`consultations.status.${s}`)}
          </button>
        ))}
      </div>
      <div className="flex items-center gap-1" role="group" aria-label={t('consultations.list.created')}>
        <label htmlFor={`${ids}-from`} className="text-xs text-fg-muted">{t('consultations.list.created')}</label>
        <input id={`${ids}-from`} type="date" className="input h-7 w-36 text-[13px] tabular-nums" value={view.from} max={view.to || undefined}
          aria-label={t('consultations.list.from')} onChange={(e) => onView({ ...view, from: e.target.value })} />
        <span aria-hidden="true" className="text-fg-subtle">–</span>
        <input type="date" className="input h-7 w-36 text-[13px] tabular-nums" value={view.to} min={view.from || undefined}
          aria-label={t('consultations.list.to')} onChange={(e) => onView({ ...view, to: e.target.value })} />
      </div>
      {organisations.length > 0 && (['appliedBucketId', 'targetBucketId'] as const).filter(hasField).map((field) => (
        <select key={field} aria-label={t(`consultations.list.${field}`)} className="input h-7 w-auto max-w-60 py-0 pr-6 text-[13px]" value={view[field] ?? ''}
          data-filter={field} onChange={(e) => onView({ ...view, [field]: e.target.value ? Number(e.target.value) : null })}>
          <option value="">{t(`consultations.list.any.${field}`)}</option>
          {organisations.map((o) => <option key={o.id} value={o.id}>{o.name}</option>)}
        </select>
      ))}
    </div>
  );
}

/** The patient search (a `like` on the patient's name), beside the all / mine tabs. */
export function SearchBox({ view, searchRef, onView, onDone }: {
  view: ListView;
  searchRef: RefObject<HTMLInputElement | null>;
  onView: (view: ListView) => void;
  /** Enter or ↓: back to the rows with what was typed. */
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const ids = useId();
  if (!hasField('patientName')) return null;
  return (
    <>
      <label htmlFor={`${ids}-search`} className="sr-only">{t('consultations.list.search')}</label>
      <input id={`${ids}-search`} ref={searchRef} type="search" className="input mb-1 h-7 w-52 text-[13px]" placeholder={`${t('consultations.list.search')} (/)`}
        value={view.text} data-testid="consultation-search"
        onChange={(e) => onView({ ...view, text: e.target.value })}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && view.text) {
            e.preventDefault();
            onView({ ...view, text: '' });
          } else if (e.key === 'Enter' || e.key === 'ArrowDown') {
            e.preventDefault();
            onDone();
          }
        }} />
    </>
  );
}

/** Where the list stands (range, pages, refresh) and its export, beside the search. */
export function Pager({ loading, range, canPrevious, canNext, canExport, exportBusy, onPage, onRefresh, onExport }: {
  loading: boolean;
  range: { from: number; to: number; total: number } | null;
  canPrevious: boolean;
  canNext: boolean;
  canExport: boolean;
  exportBusy: boolean;
  onPage: (step: 1 | -1) => void;
  onRefresh: () => void;
  onExport: () => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="mb-1 flex items-center gap-1.5 text-[13px]">
        {loading && <Spinner label={t('common.loading')} />}
        <span className="whitespace-nowrap text-fg-muted tabular-nums" aria-live="polite" data-testid="consultation-range">{range ? t('consultations.list.range', range) : ''}</span>
        <button type="button" className="icon-button disabled:opacity-40" onClick={() => onPage(-1)} disabled={!canPrevious} aria-label={t('consultations.commands.previousPage')}
          title={`${t('consultations.commands.previousPage')} ([)`}><span aria-hidden="true">‹</span></button>
        <button type="button" className="icon-button disabled:opacity-40" onClick={() => onPage(1)} disabled={!canNext} aria-label={t('consultations.commands.nextPage')}
          title={`${t('consultations.commands.nextPage')} (])`}><span aria-hidden="true">›</span></button>
        <button type="button" className="icon-button" onClick={onRefresh} aria-label={t('consultations.commands.refresh')} title={`${t('consultations.commands.refresh')} (R)`}>
          <span aria-hidden="true">↻</span>
        </button>
        <button type="button" className="btn h-7 px-2.5 text-[13px]" onClick={onExport} disabled={!canExport || exportBusy} data-testid="consultation-export">
          {t('consultations.list.export')}
        </button>
      </div>
  );
}
