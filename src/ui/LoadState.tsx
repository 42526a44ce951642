import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '@/lib/errorText';
import { isSessionEndingError } from '@/lib/http';
import { Alert } from '@/ui/Alert';
import { Spinner } from '@/ui/Spinner';

/**
 * Where the state stands: `tab` inside a frame that already has margins (administration tabs), `page` alone on a
 * route (centred under the top bar, and the spinner takes the free height).
 */
export type LoadPlace = 'tab' | 'page';

const ERROR_CLASS: Record<LoadPlace, string> = {
  tab: 'flex max-w-md flex-col gap-3',
  page: 'mx-auto mt-12 flex max-w-md flex-col gap-3 px-4',
};
const LOADING_CLASS: Record<LoadPlace, string> = {
  tab: 'flex items-center justify-center py-12',
  page: 'flex flex-1 items-center justify-center py-12',
};

/**
 * What a screen shows before its data: the spinner, or the error with a retry. A session that is ending shows
 * nothing (the sign-in takes over).
 */
export function LoadState({ error, onRetry, place = 'tab' }: { error: unknown; onRetry: () => void; place?: LoadPlace }) {
  const { t } = useTranslation();
  if (error !== null && error !== undefined) {
    if (isSessionEndingError(error)) return null;
    return <LoadError text={errorText(t, error)} onRetry={onRetry} className={ERROR_CLASS[place]} />;
  }
  return <div className={LOADING_CLASS[place]}><Spinner label={t('common.loading')} /></div>;
}

/** A failure said in words with its retry (no retry where nothing can be tried again). */
export function LoadError({ text, onRetry, className = ERROR_CLASS.tab, testId }: {
  text: string; onRetry?: () => void; className?: string; testId?: string;
}) {
  const { t } = useTranslation();
  return (
    <div className={className} data-testid={testId}>
      <Alert>{text}</Alert>
      {onRetry && <div><button type="button" className="btn" onClick={onRetry}>{t('common.retry')}</button></div>}
    </div>
  );
}

/** A list with nothing in it: one quiet line where the rows would stand. */
export function EmptyState({ children, testId, className = 'px-4 py-12 text-center text-[13px] text-fg-muted' }: {
  children: ReactNode; testId?: string; className?: string;
}) {
  return <p className={className} data-testid={testId}>{children}</p>;
}

/** A route's whole-width problem (the registry desk, the call queue, publishing): the failure or refusal, a retry. */
export function PageProblem({ text, onRetry }: { text: string; onRetry?: () => void }) {
  return <LoadError text={text} onRetry={onRetry} className="mx-auto mt-12 flex w-full max-w-md flex-col gap-3 px-4" />;
}

/** A route's spinner in the free height, before its first answer. */
export function PageLoading() {
  const { t } = useTranslation();
  return <div className="flex flex-1 items-center justify-center py-16"><Spinner label={t('common.loading')} /></div>;
}
