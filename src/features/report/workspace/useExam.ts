import { useEffect, useState } from 'react';
import type { ExamDetail } from '../../../../contract/exams';
import { examApi } from '../api';

/** The exam shown in the header (GET exams/{id}/detail), loaded beside the report. */
export function useExam(examId: number, reportId: number | null) {
  const [state, setState] = useState<{ detail: ExamDetail | null; error: unknown; asked: number | null }>({ detail: null, error: null, asked: null });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    examApi.detail(examId, reportId, { signal: controller.signal }).then(
      (detail) => setState({ detail, error: null, asked: reportId }),
      (error: unknown) => !controller.signal.aborted && setState({ detail: null, error, asked: reportId }),
    );
    return () => controller.abort();
  }, [examId, reportId, attempt]);
  // An error of an earlier question (with a report id that turned out deleted) is not this one's.
  return { detail: state.detail, error: state.asked === reportId ? state.error : null, retry: () => setAttempt((n) => n + 1) };
}
