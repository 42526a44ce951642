import { useTranslation } from 'react-i18next';
import type { ReportStatus } from '../../../../contract/reports';

/** Quiet colours: only states that ask for attention (rejected, recalled, being edited) stand out. */
const TONE: Record<ReportStatus, string> = {
  none: 'border-line text-fg-muted',
  partial: 'border-line-strong text-fg',
  locked: 'border-warn/50 bg-warn-soft text-warn',
  final: 'border-accent/40 bg-accent-soft text-fg',
  advised: 'border-accent/40 bg-accent-soft text-fg',
  corrected: 'border-ok/40 bg-ok-soft text-ok',
  printed: 'border-ok/40 bg-ok-soft text-ok',
  hold: 'border-danger/40 bg-danger-soft text-danger',
  cancelled: 'border-danger/40 bg-danger-soft text-danger',
};

export function StatusChip({ status }: { status: ReportStatus }) {
  const { t } = useTranslation();
  return (
    <span data-status={status} className={`inline-flex min-h-6 shrink-0 items-center rounded-full border px-2.5 py-0.5 text-xs leading-tight font-medium ${TONE[status]}`}>
      {t(`report.status.${status}`)}
    </span>
  );
}
