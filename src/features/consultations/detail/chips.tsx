import { useTranslation } from 'react-i18next';
import type { ConsultationStatus, PaymentStatus } from '../../../../contract/consultations';

/** Areas §4 statuses: waiting is quiet, planned and discussed are the accent (someone acts next), done green, canceled red. */
const STATUS_TONE: Record<ConsultationStatus, string> = {
  0: 'border-warn/50 bg-warn-soft text-warn',
  1: 'border-accent/40 bg-accent-soft text-fg',
  2: 'border-accent bg-accent text-accent-fg',
  3: 'border-ok/40 bg-ok-soft text-ok',
  4: 'border-danger/40 text-danger',
};

const PAYMENT_TONE: Record<PaymentStatus, string> = {
  0: 'border-line-strong text-fg-muted',
  1: 'border-ok/40 text-ok',
  2: 'border-warn/50 text-warn',
  3: 'border-line-strong text-fg-muted',
};

const chip = 'inline-flex h-[20px] items-center rounded border px-1.5 text-[11px] font-medium leading-none whitespace-nowrap [:lang(bo)_&]:h-auto [:lang(bo)_&]:py-0.5';

export function ConsultationStatusChip({ status, testId = 'consultation-status' }: { status: ConsultationStatus; testId?: string }) {
  const { t } = useTranslation();
  return <span data-testid={testId} data-status={status} className={`${chip} ${STATUS_TONE[status] ?? STATUS_TONE[0]}`}>{t(`consultations.status.${status}` as 'consultations.status.0')}</span>;
}

export function PaymentChip({ status }: { status: PaymentStatus }) {
  const { t } = useTranslation();
  return <span data-testid="consultation-payment" className={`${chip} ${PAYMENT_TONE[status] ?? PAYMENT_TONE[0]}`}>{t(`consultations.payment.${status}` as 'consultations.payment.0')}</span>;
}
