import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { PAYMENT_STATUS_NAMES, type ChargePackage, type ReportOrderDetail } from '../../../../contract/payments';
import { secondsLeft } from '../../../../machines/charge';
import { CommandScope, useCommands } from '@/lib/commands';
import { navigate } from '@/lib/session';
import { Alert } from '@/ui/Alert';
import { QrCode } from '@/ui/QrCode';
import { Spinner } from '@/ui/Spinner';
import { chargeCommands, type ChargeCtx } from '../commands';
import { yuan } from '../common/money';
import { orderPath } from '../common/paths';
import { KeyHint, Section } from '../../../ui/Section';
import { useCharge } from './useCharge';

function countdown(seconds: number): string {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/**
 * The charge page: the packages on the left (the single payment chosen), the code on the right with its countdown
 * and the live status (machines/charge.ts through useCharge); paid → a clear paid state and the way back.
 */
export function ChargeView({ order, packages }: { order: ReportOrderDetail; packages: ChargePackage[] }) {
  const { t } = useTranslation();
  const { state, context, charge, choose, refresh, retry } = useCharge(order, packages);
  const back = orderPath(order.examId, order.id, order.type);
  const ctx: ChargeCtx = { canRefresh: state === 'expired', refresh, back: () => navigate(back) };
  useCommands(chargeCommands, ctx);
  const chosen = packages.find((p) => p.id === context.packageId) ?? null;
  const amount = yuan(t, charge?.amountFen ?? chosen?.priceFen ?? order.amountFen);
  const offered = state !== 'paid' && state !== 'closed';

  return (
    <CommandScope scope="payments">
      <div className="mx-auto flex w-full max-w-4xl min-h-0 flex-1 flex-col gap-3 overflow-auto p-4" data-testid="charge-page" data-state={state}>
        <header className="flex flex-wrap items-baseline gap-3">
          <h1 className="text-base font-semibold">{t('payments.charge.title')}</h1>
          <span className="text-[13px] text-fg-muted">{t('payments.order.title', { no: order.requestNo })} · {order.toBucketName}</span>
          <Link href={back} className="ml-auto text-[13px] text-accent underline-offset-2 hover:underline">{t('payments.charge.back')}</Link>
        </header>
        {state === 'paid' ? (
          <section className="flex flex-col items-center gap-3 rounded-md border border-ok/40 bg-ok-soft px-6 py-10 text-center" data-testid="charge-paid" role="status">
            <span aria-hidden="true" className="inline-flex size-10 items-center justify-center rounded-full bg-ok text-lg text-surface">✓</span>
            <h2 className="text-lg font-semibold text-ok">{t('payments.charge.paid')}</h2>
            <p className="text-[13px]">{t('payments.charge.paidText', { no: order.requestNo, amount })}</p>
            <Link href={back} className="btn btn-primary h-8 px-3" data-testid="charge-back">{t('payments.charge.back')}</Link>
          </section>
        ) : state === 'closed' ? (
          <div className="flex flex-col gap-3" data-testid="charge-closed">
            <Alert tone="info">{t('payments.charge.closed', { status: t(`payments.common.paymentStatus.${PAYMENT_STATUS_NAMES[order.paymentStatus]}`) })}</Alert>
            <div><Link href={back} className="btn h-8 px-3">{t('payments.charge.back')}</Link></div>
          </div>
        ) : (
          <div className="grid gap-3 md:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
            <Section title={t('payments.charge.packages')}>
              <div role="radiogroup" aria-label={t('payments.charge.packages')} className="flex flex-col gap-1.5" data-testid="charge-packages">
                {packages.map((p) => (
                  <label key={p.id} className={`flex cursor-pointer items-center gap-2 rounded border px-2 py-1.5 text-[13px] ${p.id === context.packageId ? 'border-accent bg-accent-soft' : 'border-line hover:bg-sunken'}`}>
                    <input type="radio" name="package" checked={p.id === context.packageId} disabled={!offered || state === 'creating'} onChange={() => choose(p.id)} />
                    <span className="flex min-w-0 flex-1 flex-col">
                      <span className="font-medium">{p.name}</span>
                      <span className="text-xs text-fg-muted">
                        {[t(`payments.charge.kind.${p.kind}`), p.kind === 'plan' ? t('payments.charge.reports', { count: p.reports }) : null, p.days > 0 ? t('payments.charge.days', { count: p.days }) : null].filter(Boolean).join(' · ')}
                      </span>
                    </span>
                    <span className="tabular-nums">{yuan(t, p.priceFen)}</span>
                  </label>
                ))}
              </div>
            </Section>
            <Section title={`${t('payments.order.amount')} ${amount}`} testId="charge-code">
              <div className="flex flex-col items-center gap-2 py-2 text-center" aria-live="polite">
                {state === 'creating' || state === 'choosing' ? (
                  <div className="flex h-[178px] items-center"><Spinner label={t('payments.charge.creating')} /></div>
                ) : state === 'failed' ? (
                  <div className="flex h-[178px] flex-col items-center justify-center gap-2">
                    <Alert>{t('payments.charge.failed')}{context.error ? ` · ${t(`errors.${context.error}`, { defaultValue: context.error })}` : ''}</Alert>
                    <button type="button" className="btn h-8 px-3" onClick={retry} data-testid="charge-retry">{t('payments.charge.retry')}</button>
                  </div>
                ) : charge?.codeUrl ? (
                  <div className={`relative ${state === 'expired' ? 'opacity-30' : ''}`}>
                    <QrCode text={charge.codeUrl} label={t('payments.charge.qrLabel')} size={160} />
                  </div>
                ) : null}
                {state === 'waiting' && (
                  <>
                    <p className="text-[13px] font-medium" data-testid="charge-waiting">{t('payments.charge.waiting')}</p>
                    <p className="text-xs tabular-nums text-fg-muted" data-testid="charge-countdown">{t('payments.charge.expiresIn', { time: countdown(secondsLeft(context)) })}</p>
                  </>
                )}
                {state === 'expired' && (
                  <>
                    <p className="text-[13px] font-medium text-warn" data-testid="charge-expired">{t('payments.charge.expired')}</p>
                    <button type="button" className="btn btn-primary h-8 px-3" onClick={refresh} data-testid="charge-refresh">{t('payments.charge.refresh')}<KeyHint keys="R" /></button>
                  </>
                )}
                {charge && state === 'waiting' && (
                  <div className="flex flex-col items-center gap-1 text-xs text-fg-muted">
                    <span>{charge.provider === 'sandbox' ? t('payments.charge.scanSandbox') : t('payments.charge.scan')}</span>
                    {charge.provider === 'sandbox' && charge.codeUrl && (
                      <a href={charge.codeUrl} target="_blank" rel="noreferrer" className="text-accent underline-offset-2 hover:underline" data-testid="charge-link">{t('payments.charge.openLink')}</a>
                    )}
                    <span className="font-mono">{t('payments.charge.outTradeNo')} {charge.outTradeNo}</span>
                  </div>
                )}
              </div>
            </Section>
          </div>
        )}
        {offered && <p className="text-xs text-fg-subtle">{t('payments.charge.keys')}</p>}
      </div>
    </CommandScope>
  );
}
