import { useTranslation } from 'react-i18next';
import { PAYMENT_STATUS_NAMES, type PaymentStatus, type RequestProgress, type RequestTarget } from '../../../../contract/payments';

const PAYMENT_TONE: Record<'unpaid' | 'paid' | 'refunding' | 'refunded', string> = {
  unpaid: 'border-warn/50 bg-warn-soft text-warn',
  paid: 'border-ok/40 bg-ok-soft text-ok',
  refunding: 'border-accent/40 bg-accent-soft text-fg',
  refunded: 'border-line-strong text-fg-muted',
};

const PROGRESS_TONE: Record<RequestProgress, string> = {
  awaiting_payment: 'border-warn/50 bg-warn-soft text-warn',
  queued: 'border-accent/40 bg-accent-soft text-fg',
  reporting: 'border-accent bg-accent text-accent-fg',
  reported: 'border-ok/40 bg-ok-soft text-ok',
  withdrawn: 'border-line-strong text-fg-muted',
  refunded: 'border-line-strong text-fg-muted',
};

const BADGE = 'inline-flex h-[18px] items-center rounded border px-1.5 text-[11px] font-medium leading-none whitespace-nowrap [:lang(bo)_&]:h-auto [:lang(bo)_&]:py-0.5';

export function PaymentBadge({ status }: { status: PaymentStatus }) {
  const { t } = useTranslation();
  const name = PAYMENT_STATUS_NAMES[status];
  return <span data-payment={name} className={`${BADGE} ${PAYMENT_TONE[name]}`}>{t(`payments.common.paymentStatus.${name}`)}</span>;
}

export function ProgressBadge({ progress }: { progress: RequestProgress }) {
  const { t } = useTranslation();
  return <span data-progress={progress} className={`${BADGE} ${PROGRESS_TONE[progress]}`}>{t(`payments.common.progress.${progress}`)}</span>;
}

/** What a paid target's report waits for (RequestTarget.waiting): the writer, or whose approval. */
export function WaitingNote({ waiting }: { waiting: RequestTarget['waiting'] }) {
  const { t } = useTranslation();
  if (!waiting) return null;
  const names = waiting.names.join('、');
  const text = waiting.step === 'writing'
    ? (names ? t('payments.common.waiting.writingBy', { names }) : t('payments.common.waiting.writing'))
    : (names ? t('payments.common.waiting.approvalBy', { names }) : t('payments.common.waiting.noApprover'));
  return (
    <p className={`text-xs ${waiting.step === 'approval' && !names ? 'text-warn' : 'text-fg-muted'}`} data-testid="order-waiting" data-step={waiting.step}>
      {text}
    </p>
  );
}
