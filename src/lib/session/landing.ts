import type { Permissions } from '../../../contract/accounts';

/**
 * Core §2: /studies when any permitted action contains "exam" or "report"; otherwise /registry when
 * registry_create is allowed; otherwise /studies. A target whose screen is not part of this build yet
 * falls back to the profile page rather than to "page not found".
 */
export function landingPath(permissions: Permissions | null, isRegistered: (path: string) => boolean): string {
  const actions = Object.values(permissions ?? {}).flatMap((entry) => entry.actions);
  let target = '/studies';
  if (!actions.some((a) => a.includes('exam') || a.includes('report')) && actions.includes('registry_create')) target = '/registry';
  return isRegistered(target) ? target : '/settings/profile';
}

/** Where to go after signing in: the guarded page the user asked for, else the landing page. Only local paths. */
export function afterLoginPath(redirect: string | null, landing: string): string {
  if (redirect && redirect.startsWith('/') && !redirect.startsWith('//') && !redirect.startsWith('/login')) return redirect;
  return landing;
}
