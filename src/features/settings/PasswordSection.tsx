import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { http } from '@/lib/http';
import { usePasswordForm } from '@/lib/passwordForm';
import { toasts } from '@/lib/toasts';
import { problemText } from '@/lib/validation';
import { Alert } from '@/ui/Alert';
import { TextField } from '@/ui/TextField';

/** Changes the signed-in account's password (accounts/change-password); the rule is core §5's. */
export function PasswordSection() {
  const { t } = useTranslation();
  const { form, set, problems, busy, failure, submit, reset } = usePasswordForm({ quietSessionEnd: true });
  const onSubmit = (event: FormEvent) => submit(event,
    (values) => http.post<void>('accounts/change-password', { oldPassword: values.oldPassword, newPassword: values.newPassword }),
    () => {
      reset();
      toasts.show({ message: t('settings.password.changed'), kind: 'success' });
    });

  return (
    <section aria-labelledby="password-title" className="mt-8">
      <h2 id="password-title" className="mb-4 text-base font-semibold">{t('settings.password.title')}</h2>
      <form onSubmit={onSubmit} noValidate className="rounded-lg border border-line bg-surface p-5">
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
