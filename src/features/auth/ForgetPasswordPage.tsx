import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { errorText } from '@/lib/errorText';
import { http } from '@/lib/http';
import { useDomain } from '@/lib/session/domain';
import { toasts } from '@/lib/toasts';
import { confirmed, firstProblem, password as passwordRule, problemText, required, type Problem } from '@/lib/validation';
import { Alert } from '@/ui/Alert';
import { TextField } from '@/ui/TextField';
import { AuthLayout } from './AuthLayout';

type Field = 'username' | 'code' | 'newPassword' | 'confirm';
const CODE = /^\d{6}$/;

/**
 * A forgotten password is reset with a code sent to the account's bound mobile (core §7 accounts/{id}/code/
 * reset-password, then accounts/{id}/password/reset {code, newPassword}; the server answers the same whether or not
 * the account exists). An account without a bound mobile is reset by its group administrator: the page says so
 * and names whom to contact.
 */
export default function ForgetPasswordPage() {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const domain = useDomain();
  const contact = [domain?.company, domain?.website].filter(Boolean).join(' · ');
  const [step, setStep] = useState<'ask' | 'reset'>('ask');
  const [form, setForm] = useState<Record<Field, string>>({ username: '', code: '', newPassword: '', confirm: '' });
  const [problems, setProblems] = useState<Partial<Record<Field, string | null>>>({});
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const set = (field: Field) => (event: { target: { value: string } }) => setForm((f) => ({ ...f, [field]: event.target.value }));
  const text = (problem: Problem | null) => problemText(t, problem);
  const accountPath = `accounts/${encodeURIComponent(form.username.trim())}`;

  async function sendCode(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const username = text(required('username', form.username));
    setProblems({ username });
    if (username) return;
    setBusy(true);
    setFailure(null);
    try {
      await http.post<void>(`${accountPath}/code/reset-password`);
      setStep('reset');
    } catch (error) {
      setFailure(errorText(t, error));
    } finally {
      setBusy(false);
    }
  }

  async function reset(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const found = {
      code: CODE.test(form.code.trim()) ? null : t('auth.forget.codeFormat'),
      newPassword: text(passwordRule('newPassword', form.newPassword)),
      confirm: text(firstProblem(required('newPassword', form.confirm), confirmed('newPassword', form.newPassword, form.confirm))),
    };
    setProblems(found);
    if (Object.values(found).some(Boolean)) return;
    setBusy(true);
    setFailure(null);
    try {
      await http.post<void>(`${accountPath}/password/reset`, { code: form.code.trim(), newPassword: form.newPassword });
      toasts.show({ message: t('auth.forget.done'), kind: 'success' });
      navigate('/login', { replace: true });
    } catch (error) {
      setBusy(false);
      setFailure(errorText(t, error));
    }
  }

  return (
    <AuthLayout title={t('auth.forget.title')}>
      <div className="flex flex-col gap-3 text-sm">
        {step === 'ask' ? (
          <form onSubmit={sendCode} noValidate className="flex flex-col gap-1" data-testid="forget-ask">
            <p className="mb-2 text-fg-muted">{t('auth.forget.byCode')}</p>
            <TextField label={t('auth.forget.username')} autoComplete="username" value={form.username} onChange={set('username')} autoFocus
              error={problems.username ?? undefined} />
            {failure && <Alert tone="error">{failure}</Alert>}
            <button type="submit" className="btn btn-primary mt-1 w-full" disabled={busy}>{t('auth.forget.sendCode')}</button>
          </form>
        ) : (
          <form onSubmit={reset} noValidate className="flex flex-col gap-1" data-testid="forget-reset">
            <p className="mb-2 text-fg-muted" role="status">{t('auth.forget.sent')}</p>
            <TextField label={t('auth.forget.code')} inputMode="numeric" autoComplete="one-time-code" maxLength={6} value={form.code} onChange={set('code')}
              autoFocus error={problems.code ?? undefined} />
            <TextField label={t('auth.changePassword.newPassword')} type="password" autoComplete="new-password" value={form.newPassword}
              onChange={set('newPassword')} error={problems.newPassword ?? undefined} hint={t('auth.register.passwordHint')} />
            <TextField label={t('auth.changePassword.confirmPassword')} type="password" autoComplete="new-password" value={form.confirm}
              onChange={set('confirm')} error={problems.confirm ?? undefined} />
            {failure && <Alert tone="error">{failure}</Alert>}
            <button type="submit" className="btn btn-primary mt-1 w-full" disabled={busy}>{t('auth.forget.reset')}</button>
            <button type="button" className="link mt-1 self-start text-[13px]" onClick={() => { setStep('ask'); setFailure(null); setProblems({}); }}>
              {t('auth.forget.again')}
            </button>
          </form>
        )}
        <div className="border-t border-line pt-3 text-fg-muted">
          <p>{t('auth.forget.body')}</p>
          <p className="mt-1">{t('auth.forget.afterReset')}</p>
          {contact && (
            <p className="mt-2 rounded-md bg-sunken px-3 py-2">
              <span className="mr-2 font-medium text-fg">{t('auth.forget.contact')}</span>
              {contact}
            </p>
          )}
        </div>
        <Link href="/login" className="btn w-full">{t('auth.forget.toLogin')}</Link>
      </div>
    </AuthLayout>
  );
}
