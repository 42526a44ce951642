import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Redirect, useLocation, useSearch } from 'wouter';
import { Spinner } from '@/ui/Spinner';
import { Alert } from '@/ui/Alert';
import { errorText } from '@/lib/errorText';
import { HttpError } from '@/lib/http';
import { allTextsLoaded, loadAllTexts } from '@/lib/i18n';
import { loginUrl, sessionActor, useSessionSelector, statusOf } from '.';

/**
 * Core §2 guard: without a session, a protected route goes to /login?redirect=<full path>. The
 * permission list is loaded before the page renders (core §6). While the "Login expired" modal is
 * open the page keeps rendering underneath, unchanged, so unsaved edits survive.
 */
export function Guard({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const [location] = useLocation();
  const search = useSearch();
  const status = useSessionSelector(statusOf);
  const loadError = useSessionSelector((s) => s.context.loadError);
  // The shell's navbar and the screen use the features' texts: they are asked for while the session loads.
  const [texts, setTexts] = useState(allTextsLoaded);
  useEffect(() => {
    if (texts) return;
    let live = true;
    void loadAllTexts().then(() => { if (live) setTexts(true); });
    return () => { live = false; };
  }, [texts]);

  if (status === 'signedOut' || status === 'signingIn') return <Redirect to={loginUrl(location + (search ? `?${search}` : ''))} replace />;
  if (status === 'loggedOut') return <Redirect to="/login" replace />;
  if (status === 'loading' || !texts) {
    return (
      <div className="flex h-40 items-center justify-center">
        <Spinner label={t('shell.loadingSession')} />
      </div>
    );
  }
  if (status === 'failed') {
    return (
      <div className="mx-auto mt-16 flex max-w-sm flex-col gap-3">
        <Alert>{t('shell.sessionLoadFailed')} {errorText(t, new HttpError((loadError ?? 'UnknownError') as never, 0, ''))}</Alert>
        <button type="button" className="btn btn-primary self-start" onClick={() => sessionActor().send({ type: 'RETRY' })} autoFocus>
          {t('common.retry')}
        </button>
      </div>
    );
  }
  // ready, expired, reLogin, loggingOut: the same element, so the page is never remounted.
  return children;
}
