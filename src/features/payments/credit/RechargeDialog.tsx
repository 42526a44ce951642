import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChargeOrderView, ChargePackage } from '../../../../contract/payments';
import { errorText } from '@/lib/errorText';
import { formatTime } from '@/lib/format';
import { isSessionEndingError } from '@/lib/http';
import { useLoad } from '@/lib/useLoad';
import { Alert } from '@/ui/Alert';
import { Dialog } from '@/ui/Dialog';
import { QrCode } from '@/ui/QrCode';
import { Spinner } from '@/ui/Spinner';
import { newIdempotencyKey, yuan } from '../common/money';
import { creditApi } from './api';

const POLL_MS = 2_000;

/**
 * Recharging the group's credit (areas §7 "Credits"): pick a credit package (↑/↓, Enter), then the QR of its
 * pre-paid order with a live status (polled every 2 s) until the channel says paid; an expired code is replaced
 * on request. Paid → onPaid (the page reloads the balance and the ledger).
 */
export function RechargeDialog({ open, groupId, onClose, onPaid }: { open: boolean; groupId: number; onClose: () => void; onPaid: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} title={t('payments.credit.recharge.title')} onCancel={onClose} width={460}>
      {open && <RechargeFlow groupId={groupId} onClose={onClose} onPaid={onPaid} />}
    </Dialog>
  );
}

function RechargeFlow({ groupId, onClose, onPaid }: { groupId: number; onClose: () => void; onPaid: () => void }) {
  const { t } = useTranslation();
  const packages = useLoad('credit-packages', (signal) => creditApi.packages({ signal }));
  const [chosen, setChosen] = useState(0);
  const [charge, setCharge] = useState<ChargeOrderView | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const optionRefs = useRef<(HTMLButtonElement | null)[]>([]);
  const list = packages.data ?? [];

  // The first package takes the focus once they are in (the native dialog focuses its first button first).
  useEffect(() => {
    if (list.length === 0 || charge) return;
    const frame = requestAnimationFrame(() => optionRefs.current[Math.min(chosen, list.length - 1)]?.focus());
    return () => cancelAnimationFrame(frame);
    // Only when the list arrives or the code step is left: arrow keys move the focus themselves.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [list.length, charge === null]);

  // The live status: every 2 s while the code waits; stops once paid, closed or failed.
  const waiting = charge?.status === 'created';
  useEffect(() => {
    if (!charge || !waiting) return;
    const controller = new AbortController();
    const timer = window.setInterval(() => {
      setNow(Date.now());
      creditApi.rechargeStatus(charge.id, { signal: controller.signal }).then((next) => {
        setCharge((current) => (current?.id === next.id ? next : current));
        if (next.status === 'paid') onPaid();
      }, () => undefined);
    }, POLL_MS);
    return () => {
      controller.abort();
      window.clearInterval(timer);
    };
  }, [charge?.id, waiting]); // eslint-disable-line react-hooks/exhaustive-deps -- the poll belongs to one code

  const paid = charge?.status === 'paid';

  async function start(pkg: ChargePackage) {
    setBusy(true);
    setError(null);
    try {
      setCharge(await creditApi.recharge(groupId, pkg.id, newIdempotencyKey()));
    } catch (e) {
      if (!isSessionEndingError(e)) setError(errorText(t, e));
    } finally {
      setBusy(false);
    }
  }

  async function confirm() {
    if (!charge) return;
    setBusy(true);
    setError(null);
    try {
      const next = await creditApi.confirm(charge.id);
      setCharge(next);
      if (next.status === 'paid') onPaid();
    } catch (e) {
      if (!isSessionEndingError(e)) setError(errorText(t, e));
    } finally {
      setBusy(false);
    }
  }

  if (packages.error && !isSessionEndingError(packages.error)) return <Alert>{errorText(t, packages.error)}</Alert>;
  if (!packages.data) return <Spinner label={t('common.loading')} />;

  if (!charge) {
    const move = (step: number) => {
      const next = Math.max(0, Math.min(list.length - 1, chosen + step));
      setChosen(next);
      optionRefs.current[next]?.focus();
    };
    return (
      <div data-testid="recharge-packages">
        <p className="mb-2 text-[13px] text-fg-muted">{t('payments.credit.recharge.choose')}</p>
        <div role="radiogroup" aria-label={t('payments.credit.recharge.packages')} className="flex flex-col gap-1.5"
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
              e.preventDefault();
              move(e.key === 'ArrowDown' ? 1 : -1);
            }
          }}>
          {list.map((pkg, i) => (
            <button key={pkg.id} ref={(el) => { optionRefs.current[i] = el; }} type="button" role="radio" aria-checked={chosen === i} tabIndex={chosen === i ? 0 : -1}
              data-package-id={pkg.id} disabled={busy}
              className={`flex items-center justify-between rounded-md border px-3 py-2 text-left text-[13px] outline-none focus-visible:ring-2 focus-visible:ring-accent ${chosen === i ? 'border-accent bg-accent-soft' : 'border-line hover:bg-sunken'}`}
              onFocus={() => setChosen(i)} onClick={() => void start(pkg)}>
              <span className="font-medium">{pkg.name}</span>
              <span className="tabular-nums">
                {yuan(t, pkg.priceFen)}
                {pkg.bonusFen > 0 && <span className="ml-2 text-xs text-ok">{t('payments.credit.recharge.bonus', { amount: yuan(t, pkg.bonusFen) })}</span>}
              </span>
            </button>
          ))}
        </div>
        {list.length === 0 && <p className="text-[13px] text-fg-muted">{t('payments.credit.recharge.none')}</p>}
        {error && <div className="mt-2"><Alert>{error}</Alert></div>}
        <div className="mt-4 flex items-center justify-end gap-2">
          {busy && <Spinner label={t('common.loading')} />}
          <button type="button" className="btn" onClick={onClose} disabled={busy}>{t('common.cancel')}</button>
        </div>
      </div>
    );
  }

  const expired = charge.status === 'closed' || charge.status === 'failed' || (waiting && new Date(charge.expiresAt).getTime() <= now);
  const openable = charge.codeUrl !== null && /^https?:\/\//.test(charge.codeUrl);
  return (
    <div className="flex flex-col items-center gap-2 text-[13px]" data-testid="recharge-code" data-status={charge.status}>
      <p className="self-stretch">
        <span className="font-medium">{charge.packageName}</span>
        <span className="ml-2 tabular-nums">{yuan(t, charge.amountFen)}</span>
      </p>
      {paid ? (
        <div className="self-stretch" data-testid="recharge-paid"><Alert tone="success">{t('payments.credit.recharge.paid', { amount: yuan(t, charge.amountFen) })}</Alert></div>
      ) : expired ? (
        <div className="self-stretch"><Alert tone="warning">{t('payments.credit.recharge.expired')}</Alert></div>
      ) : (
        <>
          {charge.codeUrl && <QrCode text={charge.codeUrl} label={t('payments.credit.recharge.qr')} size={176} />}
          <p className="text-fg-muted" aria-live="polite">{t('payments.credit.recharge.scan', { time: formatTime(charge.expiresAt) })}</p>
          {openable && (
            <a href={charge.codeUrl!} target="_blank" rel="noreferrer" className="text-xs text-accent hover:underline" data-testid="recharge-code-url">
              {t('payments.credit.recharge.openCode')}
            </a>
          )}
        </>
      )}
      {error && <div className="self-stretch"><Alert>{error}</Alert></div>}
      <div className="mt-2 flex items-center gap-2 self-end">
        {busy && <Spinner label={t('common.loading')} />}
        {!paid && expired && (
          <button type="button" className="btn btn-primary" disabled={busy} data-testid="recharge-new-code"
            onClick={() => { const pkg = list.find((p) => p.id === charge.packageId); if (pkg) void start(pkg); }}>
            {t('payments.credit.recharge.newCode')}
          </button>
        )}
        {!paid && !expired && <button type="button" className="btn" onClick={() => void confirm()} disabled={busy}>{t('payments.credit.recharge.confirm')}</button>}
        <button type="button" className={paid ? 'btn btn-primary' : 'btn'} onClick={onClose} autoFocus={paid} data-testid="recharge-close">
          {paid ? t('payments.credit.recharge.done') : t('common.cancel')}
        </button>
      </div>
    </div>
  );
}
