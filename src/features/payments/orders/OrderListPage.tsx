import { useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ORDER_EXPORT_MAX, PAYMENT_STATUS, REPORT_REQUEST_TYPES, type ReportOrder } from '../../../../contract/payments';
import { CommandScope, useCommands } from '@/lib/commands';
import { errorText } from '@/lib/errorText';
import { isSessionEndingError } from '@/lib/http';
import { navigate, useSession } from '@/lib/session';
import { toasts } from '@/lib/toasts';
import { pageRange, useFirstRowFocus, useHeldRow, useListPaging } from '@/lib/listPage';
import { useLoad } from '@/lib/useLoad';
import { ListBody } from '@/ui/ListBody';
import { ordersApi } from './api';
import { orderListCommands, type OrderListCtx } from './commands';
import { saveBlob, stampedName } from '@/lib/download';
import { emptyOrderView, orderFiltersOf, type OrderView } from './filters';
import { OrderTable } from './OrderTable';
import { OrderToolbar } from './OrderToolbar';
import { Pager } from './Pager';
import { orderDetailPath } from './paths';
import { RefundDialog } from './RefundDialog';

const PAGE = 20;
const SIDES: OrderView['side'][] = [null, 'out', 'in'];
const TYPES: OrderView['type'][] = [null, ...REPORT_REQUEST_TYPES];
const nextOf = <T,>(list: readonly T[], value: T) => list[(list.indexOf(value) + 1) % list.length]!;

/**
 * /orders (issue 13): the expert and remote report requests the account sent or received, with their payments,
 * 20 a page, newest first, worked by keyboard as the consultation list is. Enter opens one (/orders/{id}); r
 * refunds the order in hand after asking the reason; e exports the filtered list (≤ 1000 rows).
 */
export default function OrderListPage() {
  const { t } = useTranslation();
  const session = useSession();
  const [view, setView] = useState<OrderView>(emptyOrderView);
  const filters = useMemo(() => orderFiltersOf(view), [view]);
  const filtersKey = JSON.stringify(filters);
  const { skip, setSkip } = useListPaging(filtersKey);
  const listKey = JSON.stringify([filters, skip]);
  const list = useLoad(listKey, (signal) => ordersApi.page({ filters, skip, limit: PAGE }, { signal }));
  const rows = useMemo(() => list.data?.items ?? [], [list.data]);
  const total = list.data?.total ?? 0;

  const held = useHeldRow(listKey, rows);
  const { active, activeRow, rowRefs, move, focusList } = held;
  const searchRef = useRef<HTMLInputElement>(null);
  const dateRef = useRef<HTMLInputElement>(null);
  const searchId = useId();
  const [exporting, setExporting] = useState(false);
  const [refunding, setRefunding] = useState<ReportOrder | null>(null);

  useFirstRowFocus({ stale: list.stale, rows: rows.length, listKey, held });

  const setPage = (step: 1 | -1) => setSkip(Math.max(0, skip + step * PAGE));

  async function exportList() {
    if (total > ORDER_EXPORT_MAX) {
      toasts.show({ message: t('payments.orders.exportTooMany', { max: ORDER_EXPORT_MAX }), kind: 'error' });
      return;
    }
    setExporting(true);
    try {
      saveBlob(await ordersApi.export(filters), stampedName('orders', new Date()));
    } catch (error) {
      if (!isSessionEndingError(error)) toasts.show({ message: errorText(t, error), kind: 'error' });
    } finally {
      setExporting(false);
    }
  }

  const canRefundAny = session.can('payment_refund');
  const ctx: OrderListCtx = {
    rows: rows.length,
    hasActiveRow: activeRow !== null,
    hasNextPage: skip + PAGE < total,
    hasPreviousPage: skip > 0,
    canExport: total > 0 && !exporting,
    canRefund: canRefundAny && activeRow?.paymentStatus === PAYMENT_STATUS.paid && refunding === null,
    move,
    open: () => activeRow && navigate(orderDetailPath(activeRow.id)),
    page: setPage,
    focusSearch: () => searchRef.current?.focus(),
    focusDates: () => dateRef.current?.focus(),
    status: (status) => setView((v) => ({ ...v, status })),
    cycleSide: () => setView((v) => ({ ...v, side: nextOf(SIDES, v.side) })),
    cycleType: () => setView((v) => ({ ...v, type: nextOf(TYPES, v.type) })),
    refresh: list.reload,
    exportList: () => void exportList(),
    refund: () => activeRow && setRefunding(activeRow),
  };
  useCommands(orderListCommands, ctx);

  return (
    <CommandScope scope="orders">
      <div className="flex min-h-0 flex-1 flex-col" data-testid="order-list">
        <div className="flex flex-wrap items-center gap-3 border-b border-line bg-surface px-3 py-1.5">
          <h1 className="text-sm font-semibold">{t('payments.orders.title')}</h1>
          <div className="ml-auto flex items-center gap-3">
            <label htmlFor={searchId} className="sr-only">{t('payments.orders.search')}</label>
            <input id={searchId} ref={searchRef} type="search" className="input h-7 w-56 text-[13px]" placeholder={`${t('payments.orders.search')} (/)`}
              value={view.text} data-testid="order-search"
              onChange={(e) => setView({ ...view, text: e.target.value })}
              onKeyDown={(e) => {
                if (e.key === 'Escape' && view.text) {
                  e.preventDefault();
                  setView({ ...view, text: '' });
                } else if (e.key === 'Enter' || e.key === 'ArrowDown') {
                  e.preventDefault();
                  focusList();
                }
              }} />
            <Pager loading={list.loading} range={pageRange(list.data ? total : null, skip, rows.length)}
              canPrevious={ctx.hasPreviousPage} canNext={ctx.hasNextPage} canExport={ctx.canExport} exportBusy={exporting}
              onPage={setPage} onRefresh={list.reload} onExport={ctx.exportList} testId="order" />
          </div>
        </div>
        <OrderToolbar view={view} dateRef={dateRef} onView={setView} />
        <ListBody error={list.error} empty={list.data && rows.length === 0 ? t('payments.orders.empty') : null} emptyTestId="order-empty" keys={t('payments.orders.keys')}>
          <OrderTable rows={rows} stale={list.stale} active={active} rowRefs={rowRefs}
            onFocusRow={held.hold} onOpen={(row) => navigate(orderDetailPath(row.id))} />
        </ListBody>
        <RefundDialog order={refunding} onClose={() => { setRefunding(null); requestAnimationFrame(focusList); }}
          onDone={(detail) => {
            setRefunding(null);
            toasts.show({ message: t('payments.orders.refund.done', { requestNo: detail.requestNo }), kind: 'success' });
            list.reload();
            requestAnimationFrame(focusList);
          }} />
      </div>
    </CommandScope>
  );
}
