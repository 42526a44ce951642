import { useTranslation } from 'react-i18next';
import { useSearch } from 'wouter';
import type { SharedReport } from '../../../contract/shares';
import { errorText } from '@/lib/errorText';
import { http, isHttpError } from '@/lib/http';
import { Alert } from '@/ui/Alert';
import { Spinner } from '@/ui/Spinner';
import { PublicFrame } from '@/ui/PublicFrame';
import { ExamHeaderCard, ReportBody, StateBanner } from './ReportCard';
import { usePublicCall } from './usePublicCall';

/** /reports/s?link: a shared report, exactly what the link grants, as approved now. */
export default function SharedReportPage() {
  const { t } = useTranslation();
  const link = new URLSearchParams(useSearch()).get('link');
  const { data, error, loading } = usePublicCall(link, (signal) => http.get<SharedReport>('share/report', { query: { link }, signal }));
  return (
    <PublicFrame title={t('share.report.title')}>
      <div className="flex flex-col gap-3">
        {!link ? <Alert>{t('share.badLink')}</Alert>
          : loading ? <Spinner label={t('common.loading')} />
            : error ? <Alert>{isHttpError(error) && error.status === 404 ? t('share.unknownLink') : errorText(t, error)}</Alert>
              : data && (
                <>
                  <StateBanner state={data.state} changed={data.changedSinceShared} />
                  <ExamHeaderCard exam={data.exam} />
                  {data.report && <ReportBody report={data.report} />}
                  <p className="text-xs text-fg-subtle">{t('share.expires', { time: new Date(data.expires * 1000).toLocaleDateString() })}</p>
                </>
              )}
      </div>
    </PublicFrame>
  );
}
