import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '@/app/session';
import { http, isHttpError } from '@/lib/http';
import { toasts } from '@/lib/toasts';
import { examFeed } from './feeds';
import { createPoller, type PollEnv } from './poller';

function playSound(url: string): Promise<void> {
  const audio = new Audio(url);
  return audio.play();
}

const timers: PollEnv['timers'] = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * Starts the notification pollers while the session is ready and the group has switched the sound on
 * (autoNotifyAudio for exams). Leaving that state (logout, an expired login, the setting cleared) stops them;
 * a 401 stops a poller by itself until the session is ready again. Renders nothing: the toasts are the output.
 */
export function NotifyPolling() {
  const { t } = useTranslation();
  const { status, groups, user } = useSession();
  const examSound = groups.find((group) => group.autoNotifyAudio)?.autoNotifyAudio ?? null;
  const ready = status === 'ready' && user !== null;

  useEffect(() => {
    if (!ready || !examSound) return;
    const poller = createPoller(examFeed(http, t), {
      storage: localStorage,
      timers,
      showToast: (input) => toasts.show(input),
      playSound,
      soundUrl: examSound,
      isUnauthorized: (error) => isHttpError(error) && error.status === 401,
    });
    poller.start();
    return () => poller.stop();
  }, [ready, examSound, t]);

  return null;
}
