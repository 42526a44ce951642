import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ExamListItem } from '../../../../contract/exams';
import type { ReportView } from '../../../../contract/reports';
import { formatDateTime, patientNameText } from '@/lib/format';
import { StatusChip } from './StatusChip';

/** The id that goes with a patient source (core §3): inpatient number and bed, outpatient or physical-exam number. */
export function sourceIds(exam: Pick<ExamListItem, 'patientSource' | 'inpatientId' | 'bedNum' | 'outpatientId' | 'physicalExamId'>): string {
  switch (exam.patientSource) {
    case 'I': return [exam.inpatientId, exam.bedNum ? `${exam.bedNum}` : null].filter(Boolean).join(' · ');
    case 'O': case 'NO': return exam.outpatientId ?? '';
    case 'P': return exam.physicalExamId ?? '';
    default: return '';
  }
}

/** Who should write this report (core §3 assignee), beside its status; nothing when nobody is assigned. */
export function AssigneeChip({ report }: { report: ReportView | null }) {
  const { t } = useTranslation();
  if (!report?.assignee) return null;
  return (
    <span data-assignee={report.assignee.id} title={t('report.assign.current', { name: report.assignee.name })}
      className="inline-flex min-h-6 max-w-48 shrink-0 items-center gap-1 rounded-full border border-line px-2.5 py-0.5 text-xs leading-tight text-fg-muted">
      <span className="shrink-0">{t('report.assign.chip')}</span>
      <span className="truncate font-medium text-fg">{report.assignee.name}</span>
    </span>
  );
}

function Item({ label, children, className = '' }: { label: string; children: ReactNode; className?: string }) {
  return (
    <div className={`flex min-w-0 items-baseline gap-1.5 ${className}`}>
      <dt className="shrink-0 text-xs text-fg-subtle">{label}</dt>
      <dd className="min-w-0 truncate">{children}</dd>
    </div>
  );
}

/**
 * Who and what is being reported, in two dense lines: the patient and the exam first (what a radiologist checks
 * before writing a word), then the clinical question. An urgent exam says so before anything else.
 */
export function ExamHeader({ exam, report, actions }: { exam: ExamListItem | null; report: ReportView | null; actions?: ReactNode }) {
  const { t } = useTranslation();
  if (!exam) {
    return (
      <header data-testid="exam-header" className="flex h-[3.75rem] items-center justify-between border-b border-line bg-surface px-4">
        <span className="text-sm text-fg-muted">{t('report.exam.loading')}</span>
        <span className="flex items-center gap-2">
          <AssigneeChip report={report} />
          {report && <StatusChip status={report.status} />}
        </span>
      </header>
    );
  }
  const ids = sourceIds(exam);
  return (
    <header aria-label={t('report.exam.label')} data-testid="exam-header" className="border-b border-line bg-surface px-4 py-2">
      <div className="flex items-center gap-x-4">
        {exam.urgentFlag && (
          <span className="shrink-0 rounded-sm bg-danger px-1.5 text-xs font-semibold leading-5 text-surface">{t('report.exam.urgent')}</span>
        )}
        <h1 className="shrink-0 text-base font-semibold">{patientNameText(exam.patientName)}</h1>
        <dl className="flex min-w-0 flex-1 items-baseline gap-x-4 text-sm">
          <Item label={t('report.exam.sexAge')}>
            {[t(`report.exam.gender.${exam.patientGender}`, { defaultValue: exam.patientGender }), exam.visitAge].filter(Boolean).join(' · ')}
          </Item>
          <Item label={t('report.exam.patientId')}>{exam.patientId}</Item>
          {exam.patientSource && (
            <Item label={t(`report.exam.source.${exam.patientSource}`, { defaultValue: exam.patientSource })}>{ids || '—'}</Item>
          )}
          <Item label={t('report.exam.modality')}>
            <span className="font-medium">{exam.modality}</span>
            {exam.bodyPart ? ` · ${exam.bodyPart}` : ''}
          </Item>
          <Item label={t('report.exam.time')}><span className="tabular-nums">{formatDateTime(exam.examTime)}</span></Item>
          <Item label={t('report.exam.organisation')} className="hidden xl:flex">{exam.bucketName}</Item>
        </dl>
        <AssigneeChip report={report} />
        {report && <StatusChip status={report.status} />}
      </div>
      <div className="mt-1 flex min-w-0 items-center gap-x-4">
        <dl className="flex min-w-0 flex-1 items-baseline gap-x-4 text-sm">
          <Item label={t('report.exam.clinicImpression')} className="flex-1">{exam.clinicImpression || '—'}</Item>
          {exam.accessionNumber && <Item label={t('report.exam.accession')}>{exam.accessionNumber}</Item>}
          {exam.applyDept && <Item label={t('report.exam.applyDept')}>{exam.applyDept}</Item>}
          <Item label={t('report.exam.organisation')} className="xl:hidden">{exam.bucketName}</Item>
        </dl>
        {/* Other features' actions on this exam (the consultation request), filled in by the app. */}
        {actions}
      </div>
    </header>
  );
}
