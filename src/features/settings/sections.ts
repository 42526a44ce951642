import type { ParseKeys } from 'i18next';

export type SettingsSectionId = 'profile' | 'signature' | 'mobile' | 'notification' | 'groups' | 'admin';

/** Core §2 /settings children. Only the ones whose screens are registered are listed. */
export const SETTINGS_SECTIONS: ReadonlyArray<{ id: SettingsSectionId; href: string; label: ParseKeys }> = [
  { id: 'profile', href: '/settings/profile', label: 'settings.profile.title' },
  { id: 'signature', href: '/settings/signature', label: 'settings.signature.title' },
  { id: 'mobile', href: '/settings/mobile', label: 'settings.mobile.title' },
  { id: 'notification', href: '/settings/notification', label: 'settings.notification.title' },
  { id: 'groups', href: '/settings/groups', label: 'settings.groups.title' },
  { id: 'admin', href: '/settings/admin', label: 'settings.admin.title' },
];
