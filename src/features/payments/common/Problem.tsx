import { useTranslation } from 'react-i18next';
import { Alert } from '@/ui/Alert';

/** A screen that cannot show what it was asked for: the reason, and a retry when one may help. */
export function Problem({ text, onRetry, testId }: { text: string; onRetry?: () => void; testId?: string }) {
  const { t } = useTranslation();
  return (
    <div className="mx-auto mt-12 flex w-full max-w-md flex-col gap-3 px-4" data-testid={testId ?? 'payments-problem'}>
      <Alert>{text}</Alert>
      {onRetry && <div><button type="button" className="btn" onClick={onRetry}>{t('common.retry')}</button></div>}
    </div>
  );
}
