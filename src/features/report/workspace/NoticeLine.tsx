import { useTranslation } from 'react-i18next';
import { worklistReturnPath } from '@/lib/cases/caseOrder';
import { errorText } from '@/lib/errorText';
import { navigate } from '@/lib/session';
import { Alert } from '@/ui/Alert';
import type { Notice } from './useReportWorkspace';

/** The workspace's notice over the editors (an error is an alert, the rest a status): reload where it offers one, dismiss. */
export function NoticeLine({ notice, onReload, onDismiss }: { notice: NonNullable<Notice>; onReload: () => void; onDismiss: () => void }) {
  const { t } = useTranslation();
  return (
    <div role={notice.tone === 'error' ? 'alert' : 'status'} data-notice={notice.tone}
      className={`flex items-center gap-3 rounded-md border px-3 py-2 text-sm ${notice.tone === 'error' ? 'border-danger/40 bg-danger-soft text-danger' : notice.tone === 'warning' ? 'border-warn/40 bg-warn-soft text-warn' : 'border-accent/30 bg-accent-soft'}`}>
      <span className="min-w-0 flex-1">{notice.text}</span>
      {notice.reload && <button type="button" className="btn h-7 px-2.5" onClick={() => { onDismiss(); onReload(); }}>{t('common.reload')}</button>}
      <button type="button" className="icon-button" aria-label={t('common.dismiss')} onClick={onDismiss}>×</button>
    </div>
  );
}

/** The report could not be loaded: why, a retry (which takes the focus) and the way back to the worklist. */
export function LoadFailed({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="mx-auto mt-12 flex max-w-md flex-col gap-3 px-4">
      <Alert>{errorText(t, error)}</Alert>
      <div className="flex gap-2">
        <button type="button" className="btn btn-primary" onClick={onRetry} autoFocus>{t('common.retry')}</button>
        <button type="button" className="btn" onClick={() => navigate(worklistReturnPath())}>{t('report.commands.back')}</button>
      </div>
    </div>
  );
}
