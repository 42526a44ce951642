import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearch } from 'wouter';
import { landingPath } from '@/lib/session/landing';
import { isRegistered } from '@/lib/session/routeRegistry';
import { sessionActor, statusOf, useSessionSelector } from '@/lib/session';
import { Alert } from '@/ui/Alert';
import { Spinner } from '@/ui/Spinner';
import { AuthLayout } from './AuthLayout';

/** A token from the mobile app's scan: accessToken and numeric expires (unix seconds), or nothing usable. */
export function readScanToken(search: string, nowSeconds: number): { accessToken: string; expires: number } | null {
  const query = new URLSearchParams(search);
  const accessToken = query.get('accessToken')?.trim() ?? '';
  const expiresText = query.get('expires') ?? '';
  if (!accessToken || !/^\d+$/.test(expiresText)) return null;
  const expires = Number(expiresText);
  return expires > nowSeconds ? { accessToken, expires } : null;
}

/** /auth/token: keeps the handed-over token as a scan login and goes to the landing page. */
export default function TokenPage() {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const search = useSearch();
  const status = useSessionSelector(statusOf);
  const sessionToken = useSessionSelector((s) => s.context.token?.accessToken ?? null);
  const permissions = useSessionSelector((s) => s.context.permissions);
  const [token] = useState(() => readScanToken(search, Math.floor(Date.now() / 1000)));
  const sent = useRef(false);

  // Before paint, so the page never flashes "invalid" while the session has not heard of the token yet.
  useLayoutEffect(() => {
    if (!token || sent.current) return;
    sent.current = true;
    sessionActor().send({ type: 'TOKEN_RECEIVED', token: { ...token, loginType: 'scan' } });
  }, [token]);

  const ours = token !== null && sessionToken === token.accessToken;
  useEffect(() => {
    if (ours && status === 'ready') navigate(landingPath(permissions, isRegistered), { replace: true });
  }, [ours, status, permissions, navigate]);

  const failed = !token || (!ours && status !== 'loading') || status === 'failed';
  return (
    <AuthLayout title={t('auth.token.title')}>
      {failed ? (
        <div className="flex flex-col gap-4">
          <Alert>{t('auth.token.invalid')}</Alert>
          <Link href="/login" className="btn btn-primary w-full">
            {t('auth.token.toLogin')}
          </Link>
        </div>
      ) : (
        <div className="flex items-center justify-center gap-2 py-6 text-sm text-fg-muted">
          <Spinner label={t('auth.token.signingIn')} />
          <span aria-hidden="true">{t('auth.token.signingIn')}</span>
        </div>
      )}
    </AuthLayout>
  );
}
