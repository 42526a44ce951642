import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '@/lib/errorText';
import { http, isSessionEndingError } from '@/lib/http';
import { toasts } from '@/lib/toasts';
import { confirmed, firstProblem, password as passwordRule, problemText, required, type Problem } from '@/lib/validation';
import { Alert } from '@/ui/Alert';
import { TextField } from '@/ui/TextField';

type Field = 'oldPassword' | 'newPassword' | 'confirm';
const EMPTY: Record<Field, string> = { oldPassword: '', newPassword: '', confirm: '' };

/** Changes the signed-in account's password (accounts/change-password); the rule is core §5's. */
export function PasswordSection() {
  const { t } = useTranslation();
  const [form, setForm] = useState(EMPTY);
  const [problems, setProblems] = useState<Partial<Record<Field, Problem | null>>>({});
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const set = (field: Field) => (event: { target: { value: string } }) => setForm((f) => ({ ...f, [field]: event.target.value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const found = {
      oldPassword: required('oldPassword', form.oldPassword),
      newPassword: firstProblem(passwordRule('newPassword', form.newPassword), form.newPassword && form.newPassword === form.oldPassword ? { rule: 'passwordSameAsOld' as const } : null),
      confirm: firstProblem(required('newPassword', form.confirm), confirmed('newPassword', form.newPassword, form.confirm)),
    };
    setProblems(found);
    if (Object.values(found).some(Boolean)) return;
    setBusy(true);
    setFailure(null);
    try {
      await http.post<void>('accounts/change-password', { oldPassword: form.oldPassword, newPassword: form.newPassword });
      setForm(EMPTY);
      toasts.show({ message: t('settings.password.changed'), kind: 'success' });
    } catch (error) {
      if (!isSessionEndingError(error)) setFailure(errorText(t, error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="password-title" className="mt-8">
      <h2 id="password-title" className="mb-4 text-base font-semibold">{t('settings.password.title')}</h2>
      <form onSubmit={submit} noValidate className="rounded-lg border border-line bg-surface p-5">
        <div className="grid grid-cols-1 gap-x-4 sm:grid-cols-2">
          <TextField label={t('settings.password.oldPassword')} type="password" autoComplete="current-password" value={form.oldPassword}
            onChange={set('oldPassword')} error={problemText(t, problems.oldPassword ?? null)} className="sm:col-span-2 sm:max-w-[calc(50%-0.5rem)]" />
          <TextField label={t('settings.password.newPassword')} type="password" autoComplete="new-password" value={form.newPassword}
            onChange={set('newPassword')} error={problemText(t, problems.newPassword ?? null)} />
          <TextField label={t('settings.password.confirmPassword')} type="password" autoComplete="new-password" value={form.confirm}
            onChange={set('confirm')} error={problemText(t, problems.confirm ?? null)} />
        </div>
        {failure && <div className="mb-3"><Alert>{failure}</Alert></div>}
        <div className="flex justify-end">
          <button type="submit" className="btn" disabled={busy}>
            {busy ? t('common.saving') : t('settings.password.submit')}
          </button>
        </div>
      </form>
    </section>
  );
}
