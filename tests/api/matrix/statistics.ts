import { STAT_NAMES, STAT_PATHS } from '../../../contract/statistics';
import { signedIn, type MatrixRow } from './types';

/**
 * Statistics (server/statistics/routes.ts) of the demo group, which has enableStat and allowOverview on: the group's
 * administrator (admin), the hospital's (orgadmin, every action there) and the chief hold statistics_report; the
 * other members of the group's organisations (rad1, rad2, registrar, tech, and the expert at the centre) do not: 403.
 */
const allowed = (ok: number) => signedIn(403, { admin: ok, orgadmin: ok, chief: ok });

export const rows: MatrixRow[] = [
  ...STAT_NAMES.flatMap((name): MatrixRow[] => [
    { method: 'POST', route: `/${STAT_PATHS[name]}`, body: ({ s }) => ({ groupId: s.ids.groupId, quick: '7d' }), expect: allowed(200) },
    { method: 'GET', route: `/${STAT_PATHS[name]}`, path: ({ s }) => `/${STAT_PATHS[name]}?groupId=${s.ids.groupId}&quick=7d`, expect: allowed(200) },
  ]),
  // Everyone signed in may ask which groups they can see (most get an empty list).
  { method: 'GET', route: '/statistics/groups', expect: signedIn(200) },
  { method: 'GET', route: '/statistics/scope', path: ({ s }) => `/statistics/scope?groupId=${s.ids.groupId}`, expect: allowed(200) },
  { method: 'POST', route: '/statistics/export', body: ({ s }) => ({ groupId: s.ids.groupId, quick: '7d', name: 'study', lang: 'en' }), expect: allowed(200) },
];
