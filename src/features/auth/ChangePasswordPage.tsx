import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearch } from 'wouter';
import { errorText } from '@/lib/errorText';
import { http } from '@/lib/http';
import { toasts } from '@/lib/toasts';
import { confirmed, firstProblem, password as passwordRule, problemText, required, type Problem } from '@/lib/validation';
import { Alert } from '@/ui/Alert';
import { TextField } from '@/ui/TextField';
import { AuthLayout } from './AuthLayout';

type Field = 'username' | 'oldPassword' | 'newPassword' | 'confirm';

/**
 * For an account whose old password breaks today's rule (core §5): it proves the old password and
 * sets a compliant one through accounts/update-password, then signs in again.
 */
export default function ChangePasswordPage() {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const given = new URLSearchParams(useSearch()).get('username') ?? '';
  const [form, setForm] = useState<Record<Field, string>>({ username: given, oldPassword: '', newPassword: '', confirm: '' });
  const [problems, setProblems] = useState<Partial<Record<Field, Problem | null>>>({});
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const set = (field: Field) => (event: { target: { value: string } }) => setForm((f) => ({ ...f, [field]: event.target.value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const found = {
      username: required('username', form.username),
      oldPassword: required('oldPassword', form.oldPassword),
      newPassword: firstProblem(passwordRule('newPassword', form.newPassword), form.newPassword === form.oldPassword && form.newPassword ? { rule: 'passwordSameAsOld' as const } : null),
      confirm: firstProblem(required('newPassword', form.confirm), confirmed('newPassword', form.newPassword, form.confirm)),
    };
    setProblems(found);
    if (Object.values(found).some(Boolean)) return;
    setBusy(true);
    setFailure(null);
    try {
      await http.post<void>('accounts/update-password', { username: form.username.trim(), oldPwd: form.oldPassword, newPwd: form.newPassword });
      toasts.show({ message: t('auth.changePassword.done'), kind: 'success' });
      navigate('/login', { replace: true });
    } catch (error) {
      setBusy(false);
      setFailure(errorText(t, error));
    }
  }

  return (
    <AuthLayout title={t('auth.changePassword.title')} footer={<Link href="/login" className="link">{t('auth.forget.toLogin')}</Link>}>
      <form onSubmit={submit} noValidate className="flex flex-col gap-1">
        <p className="mb-3 text-sm text-fg-muted">{t('auth.changePassword.intro')}</p>
        <TextField label={t('auth.changePassword.username')} autoComplete="username" value={form.username} onChange={set('username')}
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
