import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'wouter';
import type { ReportOrderDetail, RequestTarget } from '../../../../contract/payments';
import { ReportHtml } from '@/features/report';
import { CommandScope, useCommands } from '@/lib/commands';
import { errorText } from '@/lib/errorText';
import { formatDateTime, patientNameText } from '@/lib/format';
import { isSessionEndingError } from '@/lib/http';
import { navigate } from '@/lib/session';
import { toasts } from '@/lib/toasts';
import { useLoad } from '@/lib/useLoad';
import { Spinner } from '@/ui/Spinner';
import { PaymentBadge, ProgressBadge, WaitingNote } from '../common/badges';
import { yuan } from '../common/money';
import { idFrom } from '../common/paths';
import { Problem } from '../common/Problem';
import { Info, KeyHint, Section } from '../../../ui/Section';
import { ordersApi } from './api';
import { orderDetailCommands, type OrderDetailCtx } from './commands';
import { ordersPath } from './paths';
import { RefundDialog } from './RefundDialog';

/**
 * /orders/{id} (issue 13): every field of the order / payment (areas §3), its expert organisations with the
 * experts' reports once written, and the refund. r refunds (asking the reason), Esc goes back to the list.
 */
export default function OrderDetailPage() {
  const { t } = useTranslation();
  const params = useParams<{ id: string }>();
  const id = idFrom(params.id);
  const order = useLoad(id === null ? null : `order-detail:${id}`, (signal) => ordersApi.detail(id!, { signal }));
  if (id === null) return <Problem text={t('payments.common.noId')} />;
  if (order.error && !isSessionEndingError(order.error)) return <Problem text={errorText(t, order.error)} onRetry={order.reload} />;
  if (!order.data) return <div className="flex flex-1 items-center justify-center py-16"><Spinner label={t('common.loading')} /></div>;
  return <OrderDetail detail={order.data} reload={order.reload} />;
}

function OrderDetail({ detail, reload }: { detail: ReportOrderDetail; reload: () => void }) {
  const { t } = useTranslation();
  const [refunding, setRefunding] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  // The page's heading takes the focus when it opens, so the keys work at once and a reader hears where it is.
  useEffect(() => headingRef.current?.focus(), [detail.id]);
  const canRefund = detail.transitions.includes('refund');
  const ctx: OrderDetailCtx = {
    canRefund: canRefund && !refunding,
    refund: () => setRefunding(true),
    back: () => navigate(ordersPath),
    refresh: reload,
  };
  useCommands(orderDetailCommands, ctx);
  const channel = detail.channel ? t(`payments.common.channel.${detail.channel}`) : '';
  const label = (name: string) => t(`payments.orders.detail.${name}` as 'payments.orders.detail.requestNo');
  return (
    <CommandScope scope="orderDetail">
      <div className="mx-auto flex w-full max-w-4xl flex-col gap-3 overflow-auto p-4" data-testid="order-detail" data-order-id={detail.id}>
        <div className="flex flex-wrap items-center gap-2">
          <Link href={ordersPath} className="text-[13px] text-accent hover:underline">← {t('payments.orders.detail.back')}<span className="key-hint ml-1">Esc</span></Link>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <h1 ref={headingRef} tabIndex={-1} className="text-base font-semibold outline-none focus-visible:ring-2 focus-visible:ring-accent">
            {t('payments.orders.detail.title', { requestNo: detail.requestNo })}
          </h1>
          <PaymentBadge status={detail.paymentStatus} />
          <ProgressBadge progress={detail.progress} />
          {canRefund && (
            <button type="button" className="btn ml-auto h-7 border-danger/60 px-2.5 text-[13px] text-danger" onClick={() => setRefunding(true)} data-testid="order-refund">
              {t('payments.orders.commands.refund')}<KeyHint keys="R" />
            </button>
          )}
        </div>
        <Section title={t('payments.orders.detail.request')}>
          <dl className="grid grid-cols-[9rem_1fr] gap-x-3 gap-y-1 text-[13px] sm:grid-cols-[9rem_1fr_9rem_1fr]">
            <Info label={label('requestNo')}><span className="font-mono tabular-nums">{detail.requestNo}</span></Info>
            <Info label={label('type')}>{t(`payments.common.type.${detail.type}`)}</Info>
            <Info label={label('patient')}>{patientNameText(detail.patientName)}</Info>
            <Info label={label('genderAge')}>{[t(`payments.orders.gender.${detail.patientGender === 'M' || detail.patientGender === 'F' ? detail.patientGender : 'U'}`), detail.patientAge].filter(Boolean).join(' · ')}</Info>
            <Info label={label('from')}>{detail.fromBucketName}</Info>
            <Info label={label('to')}>{detail.toBucketName}</Info>
            <Info label={label('applicant')}>{detail.applicantName}</Info>
            <Info label={label('created')}>{formatDateTime(detail.created)}</Info>
            <Info label={label('email')}>{detail.email}</Info>
            <Info label={label('mobile')}>{detail.mobile}</Info>
          </dl>
          <dl className="mt-1 grid grid-cols-[9rem_1fr] gap-x-3 text-[13px]">
            <Info label={label('reason')}>{detail.reason}</Info>
          </dl>
        </Section>
        <Section title={t('payments.orders.detail.payment')} testId="order-payment">
          <dl className="grid grid-cols-[9rem_1fr] gap-x-3 gap-y-1 text-[13px] sm:grid-cols-[9rem_1fr_9rem_1fr]">
            <Info label={label('amount')}><span className="font-medium tabular-nums" data-testid="order-amount">{yuan(t, detail.amountFen)}</span></Info>
            <Info label={label('paymentStatus')}><PaymentBadge status={detail.paymentStatus} /></Info>
            <Info label={label('channel')}>{channel}</Info>
            <Info label={label('paidAt')}>{detail.paidAt ? formatDateTime(detail.paidAt) : ''}</Info>
            <Info label={label('transactionId')}><span className="font-mono text-xs break-all">{detail.transactionId}</span></Info>
            <Info label={label('paidDescription')}>{detail.paidDescription}</Info>
          </dl>
        </Section>
        <Section title={t('payments.orders.detail.targets')} testId="order-targets">
          <ul className="flex flex-col divide-y divide-line">
            {detail.targets.map((target) => <TargetItem key={target.bucketId} target={target} />)}
          </ul>
        </Section>
        {(detail.refundNo || detail.refundAt || detail.paymentStatus >= 2) && (
          <Section title={t('payments.orders.detail.refund')} testId="order-refund-block">
            <dl className="grid grid-cols-[9rem_1fr] gap-x-3 gap-y-1 text-[13px] sm:grid-cols-[9rem_1fr_9rem_1fr]">
              <Info label={label('refundNo')}><span className="font-mono text-xs">{detail.refundNo}</span></Info>
              <Info label={label('refundAt')}>{detail.refundAt ? formatDateTime(detail.refundAt) : ''}</Info>
              <Info label={label('refundAmount')}>{detail.paymentStatus === 3 ? yuan(t, detail.amountFen) : ''}</Info>
              <Info label={label('refundOperator')}>{detail.refundOperatorName}</Info>
            </dl>
            <dl className="mt-1 grid grid-cols-[9rem_1fr] gap-x-3 text-[13px]">
              <Info label={label('refundReason')}><span data-testid="order-refund-reason">{detail.refundReason}</span></Info>
            </dl>
          </Section>
        )}
        <RefundDialog order={refunding ? detail : null} onClose={() => { setRefunding(false); headingRef.current?.focus(); }}
          onDone={(done) => {
            setRefunding(false);
            toasts.show({ message: t('payments.orders.refund.done', { requestNo: done.requestNo }), kind: 'success' });
            reload();
          }} />
      </div>
    </CommandScope>
  );
}

/** One expert organisation: its price and progress, and its report once the expert has written one. */
function TargetItem({ target }: { target: RequestTarget }) {
  const { t } = useTranslation();
  return (
    <li className="py-2 text-[13px]" data-target={target.bucketId}>
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium">{target.bucketName}</span>
        <span className="tabular-nums text-fg-muted">{target.free ? t('payments.common.free') : yuan(t, target.priceFen)}</span>
        <ProgressBadge progress={target.progress} />
      </div>
      <WaitingNote waiting={target.waiting} />
      {target.report ? (
        <div className="mt-2 grid grid-cols-[9rem_1fr] gap-x-3 gap-y-1" data-testid="order-expert-report">
          <span className="text-fg-muted">{t('payments.orders.detail.findings')}</span>
          <ReportHtml html={target.report.findings} className="text-[13px]" />
          <span className="text-fg-muted">{t('payments.orders.detail.conclusion')}</span>
          <ReportHtml html={target.report.conclusion} className="text-[13px] font-medium" />
          <span className="text-fg-muted">{t('payments.orders.detail.approved')}</span>
          <p>{[target.report.approverName, target.report.approvedAt ? formatDateTime(target.report.approvedAt) : null].filter(Boolean).join(' · ') || '—'}</p>
        </div>
      ) : (
        <p className="mt-1 text-xs text-fg-subtle">{t('payments.orders.detail.noReport')}</p>
      )}
    </li>
  );
}
