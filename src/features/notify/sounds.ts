import type { NotificationPrefs, User } from '../../../contract/accounts';
import type { Group } from '../../../contract/domain';

/** The sound of each feed, or null where that feed must not run. */
export interface NotifySounds {
  exams: string | null;
  consultations: string | null;
}

/**
 * Core §4: a feed polls only while a group of the account has its sound set (autoNotifyAudio for new exams,
 * autoConsulNotifyAudio for pending consultations). Consultations also need the group to have them switched on:
 * the server refuses the list otherwise, and a poll bound to fail every minute is no use.
 */
export function notifySounds(groups: readonly Group[]): NotifySounds {
  return {
    exams: groups.find((group) => group.autoNotifyAudio)?.autoNotifyAudio ?? null,
    consultations: groups.find((group) => group.enableConsultation && group.autoConsulNotifyAudio)?.autoConsulNotifyAudio ?? null,
  };
}

export type NotifyKind = keyof NotifySounds;

/**
 * The account's own sound switches (settings/notification, accounts.notification_prefs): each kind plays its sound
 * unless switched off. The pollers still run and toast either way.
 */
export function soundEnabled(user: Pick<User, 'notificationPrefs'> | null, kind: NotifyKind): boolean {
  const prefs: Partial<NotificationPrefs> = user?.notificationPrefs ?? {};
  return (kind === 'exams' ? prefs.examSound : prefs.consultationSound) !== false;
}
