import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import type { LoginResult } from '../../../contract/accounts';
import { useDomain } from '@/lib/session/domain';
import { landingPath } from '@/lib/session/landing';
import { isRegistered } from '@/lib/session/routeRegistry';
import { sessionActor, statusOf, useSessionSelector } from '@/lib/session';
import { errorText } from '@/lib/errorText';
import { http } from '@/lib/http';
import { alphaDash, confirmed, firstProblem, lengthBetween, password as passwordRule, problemText, required, type Problem } from '@/lib/validation';
import { Alert } from '@/ui/Alert';
import { TextField } from '@/ui/TextField';
import { AuthLayout } from './AuthLayout';

type Field = 'username' | 'name' | 'password' | 'confirm';

function validate(form: Record<Field, string>): Record<Field, Problem | null> {
  return {
    username: firstProblem(required('username', form.username), lengthBetween('username', form.username.trim(), 3, 32), alphaDash('username', form.username.trim())),
    name: firstProblem(required('name', form.name)),
    password: passwordRule('password', form.password),
    confirm: firstProblem(required('password', form.confirm), confirmed('password', form.password, form.confirm)),
  };
}

/** Self-registration, only where the domain allows it (domain.allowRegistration). */
export default function RegisterPage() {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const domain = useDomain();
  const status = useSessionSelector(statusOf);
  const permissions = useSessionSelector((s) => s.context.permissions);
  const [form, setForm] = useState<Record<Field, string>>({ username: '', name: '', password: '', confirm: '' });
  const [problems, setProblems] = useState<Record<Field, Problem | null>>({ username: null, name: null, password: null, confirm: null });
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    if (busy && status === 'ready') navigate(landingPath(permissions, isRegistered), { replace: true });
  }, [busy, status, permissions, navigate]);

  const set = (field: Field) => (event: { target: { value: string } }) => setForm((f) => ({ ...f, [field]: event.target.value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const found = validate(form);
    setProblems(found);
    if (Object.values(found).some(Boolean)) return;
    setBusy(true);
    setFailure(null);
    try {
      await http.post<LoginResult>('accounts', { username: form.username.trim(), password: form.password, name: form.name.trim() });
      // The new account signs in the usual way, so the session loads its permissions like any other.
      sessionActor().send({ type: 'LOGIN', username: form.username, password: form.password });
    } catch (error) {
      setBusy(false);
      setFailure(errorText(t, error));
    }
  }

  if (domain && !domain.allowRegistration) {
    return (
      <AuthLayout title={t('auth.register.title')}>
        <p className="mb-4 text-sm text-fg-muted">{t('auth.register.closed')}</p>
        <Link href="/login" className="btn btn-primary w-full">
          {t('auth.register.toLogin')}
        </Link>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title={t('auth.register.title')}
      footer={
        <>
          {t('auth.register.haveAccount')}{' '}
          <Link href="/login" className="link">
            {t('auth.register.toLogin')}
          </Link>
        </>
      }
    >
      <form onSubmit={submit} noValidate className="flex flex-col gap-1">
        <TextField label={t('auth.login.username')} autoComplete="username" autoFocus value={form.username} onChange={set('username')}
          error={problemText(t, problems.username)} hint={t('auth.register.usernameHint')} />
        <TextField label={t('auth.register.name')} autoComplete="name" value={form.name} onChange={set('name')} error={problemText(t, problems.name)} />
        <TextField label={t('auth.login.password')} type="password" autoComplete="new-password" value={form.password} onChange={set('password')}
          error={problemText(t, problems.password)} hint={t('auth.register.passwordHint')} />
        <TextField label={t('auth.register.confirmPassword')} type="password" autoComplete="new-password" value={form.confirm} onChange={set('confirm')}
          error={problemText(t, problems.confirm)} />
        {failure && <Alert>{failure}</Alert>}
        <button type="submit" className="btn btn-primary mt-2 w-full" disabled={busy}>
          {busy ? t('auth.register.submitting') : t('auth.register.submit')}
        </button>
      </form>
    </AuthLayout>
  );
}
