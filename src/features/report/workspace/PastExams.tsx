import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ExamListItem } from '../../../../contract/exams';
import { PAST_EXAMS_MAX } from '../../../../contract/constants';
import { errorText } from '@/lib/errorText';
import { Alert } from '@/ui/Alert';
import { Spinner } from '@/ui/Spinner';
import { examApi } from '../api';
import { formatDate } from '@/lib/format';
import { StatusChip } from './StatusChip';

/**
 * Core §2: the patient's other exams, latest 15. Enter on one opens its report in the workspace (read-only
 * unless the server offers more), so a radiologist compares with last year's conclusion without the mouse.
 */
export function PastExams({ examId, reportVersion, onOpen }: { examId: number; reportVersion: number; onOpen: (exam: ExamListItem) => void }) {
  const { t } = useTranslation();
  const [state, setState] = useState<{ items: ExamListItem[] | null; error: unknown }>({ items: null, error: null });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    examApi.past(examId, { signal: controller.signal }).then(
      (page) => setState({ items: page.items.slice(0, PAST_EXAMS_MAX), error: null }),
      (error: unknown) => !controller.signal.aborted && setState({ items: null, error }),
    );
    return () => controller.abort();
  }, [examId, attempt, reportVersion]);

  if (state.error) {
    return (
      <div className="flex flex-col gap-2">
        <Alert>{errorText(t, state.error)}</Alert>
        <button type="button" className="btn self-start" onClick={() => setAttempt((n) => n + 1)}>{t('common.retry')}</button>
      </div>
    );
  }
  if (!state.items) return <Spinner label={t('common.loading')} />;
  if (state.items.length === 0) return <p className="text-sm text-fg-muted">{t('report.past.none')}</p>;
  return (
    <ul aria-label={t('report.past.title')} className="flex flex-col divide-y divide-line">
      {state.items.map((exam) => (
        <li key={exam.id}>
          <button
            type="button"
            className="grid w-full grid-cols-[5.5rem_2.5rem_minmax(0,1fr)_auto] items-center gap-2 py-1.5 text-left text-sm hover:bg-sunken"
            onClick={() => onOpen(exam)}
          >
            <span className="tabular-nums text-fg-muted">{formatDate(exam.examTime)}</span>
            <span className="font-medium">{exam.modality}</span>
            <span className="truncate">{exam.bodyPart || exam.studyDescription || '—'}</span>
            <StatusChip status={exam.reportStatus} />
          </button>
        </li>
      ))}
    </ul>
  );
}
