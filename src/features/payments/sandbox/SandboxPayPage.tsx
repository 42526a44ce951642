import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearch } from 'wouter';
import { formatYuan, type SandboxTradeView } from '../../../../contract/payments';
import { errorText } from '@/lib/errorText';
import { formatTime } from '@/lib/format';
import { isHttpError } from '@/lib/http';
import { useDomain } from '@/lib/session/domain';
import { Alert } from '@/ui/Alert';
import { PublicFrame } from '@/ui/PublicFrame';
import { Spinner } from '@/ui/Spinner';
import { sandboxApi } from './sandboxApi';

/**
 * /sandbox-pay/{outTradeNo}?s=…: what the sandbox channel's QR opens — the payer's "phone" on this machine. It shows
 * whom and how much, and the payer's two answers: Pay (Enter) or Fail. The charge page that showed the QR learns the
 * outcome from the server (the sandbox notifies it), not from this page.
 */
export default function SandboxPayPage() {
  const { t } = useTranslation();
  const domain = useDomain();
  const { outTradeNo = '' } = useParams<{ outTradeNo: string }>();
  const s = new URLSearchParams(useSearch()).get('s') ?? '';
  const [trade, setTrade] = useState<SandboxTradeView | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!s) return;
    const controller = new AbortController();
    sandboxApi.view(outTradeNo, s, controller.signal).then(setTrade, (e: unknown) => !controller.signal.aborted && setError(e));
    return () => controller.abort();
  }, [outTradeNo, s]);

  const payable = trade !== null && trade.state === 'NOTPAY' && !trade.expired && !busy;

  async function answer(action: 'pay' | 'fail') {
    if (!payable) return;
    setBusy(true);
    setError(null);
    try {
      setTrade(await sandboxApi[action](outTradeNo, s));
    } catch (e) {
      setError(e);
      // The refusal says why (expired, paid elsewhere): show the trade as it now is.
      sandboxApi.view(outTradeNo, s).then(setTrade, () => undefined);
    } finally {
      setBusy(false);
    }
  }

  // Enter pays (a focused button answers Enter itself: Fail stays Fail).
  useEffect(() => {
    if (!payable) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Enter' || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || event.isComposing) return;
      if (event.target instanceof HTMLElement && event.target.closest('button, a, input, textarea, select')) return;
      event.preventDefault();
      void answer('pay');
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  const refused = isHttpError(error) && (error.code === 'Forbidden' || error.code === 'NotFound');
  return (
    <PublicFrame title={t('payments.sandbox.title')}>
      <div className="mx-auto w-full max-w-sm">
        {!s || refused ? (
          <Alert>{!s || (isHttpError(error) && error.code === 'Forbidden') ? t('payments.sandbox.badLink') : t('payments.sandbox.notFound')}</Alert>
        ) : !trade ? (
          error ? <Alert>{errorText(t, error)}</Alert> : <Spinner label={t('payments.sandbox.loading')} />
        ) : (
          <section aria-labelledby="sandbox-amount" className="rounded-lg border border-line bg-surface p-6 text-center">
            <p className="text-sm text-fg-muted">{t('payments.sandbox.merchant', { name: domain?.displayName ?? t('common.appName') })}</p>
            <p id="sandbox-amount" className="mt-3 text-4xl font-semibold tabular-nums text-fg">
              <span className="sr-only">{t('payments.sandbox.amount')} </span>¥{formatYuan(trade.amountFen)}
            </p>
            <p className="mt-2 break-words text-sm text-fg">{trade.description}</p>
            <p className="mt-1 font-mono text-xs text-fg-muted">{t('payments.sandbox.tradeNo', { no: trade.outTradeNo })}</p>
            <div className="mt-5 text-left">
              <Outcome trade={trade} />
              {error !== null && <div className="mt-3"><Alert>{errorText(t, error)}</Alert></div>}
            </div>
            {trade.state === 'NOTPAY' && !trade.expired && (
              <>
                <div className="mt-5 flex flex-col gap-2">
                  <button type="button" className="btn btn-primary w-full" autoFocus disabled={busy} onClick={() => void answer('pay')}>
                    {t('payments.sandbox.pay', { amount: formatYuan(trade.amountFen) })}
                  </button>
                  <button type="button" className="btn w-full" disabled={busy} onClick={() => void answer('fail')}>{t('payments.sandbox.fail')}</button>
                </div>
                <p className="mt-3 text-xs text-fg-muted">{t('payments.sandbox.keys')}</p>
              </>
            )}
            <p className="mt-5 text-xs text-fg-muted">{t('payments.sandbox.note')}</p>
          </section>
        )}
      </div>
    </PublicFrame>
  );
}

function Outcome({ trade }: { trade: SandboxTradeView }) {
  const { t } = useTranslation();
  if (trade.state === 'SUCCESS') {
    return (
      <Alert tone="success">
        <p className="font-medium">{t('payments.sandbox.paid')}</p>
        <p className="mt-1 text-xs">{t('payments.sandbox.paidText')}</p>
        {trade.transactionId && <p className="mt-1 font-mono text-xs">{t('payments.sandbox.transactionId', { id: trade.transactionId })}</p>}
      </Alert>
    );
  }
  if (trade.state === 'PAYERROR') return <Alert>{t('payments.sandbox.failed')}</Alert>;
  if (trade.state === 'REFUND') return <Alert tone="info">{t('payments.sandbox.refunded')}</Alert>;
  if (trade.state === 'CLOSED') return <Alert tone="warning">{t('payments.sandbox.closed')}</Alert>;
  if (trade.expired) return <Alert tone="warning">{t('payments.sandbox.expired')}</Alert>;
  return <Alert tone="info">{t('payments.sandbox.waiting', { time: formatTime(trade.expiresAt) })}</Alert>;
}
