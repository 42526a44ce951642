import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { User } from '../../../contract/accounts';
import { useSession } from '@/lib/session';
import { errorText } from '@/lib/errorText';
import { http, isSessionEndingError } from '@/lib/http';
import { toasts } from '@/lib/toasts';
import { firstProblem, problemText, required, type Problem } from '@/lib/validation';
import { Alert } from '@/ui/Alert';
import { TextField } from '@/ui/TextField';
import { AvatarSection } from './AvatarSection';
import { PasswordSection } from './PasswordSection';
import { SettingsFrame } from './SettingsFrame';
import { profileUpdated } from './api';

type Field = 'name' | 'fullName' | 'techTitle' | 'registry';
const FIELDS: readonly Field[] = ['name', 'fullName', 'techTitle', 'registry'];

const valuesOf = (user: User | null): Record<Field, string> => ({
  name: user?.name ?? '', fullName: user?.fullName ?? '', techTitle: user?.techTitle ?? '', registry: user?.registry ?? '',
});

export default function ProfilePage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const [saved, setSaved] = useState(() => valuesOf(user));
  const [form, setForm] = useState(saved);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const dirty = FIELDS.some((f) => form[f] !== saved[f]);

  // The account as the server has it now; an edit already under way is left alone.
  useEffect(() => {
    const controller = new AbortController();
    http.get<User>('accounts/me', { signal: controller.signal }).then(
      (fresh) => {
        const values = valuesOf(fresh);
        setSaved(values);
        setForm((current) => (FIELDS.some((f) => current[f] !== saved[f]) ? current : values));
      },
      () => undefined,
    );
    return () => controller.abort();
    // Once per visit: `saved` is read only to tell whether the user has started editing.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy || !dirty) return;
    const found = firstProblem(required('name', form.name));
    setProblem(found);
    if (found) return;
    setBusy(true);
    setFailure(null);
    try {
      const patch = Object.fromEntries(FIELDS.filter((f) => form[f] !== saved[f]).map((f) => [f, form[f].trim()]));
      const updated = await http.patch<User>('accounts/me', patch);
      const values = valuesOf(updated);
      setSaved(values);
      setForm(values);
      profileUpdated(updated);
      toasts.show({ message: t('settings.profile.saved'), kind: 'success' });
    } catch (error) {
      if (!isSessionEndingError(error)) setFailure(errorText(t, error));
    } finally {
      setBusy(false);
    }
  }

  const set = (field: Field) => (event: { target: { value: string } }) => setForm((f) => ({ ...f, [field]: event.target.value }));

  return (
    <SettingsFrame>
      <section aria-labelledby="profile-title" className="max-w-xl">
        <div className="mb-4 flex items-baseline justify-between">
          <h2 id="profile-title" className="text-base font-semibold">{t('settings.profile.title')}</h2>
          <span className="text-xs text-warn" aria-live="polite">{dirty ? t('settings.profile.unsaved') : ''}</span>
        </div>
        <AvatarSection />
        <form onSubmit={submit} noValidate className="rounded-lg border border-line bg-surface p-5">
          <div className="grid grid-cols-1 gap-x-4 sm:grid-cols-2">
            <TextField label={t('settings.profile.username')} value={user?.username ?? ''} readOnly />
            <TextField label={t('settings.profile.name')} name="name" value={form.name} onChange={set('name')} error={problemText(t, problem)} maxLength={64} autoComplete="name" />
            <TextField label={t('settings.profile.fullName')} name="fullName" value={form.fullName} onChange={set('fullName')} maxLength={64} />
            <TextField label={t('settings.profile.techTitle')} name="techTitle" value={form.techTitle} onChange={set('techTitle')} maxLength={64} />
            <TextField label={t('settings.profile.registry')} name="registry" value={form.registry} onChange={set('registry')} maxLength={64} />
          </div>
          {failure && <div className="mb-3"><Alert>{failure}</Alert></div>}
          <div className="flex justify-end">
            <button type="submit" className="btn btn-primary" disabled={busy || !dirty}>
              {busy ? t('common.saving') : t('settings.profile.save')}
            </button>
          </div>
        </form>
        <PasswordSection />
      </section>
    </SettingsFrame>
  );
}
