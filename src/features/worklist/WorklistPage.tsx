import { lazy, Suspense, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearch } from 'wouter';
import { EXAM_EXPORT_MAX } from '../../../contract/constants';
import { useSession } from '@/lib/session';
import { CommandScope, useCommands } from '@/lib/commands';
import { errorText } from '@/lib/errorText';
import { http, isSessionEndingError } from '@/lib/http';
import { toasts } from '@/lib/toasts';
import { Alert } from '@/ui/Alert';
import { Spinner } from '@/ui/Spinner';
import { AdvancedSearch } from './AdvancedSearch';
import { casePath, publishCaseOrder } from '@/lib/cases/caseOrder';
import { useColourRules } from './useColourRules';
import { useColumnPrefs } from './columnPrefs';
import { worklistCommands, type WorklistCtx } from './commands';
import { downloadExport, exportAllowed } from './exportExams';
import { rememberFocus } from './focusMemory';
import { detailOf, restoreFocus, urlOf } from './worklistAddress';
import { useDrawerFollow, useWarmWorkspace } from './worklistEffects';
import { EmptyState } from './EmptyState';
import { Grid, type GridHandle } from './Grid';
import { SelectionBar } from './SelectionBar';
import { ExamActionsSlot } from './slots';
import { Toolbar } from './Toolbar';
import type { ExamPage } from '../../../contract/exams';
import type { ExamRow } from './types';
import { findNextWritable } from './nextCase';
import { effectiveSort } from './query';
import { useExamPages } from './useExamPages';
import { useMinuteClock } from './useMinuteClock';
import { clearedView, hasFilters, parseView, viewToSearch, type QuickModality, type WorklistView } from './view';

const ExamDrawer = lazy(() => import('@/features/examDetail'));

/**
 * The exam list (core §2): tabs, quick filters, advanced search, deleted view, report-origin filters, export,
 * free-text report search, and the grid, all by keyboard. The view is the URL; the focused row is remembered
 * per view so the radiologist comes back to the same case.
 */
export default function WorklistPage() {
  const { t } = useTranslation();
  const session = useSession();
  const search = useSearch();
  const [, navigate] = useLocation();
  const view = useMemo(() => parseView(search), [search]);
  const viewKey = useMemo(() => viewToSearch(view), [view]);
  const detailId = detailOf(search);
  const pages = useExamPages(view, viewKey);
  const sort = useMemo(() => effectiveSort(view), [view]);
  const { cache, version } = pages;
  const total = cache.total ?? 0;
  const now = useMinuteClock();
  const userId = session.user?.id ?? null;
  const { prefs, update: updatePrefs, reset: resetPrefs } = useColumnPrefs(userId);
  const rules = useColourRules(session.groups[0]?.id ?? null);
  const grid = useRef<GridHandle>(null);
  const searchBox = useRef<HTMLInputElement>(null);
  const [advancedOpen, setAdvancedOpen] = useState(false);
  const [exportNote, setExportNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // Focus: a row position, plus the exam it should hold once its page arrives (coming back to a case).
  const [focus, setFocus] = useState(() => restoreFocus(viewKey));
  const [selection, setSelection] = useState<{ key: string; ids: ReadonlySet<number>; anchor: number | null }>({ key: viewKey, ids: new Set(), anchor: null });
  if (focus.view !== viewKey) setFocus(restoreFocus(viewKey));
  if (selection.key !== viewKey) setSelection({ key: viewKey, ids: new Set(), anchor: null });
  const selected = selection.ids;

  // A pending exam id (from the workspace or the last visit) wins over its old position once its row is loaded.
  const pendingAt = focus.pendingId !== null ? cache.findIndex((row) => row.id === focus.pendingId, focus.index) : -1;
  const wanted = pendingAt >= 0 ? pendingAt : focus.index;
  const focusIndex = total > 0 ? Math.min(wanted, total - 1) : 0;
  const focusedExam = cache.rowAt(focusIndex);

  // The first page (the one holding the remembered row) tells the total; the grid asks for the rest as it shows rows.
  const startAt = focus.index;
  useEffect(() => {
    if (cache.total === null) cache.ensure(startAt, startAt);
  }, [cache, startAt]);

  useEffect(() => {
    rememberFocus({ view: viewKey, index: focusIndex, examId: focusedExam?.id ?? null });
  }, [viewKey, focusIndex, focusedExam]);

  const setView = useCallback((next: WorklistView, options?: { replace?: boolean }) => navigate(urlOf(next, detailId), options), [navigate, detailId]);
  const setDetail = useCallback((examId: number | null) => navigate(urlOf(view, examId), { replace: true }), [navigate, view]);

  const moveTo = useCallback((index: number) => {
    if (total === 0) return;
    setFocus((f) => ({ ...f, index: Math.max(0, Math.min(total - 1, index)), pendingId: null }));
  }, [total]);

  const canWrite = (exam: ExamRow) => session.can('report_upsert', exam.bucketId) || session.can('report_assign', exam.bucketId);

  async function open() {
    const exam = cache.rowAt(focusIndex);
    if (!exam) return;
    if (exam.deletedTime || (!exam.reportId && !canWrite(exam))) {
      setDetail(exam.id);
      return;
    }
    const run = cache.loadedRun(focusIndex);
    publishCaseOrder({
      returnPath: urlOf(view, null),
      ...pages.query(),
      total,
      offset: run.offset,
      entries: run.rows.map((row) => ({ examId: row.id, reportId: row.reportId })),
      current: exam.id,
    });
    try {
      setBusy(true);
      navigate(await casePath({ examId: exam.id, reportId: exam.reportId }));
    } catch (error) {
      if (!isSessionEndingError(error)) toasts.show({ kind: 'error', message: errorText(t, error) });
    } finally {
      setBusy(false);
    }
  }

  async function exportRows() {
    if (!exportAllowed(total)) {
      setExportNote(t('worklist.export.tooMany', { max: EXAM_EXPORT_MAX, count: total }));
      return;
    }
    setExportNote(null);
    try {
      setBusy(true);
      await downloadExport(pages.query());
      toasts.show({ kind: 'success', message: t('worklist.export.done', { count: total }) });
    } catch (error) {
      if (!isSessionEndingError(error)) toasts.show({ kind: 'error', message: errorText(t, error) });
    } finally {
      setBusy(false);
    }
  }

  function extend(step: number) {
    const from = focusIndex;
    const to = Math.max(0, Math.min(total - 1, from + step));
    const ids = new Set(selected);
    for (const index of [from, to]) {
      const exam = cache.rowAt(index);
      if (exam) ids.add(exam.id);
    }
    setSelection({ key: viewKey, ids, anchor: selection.anchor ?? from });
    moveTo(to);
  }

  async function nextWritable() {
    try {
      const index = await findNextWritable({
        from: focusIndex,
        total,
        rowAt: (i) => cache.rowAt(i),
        fetchRows: async (skip, limit) => (await http.post<ExamPage>('exams/page-query', { ...pages.query(), skip, limit })).items,
        keep: (skip, rows) => cache.keep(skip, rows),
      });
      if (index === null) toasts.show({ message: t('worklist.noWritable') });
      else moveTo(index);
    } catch (error) {
      if (!isSessionEndingError(error)) toasts.show({ kind: 'error', message: errorText(t, error) });
    }
  }

  const filtersActive = hasFilters(view);
  const ctx: WorklistCtx = {
    rows: total,
    hasFocusedExam: focusedExam !== undefined,
    move: (step) => moveTo(focusIndex + step),
    extend,
    page: (direction) => moveTo(focusIndex + direction * (grid.current?.pageRows() ?? 10)),
    edge: (where) => moveTo(where === 'first' ? 0 : total - 1),
    toggleSelect: () => {
      if (!focusedExam) return;
      const ids = new Set(selected);
      if (ids.has(focusedExam.id)) ids.delete(focusedExam.id);
      else ids.add(focusedExam.id);
      setSelection({ key: viewKey, ids, anchor: focusIndex });
    },
    open,
    openDetail: () => focusedExam && setDetail(focusedExam.id),
    focusSearch: () => searchBox.current?.focus(),
    openAdvanced: () => setAdvancedOpen(true),
    toggleToday: () => setView({ ...view, today: !view.today }),
    toggleQuick: (modality: QuickModality) => setView({ ...view, quick: view.quick === modality ? null : modality }),
    toggleWork: (filter) => setView({ ...view, work: view.work === filter ? null : filter }),
    clearQuick: () => setView({ ...view, today: false, quick: null, work: null }),
    canExport: session.can('export_exams') && !busy,
    exportRows,
    switchTab: () => setView({ ...view, tab: view.tab === 'all' ? 'mine' : 'all' }),
    nextWritable,
    refresh: () => {
      setFocus((f) => ({ ...f, pendingId: focusedExam?.id ?? null }));
      pages.refresh();
    },
    canEscape: detailId !== null || selected.size > 0 || filtersActive || advancedOpen,
    escape: () => {
      if (detailId !== null) setDetail(null);
      else if (advancedOpen) setAdvancedOpen(false);
      else if (selected.size > 0) setSelection({ key: viewKey, ids: new Set(), anchor: null });
      else if (filtersActive) setView(clearedView(view));
    },
    toggleDeleted: () => setView({ ...view, deleted: !view.deleted, sort: null }),
    toggleBooked: () => setView({ ...view, booked: !view.booked }),
  };
  useCommands(worklistCommands, ctx);

  // Handlers handed to memoised children (toolbar, rows) keep one identity for the screen's life and call the
  // latest closures: a held j re-renders the two rows whose focus changed, not the whole screen.
  const latest = useRef({ ctx, exportRows, setDetail, moveTo, view, setView });
  useLayoutEffect(() => {
    latest.current = { ctx, exportRows, setDetail, moveTo, view, setView };
  });
  const stable = useMemo(
    () => ({
      toggleAdvanced: () => setAdvancedOpen((open) => !open),
      exportRows: () => void latest.current.exportRows(),
      refresh: () => latest.current.ctx.refresh(),
      sortBy: (field: NonNullable<WorklistView['sort']>['field']) => {
        const { view: current, setView: go } = latest.current;
        const shown = effectiveSort(current);
        const direction = shown.field === field && shown.direction === 'desc' ? 'asc' : 'desc';
        go({ ...current, sort: { field, direction } });
      },
      openDetailAt: (index: number) => {
        latest.current.moveTo(index);
        const exam = cache.rowAt(index);
        if (exam) latest.current.setDetail(exam.id);
      },
    }),
    [cache],
  );

  // With the drawer open, j/k move the drawer too (once the keys rest); the workspace's code is fetched ahead.
  useDrawerFollow(focusedExam, detailId, setDetail);
  useWarmWorkspace(cache.status === 'ready');

  // The grid takes the keyboard when the screen opens (and again when a drawer or panel closes).
  useEffect(() => {
    if (!advancedOpen && detailId === null) grid.current?.focus();
  }, [advancedOpen, detailId]);

  const loadFailed = cache.status === 'error' && !isSessionEndingError(cache.error);
  return (
    <CommandScope scope="worklist">
      <div className="flex min-h-0 flex-1 flex-col" style={{ height: 'calc(100vh - 2.75rem)' }}>
        <Toolbar
          view={view}
          total={cache.total}
          searchRef={searchBox}
          onView={setView}
          advancedOpen={advancedOpen}
          onToggleAdvanced={stable.toggleAdvanced}
          canExport={session.can('export_exams')}
          exportBusy={busy}
          onExport={stable.exportRows}
          onRefresh={stable.refresh}
          prefs={prefs}
          onPrefs={updatePrefs}
          onResetPrefs={resetPrefs}
        />
        <ExamActionsSlot exam={focusedExam ? { id: focusedExam.id, bucketId: focusedExam.bucketId, reportId: focusedExam.reportId } : null} />
        {advancedOpen && <AdvancedSearch view={view} onApply={(next) => setView(next)} onClose={() => setAdvancedOpen(false)} />}
        {exportNote && (
          <div className="border-b border-line bg-surface px-3 py-1.5">
            <Alert tone="warning">{exportNote}</Alert>
          </div>
        )}
        {selected.size > 0 && (
          <SelectionBar
            count={selected.size}
            deletedView={view.deleted}
            ids={[...selected]}
            canDelete={session.can('exam_delete')}
            onDone={() => {
              setSelection({ key: viewKey, ids: new Set(), anchor: null });
              pages.refresh();
            }}
            onClear={() => setSelection({ key: viewKey, ids: new Set(), anchor: null })}
          />
        )}
        {loadFailed && (
          <div className="flex items-center gap-3 border-b border-line bg-surface px-3 py-2">
            <Alert>{errorText(t, cache.error)}</Alert>
            <button type="button" className="btn" onClick={ctx.refresh}>{t('common.retry')}</button>
          </div>
        )}
        <div className="flex min-h-0 flex-1">
          <div className="relative flex min-h-0 min-w-0 flex-1 flex-col">
            {/* The grid stays mounted while a view loads, so it keeps the keyboard focus and the header does not jump. */}
            <Grid
              handle={grid}
              cache={cache}
              version={version}
              total={total}
              focusIndex={focusIndex}
              selected={selected}
              prefs={prefs}
              onPrefs={updatePrefs}
              rules={rules}
              sort={sort}
              onSort={stable.sortBy}
              onFocusIndex={moveTo}
              onOpen={stable.openDetailAt}
              now={now}
              label={t('worklist.title')}
            />
            {cache.status !== 'error' && cache.total === 0 && (
              <EmptyState filtered={filtersActive} deleted={view.deleted} onClear={() => setView(clearedView(view))} />
            )}
            {cache.total === null && cache.status !== 'error' && (
              <div className="pointer-events-none absolute inset-x-0 top-16 flex justify-center"><Spinner label={t('common.loading')} /></div>
            )}
          </div>
          {detailId !== null && (
            <Suspense fallback={<aside className="w-[30rem] shrink-0 border-l border-line bg-surface" />}>
              <ExamDrawer key={detailId} examId={detailId} onClose={() => setDetail(null)} />
            </Suspense>
          )}
        </div>
      </div>
    </CommandScope>
  );
}
