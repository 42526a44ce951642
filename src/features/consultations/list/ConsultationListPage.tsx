import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { CONSULTATION_EXPORT_MAX, CONSULTATION_PAGE_SIZE } from '../../../../contract/consultations';
import { CommandScope, useCommands } from '@/lib/commands';
import { saveBlob, stampedName } from '@/lib/download';
import { errorText } from '@/lib/errorText';
import { isSessionEndingError } from '@/lib/http';
import { navigate } from '@/lib/session';
import { toasts } from '@/lib/toasts';
import { pageRange, useFirstRowFocus, useHeldRow, useListPaging } from '@/lib/listPage';
import { useLoad } from '@/lib/useLoad';
import { ListBody } from '@/ui/ListBody';
import { consultationApi, myOrganisations } from '../api';
import { consultationListCommands, type ConsultationListCtx } from '../commands';
import { consultationListPath, consultationPath, myConsultationsPath } from '../paths';
import { ConsultationTable } from './ConsultationTable';
import { emptyView, filtersOf, type ListView } from './filters';
import { Pager, SearchBox, Toolbar } from './Toolbar';


/**
 * /consultations and /consultations/my (areas §2): the consultations the account takes part in, 20 a page, newest
 * first, worked by keyboard as the worklist is. Enter opens one (/consultations/{id}).
 */
export function ConsultationList({ mine }: { mine: boolean }) {
  const { t } = useTranslation();
  const [view, setView] = useState<ListView>(() => emptyView(mine));
  const filters = useMemo(() => filtersOf(view), [view]);
  const filtersKey = JSON.stringify(filters);
  const { skip, setSkip } = useListPaging(filtersKey);
  const listKey = JSON.stringify([filters, skip]);
  const list = useLoad(listKey, (signal) => consultationApi.page({ filters, skip, limit: CONSULTATION_PAGE_SIZE }, { signal }));
  const rows = useMemo(() => list.data?.items ?? [], [list.data]);
  const total = list.data?.total ?? 0;
  const orgs = useLoad('consultation-orgs', () => myOrganisations());

  const held = useHeldRow(listKey, rows);
  const { active, activeRow, rowRefs, move, focusList } = held;
  const searchRef = useRef<HTMLInputElement>(null);
  const [exporting, setExporting] = useState(false);

  useFirstRowFocus({ stale: list.stale, rows: rows.length, listKey, held });

  const setPage = (step: 1 | -1) => setSkip(Math.max(0, skip + step * CONSULTATION_PAGE_SIZE));

  async function exportList() {
    if (total > CONSULTATION_EXPORT_MAX) {
      toasts.show({ message: t('consultations.list.exportTooMany', { max: CONSULTATION_EXPORT_MAX }), kind: 'error' });
      return;
    }
    setExporting(true);
    try {
      const blob = await consultationApi.export(filters);
      saveBlob(blob, stampedName('consultations', new Date()));
    } catch (error) {
      if (!isSessionEndingError(error)) toasts.show({ message: errorText(t, error), kind: 'error' });
    } finally {
      setExporting(false);
    }
  }

  const ctx: ConsultationListCtx = {
    rows: rows.length,
    hasActiveRow: activeRow !== null,
    hasNextPage: skip + CONSULTATION_PAGE_SIZE < total,
    hasPreviousPage: skip > 0,
    canExport: total > 0 && !exporting,
    move,
    open: () => activeRow && navigate(consultationPath(activeRow.id)),
    page: setPage,
    focusSearch: () => searchRef.current?.focus(),
    status: (status) => setView((v) => ({ ...v, status })),
    refresh: list.reload,
    exportList: () => void exportList(),
    toggleMine: () => navigate(mine ? consultationListPath : myConsultationsPath),
  };
  useCommands(consultationListCommands, ctx);

  const tab = (on: boolean) => `border-b-2 px-1 pb-1 text-[13px] ${on ? 'border-accent font-medium text-fg' : 'border-transparent text-fg-muted hover:text-fg'}`;
  return (
    <CommandScope scope="consultations">
      <div className="flex min-h-0 flex-1 flex-col" data-consultation-list={mine ? 'mine' : 'all'}>
        <div className="flex items-end gap-4 border-b border-line bg-surface px-3 pt-1.5">
          <h1 className="sr-only">{t(mine ? 'consultations.list.myTitle' : 'consultations.list.title')}</h1>
          <nav className="flex items-end gap-4" aria-label={t('consultations.list.tabs')}>
            <Link href={consultationListPath} className={tab(!mine)} aria-current={!mine ? 'page' : undefined}>{t('consultations.list.all')}</Link>
            <Link href={myConsultationsPath} className={tab(mine)} aria-current={mine ? 'page' : undefined}>
              {t('consultations.list.mine')}<kbd className="ml-1 rounded border border-line px-1 font-sans text-[10px] leading-4 text-fg-subtle">M</kbd>
            </Link>
          </nav>
          <div className="ml-auto flex items-center gap-3">
            <SearchBox view={view} searchRef={searchRef} onView={setView} onDone={focusList} />
            <Pager loading={list.loading} range={pageRange(list.data ? total : null, skip, rows.length)}
              canPrevious={ctx.hasPreviousPage} canNext={ctx.hasNextPage} canExport={ctx.canExport} exportBusy={exporting}
              onPage={setPage} onRefresh={list.reload} onExport={ctx.exportList} />
          </div>
        </div>
        <Toolbar view={view} organisations={orgs.data ?? []} onView={setView} />
        <ListBody error={list.error} empty={list.data && rows.length === 0 ? t('consultations.list.empty') : null} emptyTestId="consultation-empty" keys={t('consultations.list.keys')}>
          <ConsultationTable rows={rows} stale={list.stale} active={active} rowRefs={rowRefs}
            onFocusRow={held.hold} onOpen={(row) => navigate(consultationPath(row.id))} />
        </ListBody>
      </div>
    </CommandScope>
  );
}

export default function ConsultationListPage() {
  return <ConsultationList mine={false} />;
}
