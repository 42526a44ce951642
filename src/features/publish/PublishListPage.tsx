import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearch } from 'wouter';
import type { Publication } from '../../../contract/shares';
import { navigate, useSession } from '@/lib/session';
import { CommandScope, useCommands } from '@/lib/commands';
import { errorText } from '@/lib/errorText';
import { isSessionEndingError } from '@/lib/http';
import { pageRange, turnedPage, useHeldRow } from '@/lib/listPage';
import { toasts } from '@/lib/toasts';
import { PageLoading, PageProblem } from '@/ui/LoadState';
import { publishApi } from './api';
import { publishListCommands, type PublishListContext } from './commands';
import { idFrom, publishListPath } from './paths';
import { Empty } from './PublishListStates';
import { Table } from './PublishTable';
import { Toolbar } from './PublishToolbar';
import { UnpublishDialog, type UnpublishTarget } from './UnpublishDialog';
import { useLoad } from '@/lib/useLoad';
import { rememberList } from './listMemory';

/** Rows per page: a screenful at the workstation's density. */
export const PAGE_SIZE = 25;

/**
 * /report-publish (core §2 "report publishing"): the reports an organisation has put on its patient-facing list
 * (/reports/{orgCode}/list), newest first. The organisation and the page live in the URL (?bucketId&skip), so a
 * reload, Back and a shared link show the same list. Only organisations where the account holds
 * order_report_publish are offered; the server checks again.
 */
export default function PublishListPage() {
  const { t } = useTranslation();
  const { can } = useSession();
  const search = new URLSearchParams(useSearch());
  const askedBucket = idFrom(search.get('bucketId'));
  const skip = Math.max(0, Math.floor(Number(search.get('skip')) || 0));

  const orgs = useLoad('orgs', (signal) => publishApi.organisations({ signal }));
  const publishable = useMemo(() => (orgs.data ?? []).filter((o) => can('order_report_publish', o.id)), [orgs.data, can]);
  const bucketId = askedBucket ?? publishable[0]?.id ?? null;
  const org = publishable.find((o) => o.id === bucketId) ?? null;
  const permitted = org !== null;

  // The first visit names no organisation: the first one is chosen, and written into the URL.
  useEffect(() => {
    if (askedBucket === null && publishable[0]) navigate(publishListPath(publishable[0].id), { replace: true });
  }, [askedBucket, publishable]);

  useEffect(() => {
    if (permitted && bucketId !== null) rememberList(bucketId, publishListPath(bucketId, skip));
  }, [permitted, bucketId, skip]);

  const list = useLoad(permitted ? `${bucketId}:${skip}` : null, (signal) => publishApi.list(bucketId!, skip, PAGE_SIZE, { signal }));
  const rows = useMemo(() => (permitted && list.data ? list.data.items : []), [permitted, list.data]);
  const total = permitted ? list.data?.total ?? 0 : 0;

  // The row in hand belongs to one organisation's page; after a row leaves, the same place stays in hand. The rows
  // are links: the keyboard lands on each row's Open link.
  const pageKey = `${bucketId}:${skip}`;
  const { active, rowRefs: rowLinks, hold: setActive, move } = useHeldRow<Publication, HTMLAnchorElement>(pageKey, rows);
  const orgSelect = useRef<HTMLSelectElement>(null);
  const [target, setTarget] = useState<UnpublishTarget | null>(null);
  const [busy, setBusy] = useState(false);
  const refocus = useRef(false);

  const goPage = useCallback((step: 1 | -1) => {
    const next = turnedPage(skip, step, PAGE_SIZE, total);
    if (next !== null) navigate(publishListPath(bucketId, next));
  }, [bucketId, skip, total]);

  const askUnpublish = useCallback((row: Publication) => setTarget({ reportId: row.reportId, patientName: row.patientName }), []);

  const confirmUnpublish = async () => {
    if (!target) return;
    setBusy(true);
    try {
      await publishApi.unpublish(target.reportId);
      toasts.show({ message: t('publish.toast.unpublished', { name: target.patientName }), kind: 'success' });
      setTarget(null);
      refocus.current = true;
      // The last row of a later page gone: show the page before instead of an empty one.
      if (rows.length === 1 && skip > 0) navigate(publishListPath(bucketId, Math.max(0, skip - PAGE_SIZE)), { replace: true });
      else list.reload();
    } catch (error) {
      if (!isSessionEndingError(error)) toasts.show({ message: errorText(t, error), kind: 'error' });
    } finally {
      setBusy(false);
    }
  };

  // Once the list without the unpublished row is in, the keyboard is back on the same place in the table.
  useEffect(() => {
    if (!refocus.current || list.loading) return;
    refocus.current = false;
    const index = Math.min(active ?? 0, rows.length - 1);
    requestAnimationFrame(() => (index >= 0 ? rowLinks.current[index]?.focus() : document.getElementById('main')?.focus()));
  }, [list.loading, rows, active, rowLinks]);

  const context: PublishListContext = {
    rows: rows.length,
    hasNextPage: permitted && skip + PAGE_SIZE < total,
    hasPreviousPage: permitted && skip > 0,
    hasActiveRow: active !== null && rows[active] !== undefined && target === null,
    canChooseOrganisation: publishable.length > 1,
    busy,
    refresh: () => {
      orgs.reload();
      list.reload();
    },
    page: goPage,
    move,
    unpublishActive: () => {
      const row = active === null ? undefined : rows[active];
      if (row) askUnpublish(row);
    },
    chooseOrganisation: () => orgSelect.current?.focus(),
  };
  useCommands(publishListCommands, context);

  return (
    <CommandScope scope="publish">
      <div className="flex min-h-0 flex-1 flex-col" data-publish-list>
        <Toolbar
          orgs={publishable}
          bucketId={permitted ? bucketId : null}
          org={org}
          selectRef={orgSelect}
          loading={list.loading && permitted}
          range={permitted && list.data ? pageRange(total, skip, rows.length) : null}
          canPrevious={context.hasPreviousPage}
          canNext={context.hasNextPage}
          onPage={goPage}
          onRefresh={context.refresh}
        />
        {orgs.error && !isSessionEndingError(orgs.error) ? (
          <PageProblem text={errorText(t, orgs.error)} onRetry={orgs.reload} />
        ) : !orgs.data ? (
          <PageLoading />
        ) : publishable.length === 0 ? (
          <PageProblem text={t('publish.list.noOrganisation')} />
        ) : !permitted ? (
          <PageProblem text={t('publish.list.notPermitted')} />
        ) : list.error && !isSessionEndingError(list.error) ? (
          <PageProblem text={errorText(t, list.error)} onRetry={list.reload} />
        ) : list.data && rows.length === 0 && !list.loading ? (
          <Empty />
        ) : (
          <Table
            rows={rows}
            stale={list.stale}
            active={active}
            rowLinks={rowLinks}
            onFocusRow={setActive}
            onUnpublish={askUnpublish}
            busy={busy}
          />
        )}
      </div>
      <UnpublishDialog target={target} busy={busy} onConfirm={() => void confirmUnpublish()} onCancel={() => {
        setTarget(null);
        if (active !== null) requestAnimationFrame(() => rowLinks.current[active]?.focus());
      }} />
    </CommandScope>
  );
}
