import { useTranslation } from 'react-i18next';
import type { UploadPolicy } from '../../../../contract/uploads';
import { formatBytes } from '@/lib/format';
import { failureText } from './failureText';
import type { UploadRow } from './useUploads';

/** The files being sent (a thin progress bar each) and those that failed, each with its reason. */
export function UploadRows({ rows, policy, onRetry, onDismiss }: {
  rows: UploadRow[];
  policy: UploadPolicy | null;
  onRetry: (row: UploadRow) => void;
  onDismiss: (id: number) => void;
}) {
  const { t } = useTranslation();
  if (rows.length === 0) return null;
  return (
    <ul className="flex flex-col gap-1" aria-label={t('report.attachments.uploads')} data-testid="attachment-uploads">
      {rows.map((row) => {
        const pct = row.file.size ? Math.min(100, Math.round((row.sent / row.file.size) * 100)) : 0;
        return (
          <li key={row.id} data-upload={row.file.name} data-state={row.status}
            className={`rounded-md border px-2 py-1 ${row.status === 'failed' ? 'border-danger/40 bg-danger-soft' : 'border-line bg-sunken'}`}>
            <div className="flex items-center gap-2">
              <span className="min-w-0 flex-1 truncate" title={row.file.name}>{row.file.name}</span>
              <span className="shrink-0 text-xs text-fg-muted tabular-nums">{formatBytes(row.file.size)}</span>
              {row.status === 'failed' && (
                <span className="flex shrink-0 items-center gap-0.5">
                  {row.failure && 'error' in row.failure && (
                    <button type="button" className="btn btn-ghost h-6 px-1.5 text-xs" onClick={() => onRetry(row)}>{t('common.retry')}</button>
                  )}
                  <button type="button" className="icon-button size-6" aria-label={t('report.attachments.clear', { name: row.file.name })}
                    title={t('report.attachments.clear', { name: row.file.name })} onClick={() => onDismiss(row.id)}>×</button>
                </span>
              )}
            </div>
            {row.status === 'failed' ? (
              <p role="alert" className="text-xs text-danger">{failureText(t, row.failure, policy?.maxCount ?? null)}</p>
            ) : row.status === 'waiting' ? (
              <p className="text-xs text-fg-muted">{t('report.attachments.waiting')}</p>
            ) : (
              <div role="progressbar" aria-label={t('report.attachments.sending', { name: row.file.name })} aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct}
                className="mt-1 h-1 overflow-hidden rounded-full bg-line">
                <div className="h-full bg-accent transition-[width] duration-150" style={{ width: `${pct}%` }} />
              </div>
            )}
          </li>
        );
      })}
    </ul>
  );
}
