import { useTranslation } from 'react-i18next';
import type { SharedExamHeader, SharedReportContent, SharedReportState } from '../../../contract/shares';
import { ReportHtml } from '@/features/report';
import { patientNameText } from '@/lib/format';

const GENDER_KEYS = ['M', 'F', 'O', 'U'] as const;

/** Date and time as the reader's language writes them. */
function when(iso: string | null, language: string): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleString(language === 'en' ? 'en-GB' : 'zh-CN', { dateStyle: 'medium', timeStyle: 'short' });
}

/** The patient and exam as the link shows them: names and facts, never internal ids. */
export function ExamHeaderCard({ exam, compact = false }: { exam: SharedExamHeader; compact?: boolean }) {
  const { t, i18n } = useTranslation();
  const rows: [string, string | null][] = [
    [t('share.exam.gender'), exam.patientGender ? t(`share.gender.${GENDER_KEYS.find((g) => g === exam.patientGender) ?? 'U'}`) : null],
    [t('share.exam.age'), exam.visitAge],
    [t('share.exam.modality'), exam.modality],
    [t('share.exam.bodyPart'), exam.bodyPart],
    [t('share.exam.description'), exam.studyDescription],
    [t('share.exam.time'), when(exam.examTime, i18n.language)],
    [t('share.exam.organisation'), exam.organisation],
  ];
  return (
    <section aria-label={t('share.exam.title')} className="rounded-lg border border-line bg-surface px-4 py-3">
      <p data-testid="share-patient" className="text-base font-semibold">{patientNameText(exam.patientName)}</p>
      <dl className={`mt-1.5 grid grid-cols-2 gap-x-6 gap-y-1 text-sm ${compact ? '' : 'sm:grid-cols-4'}`}>
        {rows.filter(([, v]) => v).map(([label, value]) => (
          <div key={label} className="min-w-0">
            <dt className="text-xs text-fg-subtle">{label}</dt>
            <dd className="truncate" title={value ?? undefined}>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** What the reader must know before reading: not final yet, withdrawn, or changed since the link was made. */
export function StateBanner({ state, changed }: { state: SharedReportState; changed: boolean }) {
  const { t } = useTranslation();
  if (state === 'final' && !changed) return null;
  const tone = state === 'recalled' ? 'border-danger/40 bg-danger-soft text-danger' : 'border-warn/40 bg-warn-soft text-warn';
  const text = state === 'recalled' ? t('share.state.recalled') : state === 'pending' ? t('share.state.pending') : t('share.state.changed');
  return <div role="alert" data-testid="share-banner" data-state={state} className={`rounded-lg border px-4 py-2.5 text-sm font-medium ${tone}`}>{text}</div>;
}

/** Findings, conclusion and approval, rendered through the report allowlist (DOMPurify) like every report view. */
export function ReportBody({ report }: { report: SharedReportContent }) {
  const { t, i18n } = useTranslation();
  return (
    <article className="rounded-lg border border-line bg-surface px-5 py-4">
      <h2 className="mb-1 text-sm font-semibold text-fg-muted">{t('share.report.finding')}</h2>
      <ReportHtml html={report.finding} className="mb-4 text-sm" />
      <h2 className="mb-1 text-sm font-semibold text-fg-muted">{t('share.report.diagnosis')}</h2>
      <ReportHtml html={report.diagnosis} className="mb-4 text-sm" />
      <p className="border-t border-line pt-2 text-xs text-fg-muted">
        {report.approvedTime ? t('share.report.approved', { time: when(report.approvedTime, i18n.language) }) : ''}
        {report.issuer ? ` · ${t('share.report.issuer', { name: report.issuer })}` : ''}
      </p>
    </article>
  );
}
