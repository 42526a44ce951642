import type { TFunction } from 'i18next';
import type { ExamListItem } from '../../contract/exams';
import type { ReportStatus } from '../../contract/reports';
import { StatusBadge as Badge } from './StatusBadge';

/**
 * The small pieces an exam is drawn with wherever it is listed: the worklist's grid and the exam drawer. Labels
 * are the worklist's (`worklist.status`, `worklist.source`, `worklist.gender`, `worklist.ageUnit`).
 */

/** The report status badge with the worklist's own labels. */
export function StatusBadge({ status, t }: { status: ReportStatus | null; t: TFunction }) {
  return <Badge status={status} label={t(`worklist.status.${status ?? 'none'}`)} />;
}

const SOURCE_TONE: Record<string, string> = {
  E: 'text-danger font-semibold',
  I: 'text-fg',
  O: 'text-fg-muted',
  P: 'text-fg-muted',
  NO: 'text-warn',
};

export function SourceCell({ source, t }: { source: string | null; t: TFunction }) {
  if (!source) return <span className="text-fg-subtle">—</span>;
  return <span className={SOURCE_TONE[source] ?? 'text-fg-muted'}>{t(`worklist.source.${source}`, { defaultValue: source })}</span>;
}

export function UrgentMark({ urgent, t }: { urgent: boolean; t: TFunction }) {
  if (!urgent) return null;
  return (
    <span title={t('worklist.columns.urgent')} className="inline-flex h-[18px] min-w-[18px] items-center justify-center rounded bg-danger px-0.5 text-[11px] font-bold leading-none whitespace-nowrap text-bg">
      {t('worklist.urgentMark')}
    </span>
  );
}

export function sexAge(exam: Pick<ExamListItem, 'patientGender' | 'visitAge'>, t: TFunction): string {
  const sex = t(`worklist.gender.${exam.patientGender}`, { defaultValue: '' });
  const age = exam.visitAge ? exam.visitAge.replace(/^0+(?=\d)/, '') : '';
  const unit = age.match(/[YMWD]$/)?.[0] as 'Y' | 'M' | 'W' | 'D' | undefined;
  const shownAge = unit ? `${age.slice(0, -1)}${t(`worklist.ageUnit.${unit}`)}` : age;
  return [sex, shownAge].filter(Boolean).join(' ');
}
