import { Component, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isChunkLoadError } from '@/lib/session/chunks';
import { ErrorPage } from './ErrorPage';

function Reload() {
  const { t } = useTranslation();
  return (
    <button type="button" className="btn btn-primary" onClick={() => location.reload()} autoFocus>
      {t('common.reload')}
    </button>
  );
}

/** Core §8: a chunk that failed to load offers a reload (a new deployment usually explains it). */
export function ChunkErrorPage({ code }: { code: string }) {
  const { t } = useTranslation();
  return (
    <ErrorPage title={t('pages.chunk.title')} body={t('pages.chunk.body')} code={t('pages.chunk.code', { code })}>
      <Reload />
    </ErrorPage>
  );
}

function CrashPage() {
  const { t } = useTranslation();
  return (
    <ErrorPage title={t('pages.crash.title')} body={t('pages.crash.body')}>
      <Reload />
    </ErrorPage>
  );
}

interface State {
  error: unknown;
}

/**
 * Catches a screen's failure (a chunk that did not load, or a bug) without taking the shell down.
 * A new `resetKey` (the path) clears the error, so leaving the broken page works; the screen itself
 * is never remounted by it.
 */
export class ScreenErrorBoundary extends Component<{ children: ReactNode; resetKey: string }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error };
  }

  override componentDidUpdate(previous: { resetKey: string }) {
    if (previous.resetKey !== this.props.resetKey && this.state.error !== null) this.setState({ error: null });
  }

  override componentDidCatch(error: unknown) {
    if (!isChunkLoadError(error)) console.error(error);
  }

  override render() {
    const { error } = this.state;
    if (error === null) return this.props.children;
    if (isChunkLoadError(error)) return <ChunkErrorPage code={error.code} />;
    return <CrashPage />;
  }
}
