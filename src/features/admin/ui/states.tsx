import { useTranslation } from 'react-i18next';
import { errorText } from '@/lib/errorText';
import { isSessionEndingError } from '@/lib/http';
import { Alert } from '@/ui/Alert';
import { Spinner } from '@/ui/Spinner';

/** What a tab shows before its data: a spinner, or the error with a retry. */
export function LoadState({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  if (error !== null && error !== undefined) {
    if (isSessionEndingError(error)) return null;
    return (
      <div className="flex max-w-md flex-col gap-3">
        <Alert>{errorText(t, error)}</Alert>
        <div><button type="button" className="btn" onClick={onRetry}>{t('common.retry')}</button></div>
      </div>
    );
  }
  return <div className="flex items-center justify-center py-12"><Spinner label={t('common.loading')} /></div>;
}
