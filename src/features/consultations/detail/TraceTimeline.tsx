import { useTranslation } from 'react-i18next';
import { isConsultationStatus, PAYMENT_STATUSES, type ConsultationTrace } from '../../../../contract/consultations';
import { errorText } from '@/lib/errorText';
import { formatDateTime } from '@/lib/format';
import { Section } from '../../../ui/Section';

const clip = (text: string) => (text.length > 60 ? `${text.slice(0, 59)}…` : text);

/**
 * What a change set, in words: the new status or payment state, the scheduled time, the stars, a reason or a file or
 * case name. Ids and HTML (the result, suggestions) stay out: the sections above show the things themselves.
 */
function useSummary() {
  const { t } = useTranslation();
  return ({ action, after }: ConsultationTrace): string => {
    if (!after) return '';
    const parts: string[] = [];
    // Scheduling, writing the result, approving and cancelling name their new status already.
    if (isConsultationStatus(after.status) && !['schedule', 'result', 'approve', 'cancel'].includes(action)) parts.push(t(`consultations.status.${after.status}` as 'consultations.status.0'));
    if (typeof after.scheduledTime === 'string') parts.push(t('consultations.detail.log.scheduledFor', { time: formatDateTime(after.scheduledTime) }));
    if (typeof after.paymentStatus === 'number' && (PAYMENT_STATUSES as readonly number[]).includes(after.paymentStatus)) {
      parts.push(t(`consultations.payment.${after.paymentStatus}` as 'consultations.payment.0'));
    }
    if (typeof after.rating === 'number') parts.push('★'.repeat(Math.max(0, Math.min(5, after.rating))));
    for (const key of ['name', 'reason', 'comment'] as const) {
      const value = after[key];
      if (typeof value === 'string' && value.trim()) parts.push(clip(value.trim()));
    }
    return parts.join(' · ');
  };
}

/** Areas §3 "log": every change of the consultation, newest first, who and when (GET consultations/{id}/traces). */
export function TraceTimeline({ traces, error }: { traces: ConsultationTrace[] | null; error: unknown }) {
  const { t } = useTranslation();
  const summary = useSummary();
  const shown = traces ? [...traces].sort((a, b) => b.at.localeCompare(a.at) || b.id - a.id) : null;
  return (
    <Section title={t('consultations.detail.log.title')} count={traces?.length} testId="consultation-log">
      {error !== null && error !== undefined && <p className="text-[13px] text-danger">{errorText(t, error)}</p>}
      {shown?.length === 0 && <p className="py-1 text-[13px] text-fg-muted">{t('consultations.detail.log.none')}</p>}
      {shown && shown.length > 0 && (
        <ol className="relative ml-1.5 border-l border-line">
          {shown.map((trace) => (
            <li key={trace.id} className="relative pb-2 pl-3 text-[13px] last:pb-0" data-action={trace.action}>
              <span aria-hidden="true" className="absolute top-1.5 -left-[4.5px] size-2 rounded-full border border-accent bg-surface" />
              <p>
                <span className="font-medium">{t(`consultations.detail.log.actions.${trace.action}` as 'consultations.detail.log.actions.create', { defaultValue: trace.action })}</span>
                <span className="ml-2 text-fg-muted">{trace.actor?.name ?? t('consultations.detail.log.system')}</span>
              </p>
              <p className="text-[12px] text-fg-subtle">{[formatDateTime(trace.at, true), summary(trace)].filter(Boolean).join(' · ')}</p>
            </li>
          ))}
        </ol>
      )}
    </Section>
  );
}
