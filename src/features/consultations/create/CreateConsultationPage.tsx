import { useTranslation } from 'react-i18next';
import { useSearch } from 'wouter';
import { errorText } from '@/lib/errorText';
import { isSessionEndingError } from '@/lib/http';
import { useLoad } from '@/lib/useLoad';
import { LoadError } from '@/ui/LoadState';
import { Spinner } from '@/ui/Spinner';
import { consultationApi } from '../api';
import { idFrom } from '../paths';
import { ConsultationForm } from './ConsultationForm';

/**
 * /consultations/add?examId&reportId (areas §2): a consultation asked from an exam (and its report). The exam,
 * the report and where it may go are read first; the form shows them and sends POST consultations.
 */
export default function CreateConsultationPage() {
  const { t } = useTranslation();
  const search = new URLSearchParams(useSearch());
  const examId = idFrom(search.get('examId'));
  const reportId = idFrom(search.get('reportId'));
  const exam = useLoad(examId === null ? null : `exam:${examId}:${reportId}`, (signal) => consultationApi.exam(examId!, reportId, { signal }));
  const report = useLoad(reportId === null ? null : `report:${reportId}`, (signal) => consultationApi.report(reportId!, { signal }));
  const targets = useLoad(examId === null ? null : `targets:${examId}`, (signal) => consultationApi.targets(examId!, { signal }));

  if (examId === null) return <Problem text={t('consultations.create.noExam')} />;
  const failed = [exam.error, report.error, targets.error].find((e) => e && !isSessionEndingError(e));
  if (failed) return <Problem text={errorText(t, failed)} onRetry={() => { exam.reload(); report.reload(); targets.reload(); }} />;
  if (!exam.data || !targets.data || (reportId !== null && !report.data)) {
    return <div className="flex flex-1 items-center justify-center py-16"><Spinner label={t('common.loading')} /></div>;
  }
  return <ConsultationForm exam={exam.data.exam} report={report.data} reportId={reportId} targets={targets.data} />;
}

function Problem({ text, onRetry }: { text: string; onRetry?: () => void }) {
  return <LoadError text={text} onRetry={onRetry} className="mx-auto mt-12 flex w-full max-w-md flex-col gap-3 px-4" testId="consultation-create-problem" />;
}
