import { useTranslation } from 'react-i18next';
import type { ReportOrderDetail } from '../../../../contract/payments';
import { ReportHtml } from '@/features/report';
import { formatDateTime } from '@/lib/format';
import { ProgressBadge, WaitingNote } from '../common/badges';
import { yuan } from '../common/money';
import { Section } from '../../../ui/Section';

/** The expert organisations asked, each with its price and how far its report is. */
export function TargetList({ detail }: { detail: ReportOrderDetail }) {
  const { t } = useTranslation();
  return (
    <Section title={t('payments.order.targets')} testId="order-targets">
      <ul className="flex flex-col divide-y divide-line text-[13px]">
        {detail.targets.map((target) => (
          <li key={target.bucketId} className="py-1.5">
            <div className="flex items-center gap-3">
              <span className="min-w-0 flex-1 truncate font-medium">{target.bucketName}</span>
              <span className="tabular-nums text-fg-muted">{target.free ? t('payments.common.free') : yuan(t, target.priceFen)}</span>
              <ProgressBadge progress={target.progress} />
            </div>
            <WaitingNote waiting={target.waiting} />
          </li>
        ))}
      </ul>
    </Section>
  );
}

/**
 * The experts' reports, once approved (the server sends them then, sanitised again here as every report view does).
 * Shown only after paying: before it, there is nothing to wait for.
 */
export function ExpertReports({ detail }: { detail: ReportOrderDetail }) {
  const { t } = useTranslation();
  if (detail.paymentStatus !== 1) return null;
  const written = detail.targets.filter((target) => target.report !== null);
  return (
    <Section title={t('payments.order.reports')} testId="order-reports">
      {written.length === 0 ? (
        <p className="text-[13px] text-fg-subtle">{t('payments.order.reportWaiting')}</p>
      ) : (
        <div className="flex flex-col gap-4">
          {written.map((target) => target.report && (
            <article key={target.bucketId} className="flex flex-col gap-2" data-testid="expert-report">
              <header className="flex flex-wrap items-baseline gap-2 text-[13px]">
                <h3 className="font-semibold">{target.bucketName}</h3>
                {target.report.approvedAt && (
                  <span className="text-xs text-fg-muted">
                    {t('payments.order.approvedBy', { name: target.report.approverName ?? '', time: formatDateTime(target.report.approvedAt) })}
                  </span>
                )}
              </header>
              <div className="grid gap-3 md:grid-cols-2">
                <div>
                  <h4 className="mb-1 text-xs font-medium text-fg-muted">{t('payments.order.findings')}</h4>
                  <div className="text-[13px]"><ReportHtml html={target.report.findings} /></div>
                </div>
                <div>
                  <h4 className="mb-1 text-xs font-medium text-fg-muted">{t('payments.order.conclusion')}</h4>
                  <div className="text-[13px]"><ReportHtml html={target.report.conclusion} /></div>
                </div>
              </div>
            </article>
          ))}
        </div>
      )}
    </Section>
  );
}
