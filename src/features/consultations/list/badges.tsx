import { useTranslation } from 'react-i18next';
import type { ConsultationStatus, PaymentStatus } from '../../../../contract/consultations';

const badge = 'inline-flex h-[18px] items-center rounded border px-1.5 text-[11px] font-medium leading-none whitespace-nowrap [:lang(bo)_&]:h-auto [:lang(bo)_&]:py-0.5';

/** Areas §4 statuses: waiting quiet, scheduled accent, awaiting approval warm, completed green, canceled red. */
const STATUS_TONE: Record<ConsultationStatus, string> = {
  0: 'border-line-strong text-fg-muted',
  1: 'border-accent/40 bg-accent-soft text-fg',
  2: 'border-warn/50 bg-warn-soft text-warn',
  3: 'border-ok/40 bg-ok-soft text-ok',
  4: 'border-danger/40 text-danger line-through decoration-1',
};

export function ConsultationStatusBadge({ status }: { status: ConsultationStatus }) {
  const { t } = useTranslation();
  return <span data-status={status} className={`${badge} ${STATUS_TONE[status] ?? STATUS_TONE[0]}`}>{t(`consultations.status.${status}`)}</span>;
}

const PAYMENT_TONE: Record<PaymentStatus, string> = {
  0: 'text-fg-muted',
  1: 'text-ok',
  2: 'text-warn',
  3: 'text-fg-subtle',
};

export function PaymentStatusText({ status }: { status: PaymentStatus | undefined }) {
  const { t } = useTranslation();
  if (status === undefined) return <span className="text-fg-subtle">—</span>;
  return <span data-payment={status} className={`text-xs ${PAYMENT_TONE[status] ?? ''}`}>{t(`consultations.payment.${status}`)}</span>;
}
