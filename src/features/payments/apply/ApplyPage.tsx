import { useTranslation } from 'react-i18next';
import { useParams, useSearch } from 'wouter';
import { errorText } from '@/lib/errorText';
import { isSessionEndingError } from '@/lib/http';
import { useLoad } from '@/lib/useLoad';
import { Spinner } from '@/ui/Spinner';
import { idFrom } from '../common/paths';
import { Problem } from '../common/Problem';
import { applyApi } from './api';
import { ApplyForm } from './ApplyForm';

/**
 * /{examId}/apply-report?type (areas §2): ask the group's expert organisations for a report on one exam (type expert),
 * or the group's default one for the remote report (type remote). The exam and what it may be sent to are read
 * first; the form picks, agrees and submits. (The `token` query of the spec's address is the session's business: the
 * route is guarded and the session carries the account.)
 */
export default function ApplyPage() {
  const { t } = useTranslation();
  const params = useParams<{ examId: string }>();
  const search = new URLSearchParams(useSearch());
  const type = search.get('type') === 'remote' ? 'remote' : 'expert';
  const examId = idFrom(params.examId);
  const exam = useLoad(examId === null ? null : `exam:${examId}`, (signal) => applyApi.exam(examId!, { signal }));
  const products = useLoad(examId === null ? null : `products:${examId}:${type}`, (signal) => applyApi.products(examId!, type, { signal }));

  if (examId === null) return <Problem text={t('payments.apply.noExam')} />;
  const failed = [exam.error, products.error].find((e) => e && !isSessionEndingError(e));
  if (failed) return <Problem text={errorText(t, failed)} onRetry={() => { exam.reload(); products.reload(); }} />;
  if (!exam.data || !products.data) {
    return <div className="flex flex-1 items-center justify-center py-16"><Spinner label={t('common.loading')} /></div>;
  }
  return <ApplyForm key={`${examId}:${type}`} exam={exam.data.exam} products={products.data} type={type} />;
}
