import { useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Filter } from '../../../../contract/common';
import { CREDIT_LEDGER_KINDS, ORDER_EXPORT_MAX, type CreditLedgerKind, type CreditSums } from '../../../../contract/payments';
import { CommandScope, useCommands } from '@/lib/commands';
import { errorText } from '@/lib/errorText';
import { isSessionEndingError } from '@/lib/http';
import { useSession } from '@/lib/session';
import { toasts } from '@/lib/toasts';
import { useLoad } from '@/lib/useLoad';
import { Alert } from '@/ui/Alert';
import { EmptyState } from '@/ui/LoadState';
import { Spinner } from '@/ui/Spinner';
import { yuan } from '../common/money';
import { Problem } from '../common/Problem';
import { KeyHint } from '../../../ui/Section';
import { saveBlob, stampedName } from '@/lib/download';
import { dayEnd, dayStart } from '../orders/filters';
import { chip, DateRange } from '../orders/OrderToolbar';
import { Pager } from '../orders/Pager';
import { AdjustDialog } from './AdjustDialog';
import { creditApi } from './api';
import { creditCommands, type CreditCtx } from './commands';
import { LedgerTable } from './LedgerTable';
import { RechargeDialog } from './RechargeDialog';

const PAGE = 20;

/**
 * /credit (areas §7 "Credits"): the group's credit balance, its movements summed over a range and listed (the
 * ledger, with kind and date filters and the export), recharging through a QR code and, for group
 * administrators, adjusting. The first group of the account with credit enabled.
 */
export default function CreditPage() {
  const { t } = useTranslation();
  const { groups } = useSession();
  const group = groups.find((g) => g.enableCredit) ?? null;
  if (!group) return <Problem text={t('payments.credit.disabled')} testId="credit-disabled" />;
  return <Credit groupId={group.id} groupName={group.displayName} admin={group.accessLevel === 1} />;
}

function Credit({ groupId, groupName, admin }: { groupId: number; groupName: string; admin: boolean }) {
  const { t } = useTranslation();
  const ids = useId();
  const [kind, setKind] = useState<CreditLedgerKind | null>(null);
  const [range, setRange] = useState({ from: '', to: '' });
  const [round, setRound] = useState(0);
  const filters = useMemo(() => {
    const list: Filter[] = [];
    if (kind) list.push({ field: 'kind', operator: 'equal', values: [kind] });
    if (range.from) list.push({ field: 'created', operator: 'gte', values: [dayStart(range.from)] });
    if (range.to) list.push({ field: 'created', operator: 'lte', values: [dayEnd(range.to)] });
    return list;
  }, [kind, range]);
  const filtersKey = JSON.stringify(filters);
  const [paging, setPaging] = useState<{ of: string; skip: number }>({ of: '', skip: 0 });
  const skip = paging.of === filtersKey ? paging.skip : 0;
  const balance = useLoad(`credit-balance:${groupId}:${round}`, (signal) => creditApi.balance(groupId, { signal }));
  const sumsRange = { from: range.from ? dayStart(range.from) : undefined, to: range.to ? dayEnd(range.to) : undefined };
  const sums = useLoad(`credit-sums:${groupId}:${JSON.stringify(sumsRange)}:${round}`, (signal) => creditApi.sums(groupId, sumsRange, { signal }));
  const ledger = useLoad(`credit-ledger:${groupId}:${filtersKey}:${skip}:${round}`, (signal) => creditApi.ledger({ groupId, filters, skip, limit: PAGE }, { signal }));
  const rows = ledger.data?.items ?? [];
  const total = ledger.data?.total ?? 0;
  const [dialog, setDialog] = useState<'recharge' | 'adjust' | null>(null);
  const [exporting, setExporting] = useState(false);
  const dateRef = useRef<HTMLInputElement>(null);
  const tableRef = useRef<HTMLTableElement>(null);
  const rechargeRef = useRef<HTMLButtonElement>(null);
  const refresh = () => setRound((n) => n + 1);
  const setPage = (step: 1 | -1) => setPaging({ of: filtersKey, skip: Math.max(0, skip + step * PAGE) });

  async function exportLedger() {
    if (total > ORDER_EXPORT_MAX) {
      toasts.show({ message: t('payments.orders.exportTooMany', { max: ORDER_EXPORT_MAX }), kind: 'error' });
      return;
    }
    setExporting(true);
    try {
      saveBlob(await creditApi.export(groupId, filters), stampedName('credit', new Date()));
    } catch (error) {
      if (!isSessionEndingError(error)) toasts.show({ message: errorText(t, error), kind: 'error' });
    } finally {
      setExporting(false);
    }
  }

  const ctx: CreditCtx = {
    canRecharge: dialog === null,
    canAdjust: admin && dialog === null,
    canExport: total > 0 && !exporting,
    hasNextPage: skip + PAGE < total,
    hasPreviousPage: skip > 0,
    recharge: () => setDialog('recharge'),
    adjust: () => setDialog('adjust'),
    exportLedger: () => void exportLedger(),
    kind: setKind,
    focusDates: () => dateRef.current?.focus(),
    focusLedger: () => tableRef.current?.focus(),
    page: setPage,
    refresh,
  };
  useCommands(creditCommands, ctx);
  const closeDialog = () => {
    setDialog(null);
    requestAnimationFrame(() => rechargeRef.current?.focus());
  };

  const fatal = balance.error && !isSessionEndingError(balance.error) ? balance.error : null;
  return (
    <CommandScope scope="credit">
      <div className="flex min-h-0 flex-1 flex-col overflow-auto" data-testid="credit-page">
        <div className="flex flex-wrap items-center gap-3 border-b border-line bg-surface px-3 py-1.5">
          <h1 className="text-sm font-semibold">{t('payments.credit.title')}</h1>
          <span className="text-[13px] text-fg-muted">{groupName}</span>
        </div>
        {fatal ? (
          <div className="p-4"><Alert>{errorText(t, fatal)}</Alert></div>
        ) : (
          <>
            <div className="flex flex-wrap items-stretch gap-3 border-b border-line bg-surface px-3 py-3">
              <section className="flex min-w-56 flex-col gap-1 rounded-md border border-line bg-raised px-4 py-3" aria-labelledby={`${ids}-balance`}>
                <h2 id={`${ids}-balance`} className="text-xs text-fg-muted">{t('payments.credit.balance')}</h2>
                <p className="text-2xl font-semibold tabular-nums" data-testid="credit-balance" data-fen={balance.data?.balanceFen ?? ''}>
                  {balance.data ? yuan(t, balance.data.balanceFen) : <Spinner label={t('common.loading')} />}
                </p>
                <div className="mt-1 flex gap-2">
                  <button ref={rechargeRef} type="button" className="btn btn-primary h-7 px-2.5 text-[13px]" onClick={() => setDialog('recharge')} data-testid="credit-recharge">
                    {t('payments.credit.commands.recharge')}<KeyHint keys="C" />
                  </button>
                  {admin && (
                    <button type="button" className="btn h-7 px-2.5 text-[13px]" onClick={() => setDialog('adjust')} data-testid="credit-adjust">
                      {t('payments.credit.commands.adjust')}<KeyHint keys="A" />
                    </button>
                  )}
                </div>
              </section>
              <Sums sums={sums.data} ranged={Boolean(range.from || range.to)} />
            </div>
            <div className="flex flex-wrap items-center gap-x-3 gap-y-1.5 border-b border-line bg-surface px-3 py-2 text-[13px]">
              <h2 className="text-[13px] font-semibold">{t('payments.credit.ledger')}<span className="key-hint ml-1">L</span></h2>
              <div className="flex items-center gap-1" role="group" aria-label={t('payments.credit.kindFilter')}>
                <button type="button" className={chip(kind === null)} aria-pressed={kind === null} onClick={() => setKind(null)} title={`${t('payments.credit.commands.kind.all')} (0)`}>
                  {t('payments.credit.allKinds')}
                </button>
                {CREDIT_LEDGER_KINDS.map((k, i) => (
                  <button key={k} type="button" className={chip(kind === k)} aria-pressed={kind === k} data-kind-chip={k} onClick={() => setKind(kind === k ? null : k)}
                    title={`${t(`payments.credit.kind.${k}`)} (${i + 1})`}>
                    {t(`payments.credit.kind.${k}`)}
                  </button>
                ))}
              </div>
              <DateRange label={t('payments.credit.dates')} from={range.from} to={range.to} dateRef={dateRef} idBase={ids} onChange={(from, to) => setRange({ from, to })} />
              <div className="ml-auto">
                <Pager loading={ledger.loading} range={ledger.data ? { from: total === 0 ? 0 : skip + 1, to: skip + rows.length, total } : null}
                  canPrevious={ctx.hasPreviousPage} canNext={ctx.hasNextPage} canExport={ctx.canExport} exportBusy={exporting}
                  onPage={setPage} onRefresh={refresh} onExport={ctx.exportLedger} testId="ledger" />
              </div>
            </div>
            <div className="min-h-40 flex-1 bg-surface">
              {ledger.error && !isSessionEndingError(ledger.error) ? (
                <div className="p-4"><Alert>{errorText(t, ledger.error)}</Alert></div>
              ) : ledger.data && rows.length === 0 ? (
                <EmptyState testId="ledger-empty">{t('payments.credit.empty')}</EmptyState>
              ) : (
                <LedgerTable rows={rows} stale={ledger.stale} tableRef={tableRef} />
              )}
              <p className="px-3 py-2 text-xs text-fg-subtle">{t('payments.credit.keys')}</p>
            </div>
          </>
        )}
        <RechargeDialog open={dialog === 'recharge'} groupId={groupId} onClose={closeDialog} onPaid={refresh} />
        <AdjustDialog open={dialog === 'adjust'} groupId={groupId} onClose={closeDialog} onDone={() => { closeDialog(); refresh(); }} />
      </div>
    </CommandScope>
  );
}

/** What moved in the chosen range (everything when none): recharged, charged, refunded, adjusted. */
function Sums({ sums, ranged }: { sums: CreditSums | null; ranged: boolean }) {
  const { t } = useTranslation();
  const items: [string, number | undefined][] = [
    ['recharged', sums?.rechargedFen], ['charged', sums?.chargedFen], ['refunded', sums?.refundedFen], ['adjusted', sums?.adjustedFen],
  ];
  return (
    <section className="flex flex-col gap-1 rounded-md border border-line px-4 py-3" aria-label={t('payments.credit.sums.title')} data-testid="credit-sums">
      <h2 className="text-xs text-fg-muted">{ranged ? t('payments.credit.sums.range') : t('payments.credit.sums.all')}</h2>
      <dl className="grid grid-cols-4 gap-x-6">
        {items.map(([name, fen]) => (
          <div key={name} className="flex flex-col" data-sum={name}>
            <dt className="text-xs text-fg-muted">{t(`payments.credit.sums.${name}` as 'payments.credit.sums.recharged')}</dt>
            <dd className="text-base font-medium tabular-nums">{fen === undefined ? '—' : yuan(t, fen)}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
