import { isReported, type ExamRow } from './types';
import { formatWait, waitLevel, waitLimitMs } from './waiting';


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
