import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '@/lib/session';
import { http, isHttpError } from '@/lib/http';
import { toasts } from '@/lib/toasts';
import { consultationFeed, examFeed } from './feeds';
import { createPoller, type PollEnv, type PollFeed } from './poller';
import { notifyPlan } from './plan';
import { soundEnabled, type NotifyKind } from './sounds';

function playSound(url: string): Promise<void> {
  const audio = new Audio(url);
  return audio.play();
}

const timers: PollEnv['timers'] = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Starts one feed's poller in the browser; the returned function stops it. */
function startPolling<T extends { id: number }>(feed: PollFeed<T>, soundUrl: string, soundOn: () => boolean): () => void {
  const poller = createPoller(feed, {
    storage: localStorage,
    timers,
    upsertToast: (input) => toasts.upsert(input),
    hasToast: (key) => toasts.has(key),
    playSound,
    soundUrl,
    soundOn,
    isUnauthorized: (error) => isHttpError(error) && error.status === 401,
  });
  poller.start();
  return () => poller.stop();
}

/**
 * Starts the notification pollers while the session is ready, the group has switched the matching sound on
 * (autoNotifyAudio for exams, autoConsulNotifyAudio for consultations: see ./sounds) and the account may act on the
 * feed's news in some organisation (./plan.ts: writes reports, answers consultations). Leaving that state (logout,
 * an expired login, the setting cleared) stops them; a 401 stops a poller by itself until the session is ready
 * again. The account's own switches (settings/notification) silence a feed's sound; its toasts still show.
 * Renders nothing: the toasts are the output.
 */
export function NotifyPolling() {
  const { t } = useTranslation();
  const { status, groups, user, permissions } = useSession();
  const plan = notifyPlan(groups, permissions);
  const examSound = plan.exams?.sound ?? null;
  const consultationSound = plan.consultations?.sound ?? null;
  // A string, so an equal list from a new permissions object neither restarts the poller nor loses its state.
  const examBuckets = plan.exams?.buckets.join(',') ?? '';
  const ready = status === 'ready' && user !== null;
  // The account's sound switches, read when news arrives: changing one neither restarts a poller nor loses its state.
  const userRef = useRef(user);
  useEffect(() => {
    userRef.current = user;
  });
  const soundOn = (kind: NotifyKind) => () => soundEnabled(userRef.current, kind);

  useEffect(() => {
    if (!ready || !examSound || !examBuckets) return;
    return startPolling(examFeed(http, t, examBuckets.split(',').map(Number)), examSound, soundOn('exams'));
  }, [ready, examSound, examBuckets, t]);

  useEffect(() => {
    if (!ready || !consultationSound) return;
    return startPolling(consultationFeed(http, t), consultationSound, soundOn('consultations'));
  }, [ready, consultationSound, t]);

  return null;
}
