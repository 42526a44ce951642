import type { TFunction } from 'i18next';
import type { ReportStatus } from '../../../contract/reports';
import { StatusBadge as Badge } from '@/ui/StatusBadge';
import { isReported, type ExamRow } from './types';
import { formatWait, waitLevel, waitLimitMs } from './waiting';

/** The report status badge of the grid and the exam drawer, with the worklist's own labels. */
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

const WAIT_TONE = { ok: 'text-fg-muted', due: 'text-warn font-medium', overdue: 'text-danger font-semibold' } as const;

/** Time since the exam, for exams still waiting for a final report; reported ones show a dash. */
export function WaitCell({ exam, now }: { exam: ExamRow; now: number }) {
  if (isReported(exam) || exam.deletedTime) return <span className="text-fg-subtle">—</span>;
  const waited = now - Date.parse(exam.examTime);
  const level = waitLevel(waited, waitLimitMs(exam));
  return <span className={`tabular-nums ${WAIT_TONE[level]}`} data-wait={level}>{formatWait(waited)}</span>;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** "11-23 08:05" this year, "2025-11-23" before: the list is about recent work. */
export function formatExamTime(iso: string, now: number): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  if (d.getFullYear() !== new Date(now).getFullYear()) return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  return `${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export function sexAge(exam: ExamRow, t: TFunction): string {
  const sex = t(`worklist.gender.${exam.patientGender}`, { defaultValue: '' });
  const age = exam.visitAge ? exam.visitAge.replace(/^0+(?=\d)/, '') : '';
  const unit = age.match(/[YMWD]$/)?.[0] as 'Y' | 'M' | 'W' | 'D' | undefined;
  const shownAge = unit ? `${age.slice(0, -1)}${t(`worklist.ageUnit.${unit}`)}` : age;
  return [sex, shownAge].filter(Boolean).join(' ');
}
