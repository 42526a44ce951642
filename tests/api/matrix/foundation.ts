import { createAccount, unique } from '../../support/accounts';
import { signedIn, statuses, type MatrixRow } from './types';

/** Domain, accounts and groups (core §7 "Domain and account"). */
const groupMember = (s: Parameters<NonNullable<MatrixRow['setup']>>[0]) => createAccount(s, { groupId: s.ids.groupId });
const onlyGroupAdmin = signedIn(403, { admin: 204, orgadmin: 403 });

export const rows: MatrixRow[] = [
  { method: 'GET', route: '/domain', expect: statuses(200) },
  { method: 'POST', route: '/accounts/login', body: () => ({ username: 'rad1', password: 'Demo1234' }), expect: statuses(200) },
  { method: 'POST', route: '/accounts', body: () => ({ username: unique('matrix'), password: 'Demo1234', name: 'Matrix' }), expect: statuses(201) },
  { method: 'GET', route: '/accounts/me', expect: signedIn(200) },
  { method: 'PATCH', route: '/accounts/me', body: () => ({}), expect: signedIn(200) },
  { method: 'GET', route: '/accounts/me/permissions', expect: signedIn(200) },
  { method: 'GET', route: '/accounts/me/organizations', expect: signedIn(200) },
  { method: 'GET', route: '/accounts/suggestions', expect: signedIn(200) },
  { method: 'GET', route: '/groups/mine', expect: signedIn(200) },
  {
    method: 'POST', route: '/accounts/change-password',
    body: () => ({ oldPassword: 'Demo1234', newPassword: 'Demo1234' }), expect: signedIn(204),
  },
  {
    // Public: the old password is the proof. Acts on a fresh account so the caller's own session stays.
    method: 'POST', route: '/accounts/update-password', setup: (s) => createAccount(s),
    body: ({ fixture }) => ({ username: fixture.username, oldPwd: fixture.password, newPwd: 'Demo5678' }), expect: statuses(204),
  },
  {
    method: 'POST', route: '/accounts/:id/status', setup: groupMember,
    path: ({ fixture }) => `/accounts/${fixture.id}/status`, body: () => ({ status: 1 }), expect: onlyGroupAdmin,
  },
  {
    method: 'POST', route: '/accounts/:id/password/reset', setup: groupMember,
    path: ({ fixture }) => `/accounts/${fixture.id}/password/reset`, body: () => ({ newPassword: 'Reset#123' }), expect: onlyGroupAdmin,
  },
  // The account list of the groups the caller administers (areas §7): group admins only.
  { method: 'POST', route: '/accounts/query-in-realm', body: () => ({ query: '' }), expect: signedIn(403, { admin: 200, orgadmin: 403 }) },
  { method: 'POST', route: '/accounts/logout', expect: signedIn(204), endsSession: true },
];
