import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReportOrder, ReportOrderDetail } from '../../../../contract/payments';
import { errorText } from '@/lib/errorText';
import { isSessionEndingError } from '@/lib/http';
import { Alert } from '@/ui/Alert';
import { Dialog } from '@/ui/Dialog';
import { newIdempotencyKey, yuan } from '../common/money';
import { ordersApi } from './api';

/**
 * Asks before a refund (areas §7: full, to the original channel, and the experts' reports are deleted) and for its
 * reason. One Idempotency-Key per opening: a resend after a lost answer is the same refund. The server's refusals
 * (RefundProcessing, InvalidTransition, VersionConflict, Forbidden …) are shown in the dialog, which stays open.
 */
export function RefundDialog({ order, onClose, onDone }: {
  order: ReportOrder | null;
  onClose: () => void;
  onDone: (detail: ReportOrderDetail) => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={order !== null} title={t('payments.orders.refund.title')} onCancel={onClose} width={460}>
      {order && <RefundForm key={order.id} order={order} onClose={onClose} onDone={onDone} />}
    </Dialog>
  );
}

function RefundForm({ order, onClose, onDone }: { order: ReportOrder; onClose: () => void; onDone: (detail: ReportOrderDetail) => void }) {
  const { t } = useTranslation();
  const id = useId();
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [key] = useState(newIdempotencyKey);
  // The native dialog focuses its first control after this effect: the reason gets it on the next frame.
  useEffect(() => {
    const frame = requestAnimationFrame(() => reasonRef.current?.focus());
    return () => cancelAnimationFrame(frame);
  }, []);

  async function submit() {
    const text = reason.trim();
    if (!text) {
      setError(t('payments.orders.refund.reasonRequired'));
      reasonRef.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      onDone(await ordersApi.refund(order.id, { reason: text, version: order.version }, key));
    } catch (e) {
      if (!isSessionEndingError(e)) setError(errorText(t, e));
      setBusy(false);
    }
  }

  return (
    <form onSubmit={(event) => { event.preventDefault(); if (!busy) void submit(); }} data-testid="refund-dialog">
      <p className="text-sm">
        {t('payments.orders.refund.text', { requestNo: order.requestNo, amount: yuan(t, order.amountFen), channel: order.channel ? t(`payments.common.channel.${order.channel}`) : '—' })}
      </p>
      <p className="mt-1 text-xs text-fg-muted">{t('payments.orders.refund.warning')}</p>
      <label htmlFor={`${id}-reason`} className="mt-3 mb-1 block text-[13px] font-medium text-fg-muted">{t('payments.orders.refund.reason')}</label>
      <textarea id={`${id}-reason`} ref={reasonRef} className="input min-h-20 w-full py-1.5 text-[13px]" maxLength={512} value={reason} disabled={busy}
        data-testid="refund-reason" aria-invalid={error !== null && !reason.trim() ? true : undefined}
        onChange={(e) => setReason(e.target.value)}
        onKeyDown={(e) => {
          // Ctrl/Cmd+Enter sends from inside the text (Enter alone is a new line).
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            if (!busy) void submit();
          }
        }} />
      {error && <div className="mt-2"><Alert>{error}</Alert></div>}
      <div className="mt-4 flex justify-end gap-2">
        <button type="button" className="btn" onClick={onClose} disabled={busy}>{t('common.cancel')}</button>
        <button type="submit" className="btn border-danger bg-danger text-surface hover:bg-danger/90" disabled={busy} data-testid="refund-confirm">
          {busy ? t('payments.orders.refund.busy') : t('payments.orders.refund.confirm')}<span className="key-hint ml-1">Ctrl+Enter</span>
        </button>
      </div>
    </form>
  );
}
