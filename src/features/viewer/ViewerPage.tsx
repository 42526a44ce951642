import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearch } from 'wouter';
import type { ReportView } from '../../../contract/reports';
import { KEY_IMAGES_MAX } from '../../../contract/constants';
import { Guard } from '@/lib/session/Guard';
import { PublicFrame } from '@/ui/PublicFrame';
import { http } from '@/lib/http';
import { captureToReport } from './capture';
import { KeyImages } from './KeyImages';
import { useKeyImages } from './keyImages';
import { StudyViewer } from './StudyViewer';

/**
 * /viewer/{examId}: the images on a page of their own. `?token=` is the view link of viewers/{id}/path
 * or share-path (no sign-in needed); without it the signed-in user's session reads them. `?reportId=`
 * adds that report's key images beside the viewer and sends captures there.
 */
export default function ViewerPage() {
  const { t } = useTranslation();
  const params = useParams<{ examId: string }>();
  const query = new URLSearchParams(useSearch());
  const examId = Number(params.examId);
  const token = query.get('token');
  const reportId = Number(query.get('reportId')) || null;
  if (!Number.isInteger(examId) || examId <= 0) return <PublicFrame title={t('viewer.title')}><p className="text-sm text-fg-muted">{t('viewer.badLink')}</p></PublicFrame>;
  const body = (
    <PublicFrame title={t('viewer.title')} wide>
      <div className="flex min-h-0 flex-1 gap-2 p-2" style={{ height: 'calc(100vh - 2.75rem)' }}>
        {reportId && !token ? <WithReport examId={examId} reportId={reportId} /> : <StudyViewer examId={examId} access={token ? { seriesPath: `exams/${examId}/series`, token } : undefined} className="flex-1" />}
      </div>
    </PublicFrame>
  );
  return token ? body : <Guard>{body}</Guard>;
}

function WithReport({ examId, reportId }: { examId: number; reportId: number }) {
  const { t } = useTranslation();
  const [report, setReport] = useState<ReportView | null>(null);
  const { items } = useKeyImages(reportId);
  useEffect(() => {
    const controller = new AbortController();
    http.get<ReportView>(`reports/${reportId}/detail`, { signal: controller.signal }).then(setReport, () => undefined);
    return () => controller.abort();
  }, [reportId]);
  // Core §4: editable when save, submit or approve is allowed; the server checks again on upload.
  const editable = Boolean(report?.transitions.some((a) => a === 'save' || a === 'submit' || a === 'approve'));
  const blocked = !report ? t('common.loading') : !editable ? t('viewer.capture.notEditable') : items.length >= KEY_IMAGES_MAX ? t('errors.TooManyImages') : null;
  return (
    <>
      <StudyViewer examId={examId} onCapture={captureToReport(reportId)} captureBlocked={blocked} className="flex-1" />
      <aside className="w-64 shrink-0 overflow-y-auto rounded-md border border-line bg-surface p-2.5">
        <KeyImages reportId={reportId} editable={editable} />
      </aside>
    </>
  );
}
