import { useParams } from 'wouter';
import { NotFoundPage } from '@/features/errors';
import { Workspace } from './workspace/Workspace';

/** Route /studies/:examId/reports/:reportId. Keyed by the report, so moving to the next case starts clean. */
export default function ReportWorkspacePage() {
  const params = useParams<{ examId: string; reportId: string }>();
  const examId = Number(params.examId);
  const reportId = Number(params.reportId);
  if (!Number.isSafeInteger(examId) || examId <= 0 || !Number.isSafeInteger(reportId) || reportId <= 0) return <NotFoundPage />;
  return <Workspace key={reportId} examId={examId} reportId={reportId} />;
}
