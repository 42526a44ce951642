import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearch } from 'wouter';
import { useDomain } from '@/lib/session/domain';
import { afterLoginPath, landingPath } from '@/lib/session/landing';
import { isRegistered, warmRoute } from '@/lib/session/routeRegistry';
import { sessionActor, statusOf, useSessionSelector } from '@/lib/session';
import { firstProblem, problemText, required, type Problem } from '@/lib/validation';
import { TextField } from '@/ui/TextField';
import { AuthLayout } from './AuthLayout';
import { loginErrorText } from './loginError';

export default function LoginPage() {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const redirect = new URLSearchParams(useSearch()).get('redirect');
  const domain = useDomain();
  const status = useSessionSelector(statusOf);
  const loginError = useSessionSelector((s) => s.context.loginError);
  const permissions = useSessionSelector((s) => s.context.permissions);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [problems, setProblems] = useState<{ username: Problem | null; password: Problem | null }>({ username: null, password: null });
  // Only a failure of a sign-in made on this page is shown, never one left over from earlier.
  const [submitted, setSubmitted] = useState(false);

  // The next screen's code and texts are fetched while the sign-in's calls run (issue 37: they came one after the
  // other): the frame and the asked-for page at the submit, the landing page once the permissions tell which it is.
  useEffect(() => {
    if (submitted && permissions) warmRoute(afterLoginPath(redirect, landingPath(permissions, isRegistered)));
  }, [submitted, permissions, redirect]);

  useEffect(() => {
    if (status === 'ready') navigate(afterLoginPath(redirect, landingPath(permissions, isRegistered)), { replace: true });
  }, [status, permissions, redirect, navigate]);

  const failed = submitted && status === 'signedOut' ? loginError : null;
  useEffect(() => {
    if (failed?.code !== 'PasswordResetRequired') return;
    const name = typeof failed.details?.username === 'string' ? failed.details.username : username.trim();
    navigate(`/change-password?username=${encodeURIComponent(name)}`);
  }, [failed, username, navigate]);

  const busy = status === 'signingIn' || (submitted && status === 'loading');

  function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const found = { username: firstProblem(required('username', username)), password: firstProblem(required('password', password)) };
    setProblems(found);
    if (found.username || found.password) return;
    setSubmitted(true);
    sessionActor().send({ type: 'LOGIN', username, password });
    warmRoute(afterLoginPath(redirect, '/'));
  }

  return (
    <AuthLayout
      title={t('auth.login.title')}
      footer={
        domain?.allowRegistration ? (
          <>
            {t('auth.login.noAccount')}{' '}
            <Link href="/register" className="link">
              {t('auth.login.register')}
            </Link>
          </>
        ) : undefined
      }
    >
      <form onSubmit={submit} noValidate className="flex flex-col gap-1">
        <TextField
          label={t('auth.login.username')}
          name="username"
          autoComplete="username"
          autoFocus
          value={username}
          onChange={(e) => setUsername(e.target.value)}
          error={problemText(t, problems.username)}
        />
        <TextField
          label={t('auth.login.password')}
          name="password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          // The server's answer takes the password's message line: the form keeps its height.
          error={problemText(t, problems.password) ?? (failed && failed.code !== 'PasswordResetRequired' ? loginErrorText(t, failed) : null)}
        />
        <button type="submit" className="btn btn-primary mt-1 w-full" disabled={busy}>
          {busy ? t('auth.login.submitting') : t('auth.login.submit')}
        </button>
        <div className="mt-3 text-center">
          <Link href="/forget-password" className="link text-sm">
            {t('auth.login.forgot')}
          </Link>
        </div>
      </form>
    </AuthLayout>
  );
}
