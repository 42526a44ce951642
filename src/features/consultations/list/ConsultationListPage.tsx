import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { CONSULTATION_EXPORT_MAX, CONSULTATION_PAGE_SIZE } from '../../../../contract/consultations';
import { CommandScope, useCommands } from '@/lib/commands';
import { saveBlob, stampedName } from '@/lib/download';
import { errorText } from '@/lib/errorText';
import { isSessionEndingError } from '@/lib/http';
import { navigate } from '@/lib/session';
import { toasts } from '@/lib/toasts';
import { useLoad } from '@/lib/useLoad';
import { Alert } from '@/ui/Alert';
import { EmptyState } from '@/ui/LoadState';
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
  // The page belongs to the filters it was turned under: new filters start again at the first page.
  const [paging, setPaging] = useState<{ of: string; skip: number }>({ of: '', skip: 0 });
  const skip = paging.of === filtersKey ? paging.skip : 0;
  const listKey = JSON.stringify([filters, skip]);
  const list = useLoad(listKey, (signal) => consultationApi.page({ filters, skip, limit: CONSULTATION_PAGE_SIZE }, { signal }));
  const rows = useMemo(() => list.data?.items ?? [], [list.data]);
  const total = list.data?.total ?? 0;
  const orgs = useLoad('consultation-orgs', () => myOrganisations());

  const [held, setHeld] = useState<{ key: string; index: number } | null>(null);
  const active = held && held.key === listKey && rows.length > 0 ? Math.min(held.index, rows.length - 1) : null;
  const activeRow = active === null ? null : rows[active] ?? null;
  const rowRefs = useRef<(HTMLTableRowElement | null)[]>([]);
  const searchRef = useRef<HTMLInputElement>(null);
  const [exporting, setExporting] = useState(false);

  // A fresh page gives the keyboard to its first row unless the user is typing in the bar.
  const firstLoad = useRef(true);
  useEffect(() => {
    if (list.stale || rows.length === 0) return;
    const typing = document.activeElement instanceof HTMLInputElement || document.activeElement instanceof HTMLSelectElement;
    if (!firstLoad.current && typing) return;
    firstLoad.current = false;
    if (held?.key === listKey) return;
    // Held explicitly: the row may already have the focus (the same consultation heads the new page), so no focus
    // event would say so.
    const frame = requestAnimationFrame(() => {
      setHeld({ key: listKey, index: 0 });
      rowRefs.current[0]?.focus();
    });
    return () => cancelAnimationFrame(frame);
  }, [list.stale, rows.length, listKey, held?.key]);

  const move = (step: 1 | -1) => {
    if (rows.length === 0) return;
    const from = active ?? (step > 0 ? -1 : rows.length);
    const next = Math.min(rows.length - 1, Math.max(0, from + step));
    setHeld({ key: listKey, index: next });
    rowRefs.current[next]?.focus();
  };
  const focusList = () => rowRefs.current[active ?? 0]?.focus();
  const setPage = (step: 1 | -1) => setPaging({ of: filtersKey, skip: Math.max(0, skip + step * CONSULTATION_PAGE_SIZE) });

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
            <Pager loading={list.loading} range={list.data ? { from: total === 0 ? 0 : skip + 1, to: skip + rows.length, total } : null}
              canPrevious={ctx.hasPreviousPage} canNext={ctx.hasNextPage} canExport={ctx.canExport} exportBusy={exporting}
              onPage={setPage} onRefresh={list.reload} onExport={ctx.exportList} />
          </div>
        </div>
        <Toolbar view={view} organisations={orgs.data ?? []} onView={setView} />
        <div className="min-h-0 flex-1 overflow-auto bg-surface">
          {list.error && !isSessionEndingError(list.error) ? (
            <div className="p-4"><Alert>{errorText(t, list.error)}</Alert></div>
          ) : list.data && rows.length === 0 ? (
            <EmptyState testId="consultation-empty">{t('consultations.list.empty')}</EmptyState>
          ) : (
            <ConsultationTable rows={rows} stale={list.stale} active={active} rowRefs={rowRefs}
              onFocusRow={(index) => setHeld({ key: listKey, index })} onOpen={(row) => navigate(consultationPath(row.id))} />
          )}
          <p className="px-3 py-2 text-xs text-fg-subtle">{t('consultations.list.keys')}</p>
        </div>
      </div>
    </CommandScope>
  );
}

export default function ConsultationListPage() {
  return <ConsultationList mine={false} />;
}
