import { useCallback, useEffect, useId, useMemo, useRef, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearch } from 'wouter';
import type { MyOrganization } from '../../../contract/accounts';
import type { Publication } from '../../../contract/shares';
import { navigate, useSession } from '@/lib/session';
import { CommandScope, useCommands } from '@/lib/commands';
import { errorText } from '@/lib/errorText';
import { isSessionEndingError } from '@/lib/http';
import { toasts } from '@/lib/toasts';
import { Alert } from '@/ui/Alert';
import { ExternalIcon } from '@/ui/icons';
import { Spinner } from '@/ui/Spinner';
import { StatusBadge } from '@/ui/StatusBadge';
import { publishApi } from './api';
import { publishListCommands, type PublishListContext } from './commands';
import { formatDateTime } from '@/lib/format';
import { asReportStatus, isApprovedStatus } from './format';
import { idFrom, publishDetailPath, publishListPath } from './paths';
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

  // The row in hand belongs to one organisation's page; after a row leaves, the same place stays in hand.
  const pageKey = `${bucketId}:${skip}`;
  const [held, setHeld] = useState<{ page: string; index: number } | null>(null);
  const active = held && held.page === pageKey && rows.length > 0 ? Math.min(held.index, rows.length - 1) : null;
  const setActive = useCallback((index: number) => setHeld({ page: pageKey, index }), [pageKey]);
  const rowLinks = useRef<(HTMLAnchorElement | null)[]>([]);
  const orgSelect = useRef<HTMLSelectElement>(null);
  const [target, setTarget] = useState<UnpublishTarget | null>(null);
  const [busy, setBusy] = useState(false);
  const refocus = useRef(false);

  const goPage = useCallback((step: 1 | -1) => {
    const next = Math.max(0, skip + step * PAGE_SIZE);
    if (next !== skip && (step < 0 || next < total)) navigate(publishListPath(bucketId, next));
  }, [bucketId, skip, total]);

  const move = useCallback((step: 1 | -1) => {
    if (rows.length === 0) return;
    const from = active ?? (step > 0 ? -1 : rows.length);
    const next = Math.min(rows.length - 1, Math.max(0, from + step));
    setActive(next);
    rowLinks.current[next]?.focus();
  }, [active, rows.length, setActive]);

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
  }, [list.loading, rows, active]);

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

  const from = total === 0 ? 0 : skip + 1;
  const to = Math.min(total, skip + rows.length);

  return (
    <CommandScope scope="publish">
      <div className="flex min-h-0 flex-1 flex-col" data-publish-list>
        <Toolbar
          orgs={publishable}
          bucketId={permitted ? bucketId : null}
          org={org}
          selectRef={orgSelect}
          loading={list.loading && permitted}
          range={permitted && list.data ? { from, to, total } : null}
          canPrevious={context.hasPreviousPage}
          canNext={context.hasNextPage}
          onPage={goPage}
          onRefresh={context.refresh}
        />
        {orgs.error && !isSessionEndingError(orgs.error) ? (
          <Problem text={errorText(t, orgs.error)} onRetry={orgs.reload} />
        ) : !orgs.data ? (
          <div className="flex flex-1 items-center justify-center py-16"><Spinner label={t('common.loading')} /></div>
        ) : publishable.length === 0 ? (
          <Problem text={t('publish.list.noOrganisation')} />
        ) : !permitted ? (
          <Problem text={t('publish.list.notPermitted')} />
        ) : list.error && !isSessionEndingError(list.error) ? (
          <Problem text={errorText(t, list.error)} onRetry={list.reload} />
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

function Toolbar({ orgs, bucketId, org, selectRef, loading, range, canPrevious, canNext, onPage, onRefresh }: {
  orgs: MyOrganization[];
  bucketId: number | null;
  org: MyOrganization | null;
  selectRef: RefObject<HTMLSelectElement | null>;
  loading: boolean;
  range: { from: number; to: number; total: number } | null;
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

function Table({ rows, stale, active, rowLinks, onFocusRow, onUnpublish, busy }: {
  rows: Publication[];
  stale: boolean;
  active: number | null;
  rowLinks: RefObject<(HTMLAnchorElement | null)[]>;
  onFocusRow: (index: number) => void;
  onUnpublish: (row: Publication) => void;
  busy: boolean;
}) {
  const { t } = useTranslation();
  const hiddenNoteId = useId();
  // Data columns take the width of their content and sit together on the left; the spacer before the row's
  // buttons takes what is left, so a wide screen does not pull a row's facts apart.
  const th = 'w-px border-b border-line-strong px-3 py-1.5 text-left font-medium whitespace-nowrap';
  const td = 'w-px border-b border-line/60 px-3 py-1.5 align-middle whitespace-nowrap';
  const spacer = 'border-b border-line/60';
  return (
    <div className="min-h-0 flex-1 overflow-auto bg-surface">
      <p id={hiddenNoteId} className="sr-only">{t('publish.list.hiddenHint')}</p>
      <table className={`w-full border-separate border-spacing-0 text-[13px] ${stale ? 'opacity-60' : ''}`} aria-busy={stale || undefined} data-testid="publish-table">
        <caption className="sr-only">{t('publish.list.caption')}</caption>
        <thead className="sticky top-0 z-10 bg-sunken text-xs text-fg-muted">
          <tr>
            <th scope="col" className={th}>{t('publish.columns.patient')}</th>
            <th scope="col" className={th}>{t('publish.columns.modality')}</th>
            <th scope="col" className={th}>{t('publish.columns.examTime')}</th>
            <th scope="col" className={th}>{t('publish.columns.status')}</th>
            <th scope="col" className={th}>{t('publish.columns.publishedAt')}</th>
            <th scope="col" className={th}>{t('publish.columns.publishedBy')}</th>
            <td aria-hidden="true" className="border-b border-line-strong" />
            <th scope="col" className={`${th} text-right`}><span className="sr-only">{t('publish.columns.actions')}</span></th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => {
            const shown = isApprovedStatus(row.status);
            return (
              <tr
                key={row.reportId}
                data-report-id={row.reportId}
                onFocus={() => onFocusRow(index)}
                // A click anywhere on the row opens it, as the worklist does; the keyboard has the row's Open link.
                onClick={(event) => {
                  if (!(event.target as Element).closest('a, button')) navigate(publishDetailPath(row.examId, row.reportId));
                }}
                className={`cursor-pointer ${active === index ? 'bg-accent-soft' : 'hover:bg-sunken/60'}`}
              >
                <td className={`${td} max-w-64 min-w-32 truncate font-medium`} title={row.patientName}>{row.patientName}</td>
                <td className={`${td} font-medium`}>{row.modality}</td>
                <td className={`${td} tabular-nums`}>{formatDateTime(row.examTime)}</td>
                <td className={td}>
                  <span className="inline-flex items-center gap-2">
                    <StatusBadge status={asReportStatus(row.status)} label={t(`report.status.${asReportStatus(row.status)}`, { defaultValue: row.status })} />
                    {!shown && (
                      <span className="inline-flex items-center gap-1 text-xs text-warn" data-testid="hidden-note" aria-describedby={hiddenNoteId} title={t('publish.list.hiddenHint')}>
                        <span aria-hidden="true">⚠</span>
                        {t('publish.list.hidden')}
                      </span>
                    )}
                  </span>
                </td>
                <td className={`${td} tabular-nums`}>{formatDateTime(row.publishedAt)}</td>
                <td className={`${td} max-w-40 truncate`}>{row.publishedByName ?? <span className="text-fg-subtle">{t('publish.list.unknownPublisher')}</span>}</td>
                <td aria-hidden="true" className={spacer} />
                <td className={`${td} text-right`}>
                  <span className="inline-flex items-center gap-1.5">
                    <Link
                      ref={(el: HTMLAnchorElement | null) => { rowLinks.current[index] = el; }}
                      href={publishDetailPath(row.examId, row.reportId)}
                      className="btn h-6 px-2 text-xs"
                      aria-label={t('publish.list.openOf', { name: row.patientName })}
                    >
                      {t('publish.list.open')}
                    </Link>
                    <button type="button" className="btn h-6 px-2 text-xs text-danger" disabled={busy}
                      aria-label={t('publish.list.unpublishOf', { name: row.patientName })}
                      title={`${t('publish.commands.unpublishRow')} (U)`}
                      onClick={() => onUnpublish(row)}>
                      {t('publish.list.unpublish')}
                    </button>
                  </span>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="px-4 py-2 text-xs text-fg-subtle">{t('publish.list.keys')}</p>
    </div>
  );
}

function Empty() {
  const { t } = useTranslation();
  return (
    <div className="flex flex-1 flex-col items-center justify-center gap-1.5 px-6 py-16 text-center" data-testid="publish-empty">
      <p className="text-sm font-medium">{t('publish.list.empty')}</p>
      <p className="max-w-md text-[13px] text-fg-muted">{t('publish.list.emptyHint')}</p>
    </div>
  );
}

function Problem({ text, onRetry }: { text: string; onRetry?: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="mx-auto mt-12 flex w-full max-w-md flex-col gap-3 px-4">
      <Alert>{text}</Alert>
      {onRetry && <div><button type="button" className="btn" onClick={onRetry}>{t('common.retry')}</button></div>}
    </div>
  );
}
