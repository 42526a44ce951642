import { useId, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { MyOrganization } from '../../../contract/accounts';
import { navigate } from '@/lib/session';
import type { PageRange } from '@/ui/ListPager';
import { ExternalIcon } from '@/ui/icons';
import { Spinner } from '@/ui/Spinner';
import { publishListPath } from './paths';

/** The publishing list's bar: its title, the organisation (chosen where there are several), its patient page and pager. */
export function Toolbar({ orgs, bucketId, org, selectRef, loading, range, canPrevious, canNext, onPage, onRefresh }: {
  orgs: MyOrganization[];
  bucketId: number | null;
  org: MyOrganization | null;
  selectRef: RefObject<HTMLSelectElement | null>;
  loading: boolean;
  range: PageRange | null;
  canPrevious: boolean;
  canNext: boolean;
  onPage: (step: 1 | -1) => void;
  onRefresh: () => void;
}) {
  const { t } = useTranslation();
  const selectId = useId();
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-1.5 border-b border-line bg-surface px-4 py-2">
      <h1 className="text-base font-semibold">{t('publish.list.title')}</h1>
      {orgs.length > 1 ? (
        <div className="flex items-center gap-1.5 text-[13px]">
          <label htmlFor={selectId} className="text-fg-muted">{t('publish.list.organisation')}</label>
          <select
            id={selectId}
            ref={selectRef}
            className="input h-7 w-auto max-w-72 py-0 pr-6 text-[13px]"
            value={bucketId ?? ''}
            onChange={(event) => navigate(publishListPath(Number(event.target.value)))}
          >
            {bucketId === null && <option value="">{t('publish.list.choose')}</option>}
            {orgs.map((o) => <option key={o.id} value={o.id}>{o.name}</option>)}
          </select>
        </div>
      ) : org ? (
        <span className="text-[13px] text-fg-muted">{org.name}</span>
      ) : null}
      {org && (
        <a className="link inline-flex items-center gap-1 text-[13px]" href={`/reports/${encodeURIComponent(org.code)}/list`} target="_blank" rel="noopener noreferrer"
          title={t('publish.list.patientPageHint')}>
          {t('publish.list.patientPage')}
          <ExternalIcon />
          <span className="sr-only">({t('nav.opensNewWindow')})</span>
        </a>
      )}
      <div className="ml-auto flex items-center gap-1.5">
        {loading && <Spinner label={t('common.loading')} />}
        <span className="text-[13px] whitespace-nowrap text-fg-muted tabular-nums" aria-live="polite" data-testid="publish-range">
          {range ? t('publish.list.range', range) : ''}
        </span>
        <button type="button" className="icon-button disabled:cursor-default disabled:opacity-40" onClick={() => onPage(-1)} disabled={!canPrevious}
          aria-label={t('publish.commands.previousPage')} title={`${t('publish.commands.previousPage')} ([)`}>
          <span aria-hidden="true">‹</span>
        </button>
        <button type="button" className="icon-button disabled:cursor-default disabled:opacity-40" onClick={() => onPage(1)} disabled={!canNext}
          aria-label={t('publish.commands.nextPage')} title={`${t('publish.commands.nextPage')} (])`}>
          <span aria-hidden="true">›</span>
        </button>
        <button type="button" className="icon-button" onClick={onRefresh} aria-label={t('publish.commands.refresh')} title={`${t('publish.commands.refresh')} (R)`}>
          <span aria-hidden="true">↻</span>
        </button>
      </div>
    </div>
  );
}
