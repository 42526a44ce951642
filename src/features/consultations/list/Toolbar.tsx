import { useId, type ComponentProps, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { CONSULTATION_STATUSES, type ConsultationStatus } from '../../../../contract/consultations';
import { ListPager } from '@/ui/ListPager';
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
export function Pager(props: Omit<ComponentProps<typeof ListPager>, 'words' | 'className' | 'testId'>) {
  const { t } = useTranslation();
  return (
    <ListPager {...props} testId="consultation" className="mb-1 flex items-center gap-1.5 text-[13px]" words={{
      range: (range) => t('consultations.list.range', range),
      previous: t('consultations.commands.previousPage'),
      next: t('consultations.commands.nextPage'),
      refresh: t('consultations.commands.refresh'),
      refreshKey: 'R',
      exportLabel: t('consultations.list.export'),
    }} />
  );
}
