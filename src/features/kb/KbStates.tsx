import { useTranslation } from 'react-i18next';
import { Alert } from '@/ui/Alert';
import { Spinner } from '@/ui/Spinner';

/** The knowledge base's own loading and failure lines (its retry sits inside the alert, as a link). */
export function Loading() {
  const { t } = useTranslation();
  return <div className="flex flex-1 items-center justify-center p-8"><Spinner label={t('kb.pane.loading')} /></div>;
}

export function Problem({ text, onRetry }: { text: string; onRetry?: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="p-6">
      <Alert tone="error">
        {text}
        {onRetry && <button type="button" className="link ml-2" onClick={onRetry}>{t('kb.page.retry')}</button>}
      </Alert>
    </div>
  );
}
