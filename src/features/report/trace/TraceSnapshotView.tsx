import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TraceView } from '../../../../contract/reports';
import { errorText } from '@/lib/errorText';
import { Alert } from '@/ui/Alert';
import { Spinner } from '@/ui/Spinner';
import { reportApi } from '../api';
import { ReportHtml } from '../editor/ReportHtml';

/** GET reports/{id}/traces/{traceId}: the report's text as it stood after one operation, cleaned on render. */
export function TraceSnapshotView({ reportId, traceId }: { reportId: number; traceId: number }) {
  const { t } = useTranslation();
  const key = `${reportId}:${traceId}`;
  const [state, setState] = useState<{ key: string; trace: TraceView | null; error: unknown }>({ key: '', trace: null, error: null });
  useEffect(() => {
    const controller = new AbortController();
    reportApi.trace(reportId, traceId, { signal: controller.signal }).then(
      (trace) => setState({ key, trace, error: null }),
      (error: unknown) => !controller.signal.aborted && setState({ key, trace: null, error }),
    );
    return () => controller.abort();
  }, [reportId, traceId, key]);

  const current = state.key === key ? state : { trace: null, error: null };
  if (current.error) return <Alert>{errorText(t, current.error)}</Alert>;
  if (!current.trace) return <Spinner label={t('common.loading')} />;
  const { snapshot } = current.trace;
  const positive = snapshot.positive === null ? 'unset' : snapshot.positive ? 'positive' : 'negative';
  return (
    <div className="flex flex-col gap-3 text-sm" data-snapshot={traceId}>
      <section>
        <h4 className="mb-1 text-[13px] font-medium text-fg-muted">{t('report.fields.finding')}</h4>
        <ReportHtml html={snapshot.finding} className="rounded-md border border-line bg-surface p-2" />
      </section>
      <section>
        <h4 className="mb-1 text-[13px] font-medium text-fg-muted">{t('report.fields.diagnosis')}</h4>
        <ReportHtml html={snapshot.diagnosis} className="rounded-md border border-line bg-surface p-2" />
      </section>
      <dl className="grid grid-cols-[8rem_1fr] gap-x-3 gap-y-1">
        <dt className="text-fg-muted">{t('report.fields.positive')}</dt><dd>{t(`report.fields.positiveValue.${positive}`)}</dd>
        <dt className="text-fg-muted">{t('report.fields.bodypartCount')}</dt><dd>{snapshot.bodypartCount}</dd>
        <dt className="text-fg-muted">{t('report.fields.criticalValue')}</dt><dd className="whitespace-pre-wrap">{snapshot.criticalValue || '—'}</dd>
        <dt className="text-fg-muted">{t('report.fields.note')}</dt><dd className="whitespace-pre-wrap">{snapshot.note || '—'}</dd>
      </dl>
    </div>
  );
}
