import { useTranslation } from 'react-i18next';
import { Alert } from '@/ui/Alert';

/** What the publishing list shows instead of its table: nothing published yet, or a problem (with a retry). */
export function Empty() {
  const { t } = useTranslation();
  return (
    <div className="flex flex-1 flex-col items-center justify-center gap-1.5 px-6 py-16 text-center" data-testid="publish-empty">
      <p className="text-sm font-medium">{t('publish.list.empty')}</p>
      <p className="max-w-md text-[13px] text-fg-muted">{t('publish.list.emptyHint')}</p>
    </div>
  );
}

export function Problem({ text, onRetry }: { text: string; onRetry?: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="mx-auto mt-12 flex w-full max-w-md flex-col gap-3 px-4">
      <Alert>{text}</Alert>
      {onRetry && <div><button type="button" className="btn" onClick={onRetry}>{t('common.retry')}</button></div>}
    </div>
  );
}
