import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearch } from 'wouter';
import { http } from '@/lib/http';
import { usePasswordForm } from '@/lib/passwordForm';
import { toasts } from '@/lib/toasts';
import { problemText, required } from '@/lib/validation';
import { Alert } from '@/ui/Alert';
import { TextField } from '@/ui/TextField';
import { AuthLayout } from './AuthLayout';

/**
 * For an account whose old password breaks today's rule (core §5): it proves the old password and
 * sets a compliant one through accounts/update-password, then signs in again.
 */
export default function ChangePasswordPage() {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const given = new URLSearchParams(useSearch()).get('username') ?? '';
  const [username, setUsername] = useState(given);
  const { form, set, problems, busy, failure, submit } = usePasswordForm<'username'>({ quietSessionEnd: false });
  const onSubmit = (event: FormEvent) => submit(event,
    (values) => http.post<void>('accounts/update-password', { username: username.trim(), oldPwd: values.oldPassword, newPwd: values.newPassword }),
    () => {
      toasts.show({ message: t('auth.changePassword.done'), kind: 'success' });
      navigate('/login', { replace: true });
    },
    { username: required('username', username) });

  return (
    <AuthLayout title={t('auth.changePassword.title')} footer={<Link href="/login" className="link">{t('auth.forget.toLogin')}</Link>}>
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-1">
        <p className="mb-3 text-sm text-fg-muted">{t('auth.changePassword.intro')}</p>
        <TextField label={t('auth.changePassword.username')} autoComplete="username" value={username} onChange={(event) => setUsername(event.target.value)}
          readOnly={given !== ''} autoFocus={given === ''} error={problemText(t, problems.username ?? null)} />
        <TextField label={t('auth.changePassword.oldPassword')} type="password" autoComplete="current-password" value={form.oldPassword}
          onChange={set('oldPassword')} autoFocus={given !== ''} error={problemText(t, problems.oldPassword ?? null)} />
        <TextField label={t('auth.changePassword.newPassword')} type="password" autoComplete="new-password" value={form.newPassword}
          onChange={set('newPassword')} error={problemText(t, problems.newPassword ?? null)} hint={t('auth.register.passwordHint')} />
        <TextField label={t('auth.changePassword.confirmPassword')} type="password" autoComplete="new-password" value={form.confirm}
          onChange={set('confirm')} error={problemText(t, problems.confirm ?? null)} />
        {failure && <Alert>{failure}</Alert>}
        <button type="submit" className="btn btn-primary mt-2 w-full" disabled={busy}>
          {busy ? t('auth.changePassword.submitting') : t('auth.changePassword.submit')}
        </button>
      </form>
    </AuthLayout>
  );
}
