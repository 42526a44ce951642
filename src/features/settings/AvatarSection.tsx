import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { POLICY_LIMITS } from '../../../contract/files';
import { useSession } from '@/lib/session';
import { errorText } from '@/lib/errorText';
import { isSessionEndingError } from '@/lib/http';
import { toasts } from '@/lib/toasts';
import { Alert } from '@/ui/Alert';
import { profileUpdated, settingsApi } from './api';
import { UserAvatar } from './UserAvatar';

const LIMITS = POLICY_LIMITS.avatars;

/** The profile's picture: chosen from a file, sent through the avatar policy, shown here and in the navbar. */
export function AvatarSection() {
  const { t } = useTranslation();
  const { user } = useSession();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  async function choose(file: File | undefined) {
    if (!file || busy) return;
    setFailure(null);
    if (!LIMITS.types.includes(file.type as (typeof LIMITS.types)[number])) return setFailure(t('settings.avatar.wrongType'));
    if (file.size > LIMITS.maxBytes) return setFailure(t('settings.avatar.tooLarge', { mb: LIMITS.maxBytes / 1024 / 1024 }));
    setBusy(true);
    try {
      profileUpdated(await settingsApi.uploadAvatar(file));
      toasts.show({ message: t('settings.avatar.saved'), kind: 'success' });
    } catch (error) {
      if (!isSessionEndingError(error)) setFailure(errorText(t, error));
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  }

  return (
    <div className="mb-4 flex items-center gap-4 rounded-lg border border-line bg-surface p-5">
      <UserAvatar user={user} size={56} />
      <div className="min-w-0 flex-1">
        <div className="text-sm font-medium">{t('settings.avatar.title')}</div>
        <div className="text-xs text-fg-muted">{t('settings.avatar.hint', { mb: LIMITS.maxBytes / 1024 / 1024 })}</div>
        {failure && <div className="mt-2"><Alert>{failure}</Alert></div>}
      </div>
      <input ref={input} type="file" accept="image/png,image/jpeg,image/webp" className="sr-only" tabIndex={-1} aria-hidden="true"
        data-testid="avatar-file" onChange={(event) => void choose(event.target.files?.[0])} />
      <button type="button" className="btn" disabled={busy} onClick={() => input.current?.click()}>
        {busy ? t('common.saving') : t('settings.avatar.choose')}
      </button>
    </div>
  );
}
