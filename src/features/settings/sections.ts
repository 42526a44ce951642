import type { ParseKeys } from 'i18next';

/** Core §2 /settings children. Only the ones whose screens are registered are listed. */
export const SETTINGS_SECTIONS: ReadonlyArray<{ id: string; href: string; label: ParseKeys }> = [
  { id: 'profile', href: '/settings/profile', label: 'settings.profile.title' },
];
