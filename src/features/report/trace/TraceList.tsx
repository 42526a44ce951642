import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TraceSummary } from '../../../../contract/reports';
import { errorText } from '@/lib/errorText';
import { Alert } from '@/ui/Alert';
import { Spinner } from '@/ui/Spinner';
import { reportApi } from '../api';
import { formatDateTime } from '@/lib/format';

interface Props {
  reportId: number;
  /** Changes whenever the report changed, so the list is asked again. */
  version?: number;
  /** Trace ids marked for comparison (at most two). */
  marked: readonly number[];
  onToggleMark: (traceId: number) => void;
  /** Opens one version's text. */
  onOpen: (trace: TraceSummary) => void;
  /** Compares a version with the one before it. */
  onCompareWithPrevious: (from: TraceSummary, to: TraceSummary) => void;
}

/** GET reports/{id}/report-trace: every operation on the report, newest first, one row each. */
export function useTraces(reportId: number, version?: number) {
  const [state, setState] = useState<{ items: TraceSummary[] | null; error: unknown }>({ items: null, error: null });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    reportApi.traces(reportId, { signal: controller.signal }).then(
      (page) => setState({ items: [...page.items].reverse(), error: null }),
      (error: unknown) => !controller.signal.aborted && setState({ items: null, error }),
    );
    return () => controller.abort();
  }, [reportId, version, attempt]);
  return { ...state, retry: () => setAttempt((n) => n + 1) };
}

/**
 * The report's history (core §2 exam detail "reports with trace and diff views"), reusable by the exam detail.
 * Each row: what was done, by whom, when, the status it moved between, and the reason given. Enter on a row
 * opens that version; its checkbox marks it for a side-by-side comparison of any two versions.
 */
export function TraceList({ reportId, version, marked, onToggleMark, onOpen, onCompareWithPrevious }: Props) {
  const { t } = useTranslation();
  const { items, error, retry } = useTraces(reportId, version);
  if (error) {
    return (
      <div className="flex flex-col gap-2">
        <Alert>{errorText(t, error)}</Alert>
        <button type="button" className="btn self-start" onClick={retry}>{t('common.retry')}</button>
      </div>
    );
  }
  if (!items) return <Spinner label={t('common.loading')} />;
  if (items.length === 0) return <p className="text-sm text-fg-muted">{t('report.trace.none')}</p>;
  return (
    <ol aria-label={t('report.trace.title')} className="flex flex-col divide-y divide-line">
      {items.map((trace, index) => {
        const previous = items[index + 1];
        const isMarked = marked.includes(trace.id);
        return (
          <li key={trace.id} data-trace={trace.id} className={`flex items-start gap-2 py-1.5 text-sm ${isMarked ? 'bg-accent-soft' : ''}`}>
            <input
              type="checkbox"
              className="mt-1"
              aria-label={t('report.trace.mark', { time: formatDateTime(trace.created) })}
              checked={isMarked}
              disabled={!isMarked && marked.length >= 2}
              onChange={() => onToggleMark(trace.id)}
            />
            <button type="button" className="min-w-0 flex-1 text-left" onClick={() => onOpen(trace)}>
              <span className="flex items-baseline justify-between gap-2">
                <span className="font-medium">{t(`report.trace.action.${trace.action}`, { defaultValue: trace.action })}</span>
                <span className="shrink-0 text-xs tabular-nums text-fg-muted">{formatDateTime(trace.created, true)}</span>
              </span>
              <span className="block text-xs text-fg-muted">
                {trace.account?.name ?? t('report.trace.system')}
                {trace.fromStatus !== trace.toStatus && trace.toStatus && (
                  <> · {trace.fromStatus ? `${t(`report.status.${trace.fromStatus}` as 'report.status.none', { defaultValue: trace.fromStatus })} → ` : ''}
                    {t(`report.status.${trace.toStatus}` as 'report.status.none', { defaultValue: trace.toStatus })}</>
                )}
              </span>
              {trace.reason && <span className="block whitespace-pre-wrap text-xs">{trace.reason}</span>}
            </button>
            {previous && (
              <button type="button" className="btn h-6 shrink-0 px-2 text-xs" onClick={() => onCompareWithPrevious(previous, trace)}
                aria-label={t('report.trace.compareWithPrevious', { time: formatDateTime(trace.created) })}>
                {t('report.trace.diffShort')}
              </button>
            )}
          </li>
        );
      })}
    </ol>
  );
}
