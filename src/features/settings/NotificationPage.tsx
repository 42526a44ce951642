import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { NotificationPrefs } from '../../../contract/accounts';
import { notifySounds, soundEnabled, type NotifyKind } from '@/features/notify';
import { useSession } from '@/lib/session';
import { errorText } from '@/lib/errorText';
import { isSessionEndingError } from '@/lib/http';
import { Alert } from '@/ui/Alert';
import { profileUpdated, settingsApi } from './api';
import { SectionHeading, SettingsFrame } from './SettingsFrame';

const KINDS: readonly { kind: NotifyKind; pref: keyof NotificationPrefs }[] = [
  { kind: 'exams', pref: 'examSound' },
  { kind: 'consultations', pref: 'consultationSound' },
];

/**
 * settings/notification: whether new exams and pending consultations play their sound for this account. Saved at
 * once (PATCH accounts/me notificationPrefs); the toasts show either way. A kind whose group has no sound set does
 * not poll at all: the page says so.
 */
export default function NotificationPage() {
  const { t } = useTranslation();
  const { user, groups } = useSession();
  const sounds = notifySounds(groups);
  const [busy, setBusy] = useState<NotifyKind | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  async function toggle(kind: NotifyKind, pref: keyof NotificationPrefs, on: boolean) {
    if (busy) return;
    setBusy(kind);
    setFailure(null);
    try {
      profileUpdated(await settingsApi.patchMe({ notificationPrefs: { [pref]: on } }));
    } catch (error) {
      if (!isSessionEndingError(error)) setFailure(errorText(t, error));
    } finally {
      setBusy(null);
    }
  }

  return (
    <SettingsFrame>
      <section aria-labelledby="notification-title" className="max-w-xl">
        <SectionHeading id="notification-title" title={t('settings.notification.title')} />
        <fieldset className="rounded-lg border border-line bg-surface p-5">
          <legend className="sr-only">{t('settings.notification.sounds')}</legend>
          <ul className="flex flex-col divide-y divide-line">
            {KINDS.map(({ kind, pref }) => {
              const on = soundEnabled(user, kind);
              const id = `sound-${kind}`;
              return (
                <li key={kind} className="flex items-start gap-3 py-3 first:pt-0 last:pb-0">
                  <input id={id} type="checkbox" role="switch" className="mt-1 size-4 accent-[var(--accent)]" checked={on}
                    disabled={busy !== null} aria-describedby={`${id}-hint`} onChange={(event) => void toggle(kind, pref, event.target.checked)} />
                  <div className="min-w-0">
                    <label htmlFor={id} className="text-sm font-medium">{t(`settings.notification.${kind}`)}</label>
                    <p id={`${id}-hint`} className="text-xs text-fg-muted">
                      {sounds[kind] ? t(on ? 'settings.notification.plays' : 'settings.notification.silent') : t('settings.notification.groupOff')}
                    </p>
                  </div>
                </li>
              );
            })}
          </ul>
        </fieldset>
        {failure && <div className="mt-3"><Alert>{failure}</Alert></div>}
      </section>
    </SettingsFrame>
  );
}
