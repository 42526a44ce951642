import { useTranslation } from 'react-i18next';
import { useSearch } from 'wouter';
import type { PatientReports } from '../../../contract/shares';
import { errorText } from '@/lib/errorText';
import { http, isHttpError } from '@/lib/http';
import { Alert } from '@/ui/Alert';
import { Spinner } from '@/ui/Spinner';
import { PublicFrame } from '@/ui/PublicFrame';
import { ReportList } from './ReportList';
import { usePublicCall } from './usePublicCall';

/** /web-report?patientId&serviceRequestId: the patient's approved reports (yyp/report-view, 30 s timeout). */
export default function WebReportPage() {
  const { t } = useTranslation();
  const query = new URLSearchParams(useSearch());
  const patientId = query.get('patientId');
  const serviceRequestId = query.get('serviceRequestId');
  const key = patientId && serviceRequestId ? `${patientId}\u0000${serviceRequestId}` : null;
  const { data, error, loading } = usePublicCall(key, (signal) => http.get<PatientReports>('yyp/report-view', { query: { patientId, serviceRequestId }, signal }));
  return (
    <PublicFrame title={t('share.list.title')}>
      {!key ? <Alert>{t('share.badLink')}</Alert>
        : loading ? <Spinner label={t('common.loading')} />
          : error ? <Alert>{isHttpError(error) && error.status === 404 ? t('share.list.notFound') : errorText(t, error)}</Alert>
            : data && <ReportList items={data.items} />}
    </PublicFrame>
  );
}
