import { useTranslation } from 'react-i18next';
import { codeText } from '../codeText';
import { progressOf, type StudyUpload, type UploadItem } from '../../../../machines/upload';
import { formatBytes } from '@/lib/format';
import { percent } from '../format';
import { ProgressBar } from '../ProgressBar';

interface UploadStepProps {
  items: UploadItem[];
  studies: StudyUpload[];
  names: Record<string, string>;
  settled: boolean;
  canRetry: boolean;
  canFinish: boolean;
  completing: boolean;
  completeError: string | null;
  onRetry: (id: string) => void;
  onRetryAll: () => void;
  onFinish: () => void;
}

/** Step 3: overall and per-file progress; a failed file can be sent again alone. */
export function UploadStep({ items, studies, names, settled, canRetry, canFinish, completing, completeError, onRetry, onRetryAll, onFinish }: UploadStepProps) {
  const { t } = useTranslation();
  const progress = progressOf(items);
  const onServer = progress.counts.stored + progress.counts.duplicate + progress.counts.present;
  const failedStudies = studies.filter((s) => s.status === 'failed');
  return (
    <div className="flex flex-col gap-4">
      <section className="rounded-lg border border-line bg-surface px-4 py-3">
        <div className="mb-2 flex items-baseline justify-between text-sm">
          <span data-testid="upload-overall">{t('upload.progress.overall', { done: onServer, total: items.length })}</span>
          <span className="tabular-nums text-fg-muted">{formatBytes(progress.doneBytes)} / {formatBytes(progress.totalBytes)} · {percent(progress.fraction)}</span>
        </div>
        <ProgressBar value={progress.fraction} label={t('upload.progress.label')} tone={settled && progress.counts.failed === 0 ? 'ok' : 'accent'} />
        <p aria-live="polite" className="mt-2 min-h-5 text-xs text-fg-muted">
          {completing ? t('upload.progress.completing') : settled ? (progress.counts.failed > 0 ? t('upload.progress.someFailed', { count: progress.counts.failed }) : '') : t('upload.progress.keepOpen')}
        </p>
        {failedStudies.map((s) => (
          <p key={s.studyUid} role="alert" className="text-xs text-danger">{t('upload.progress.sessionFailed', { name: names[s.studyUid] ?? s.studyUid, reason: codeText(t, s.error) })}</p>
        ))}
        {completeError && <p role="alert" className="text-xs text-danger">{t('upload.progress.completeFailed', { reason: codeText(t, completeError) })}</p>}
      </section>
      <ul className="max-h-[50vh] divide-y divide-line overflow-y-auto rounded-lg border border-line bg-surface text-sm">
        {items.map((item) => (
          <li key={item.id} data-testid="upload-file" data-status={item.status} className="grid grid-cols-[minmax(0,1fr)_5rem_9rem_6rem] items-center gap-3 px-4 py-1.5">
            <span className="truncate" title={names[item.id]}>{names[item.id]}</span>
            <span className="text-right text-xs tabular-nums text-fg-subtle">{formatBytes(item.size)}</span>
            <span className="text-xs">
              {item.status === 'failed' ? (
                <span className="text-danger" title={item.error?.code}>{codeText(t, item.error?.code)}</span>
              ) : item.status === 'sending' || item.status === 'waiting' ? (
                <ProgressBar value={item.size ? item.sent / item.size : 0} label={names[item.id] ?? ''} />
              ) : (
                <span className="text-ok">{t(`upload.status.${item.status}`)}</span>
              )}
            </span>
            <span className="text-right text-xs">
              {item.status === 'failed' ? (
                <button type="button" className="link" onClick={() => onRetry(item.id)}>{t('upload.progress.retry')}</button>
              ) : item.status === 'waiting' && item.attempts > 0 ? (
                <span className="text-warn">{t('upload.status.retrying', { attempt: item.attempts + 1 })}</span>
              ) : item.status === 'waiting' ? (
                <span className="text-fg-subtle">{t('upload.status.waiting')}</span>
              ) : item.status === 'sending' ? (
                <span className="tabular-nums text-fg-muted">{percent(item.size ? item.sent / item.size : 0)}</span>
              ) : null}
            </span>
          </li>
        ))}
      </ul>
      <div className="flex justify-end gap-2">
        {canRetry && <button type="button" className="btn" onClick={onRetryAll}>{t('upload.progress.retryAll')}</button>}
        {(canFinish || completeError) && (
          <button type="button" className="btn btn-primary" disabled={completing} onClick={onFinish}>
            {t('upload.progress.finish', { count: onServer })}
          </button>
        )}
      </div>
    </div>
  );
}
