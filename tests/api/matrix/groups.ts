import * as t from '../../../server/db/schema';
import { createAccount, createGroup, joinGroup, unique } from '../../support/accounts';
import type { TestServer } from '../../support/server';
import { signedIn, type MatrixRow, type Role } from './types';

/**
 * Groups (contract/groups.ts), on the demo group: every demo account is a member; admin is its only group admin (orgadmin
 * administers the hospital, not the group: 403 where the group's admin is needed). Writes act on fresh objects so one
 * role's call leaves the next one's unchanged; the demo group's own settings are written back as they are.
 */
const groupAdminOnly = (ok: number) => signedIn(403, { admin: ok, orgadmin: 403 });
const group = ({ s }: { s: TestServer }) => s.ids.groupId;
const code = () => unique('M').replace(/[^A-Za-z0-9]/g, '').slice(0, 30).padEnd(6, '0');

/** A fresh organisation of the demo group with one member, for rules that must not touch the hospital's exams. */
async function orgWithMember(s: TestServer) {
  const [bucket] = await s.db.db.insert(t.buckets).values({ groupId: s.ids.groupId, name: unique('矩阵机构'), code: code() }).returning();
  const member = await createAccount(s, { groupId: s.ids.groupId, buckets: [{ bucketId: bucket!.id }] });
  return { bucketId: bucket!.id, memberId: member.id };
}
async function rule(s: TestServer) {
  const org = await orgWithMember(s);
  const [row] = await s.db.db.insert(t.assignRules).values({ groupId: s.ids.groupId, name: '矩阵规则', bucketId: org.bucketId, reporterId: org.memberId }).returning();
  return { ...org, ruleId: row!.id };
}
/** A group of its own where the caller is a plain member beside another admin: quitting it changes nothing else. */
async function groupToQuit(s: TestServer, role: Role) {
  const other = await createGroup(s);
  await createAccount(s, { groupId: other.groupId, groupAdmin: true });
  if (role !== 'anonymous') await joinGroup(s, s.ids.accounts[role], other.groupId);
  return other;
}
const ruleBody = ({ fixture }: { fixture: { bucketId: number; memberId: number } }) =>
  ({ name: '矩阵规则', bucketId: fixture.bucketId, reporterId: fixture.memberId, modality: 'CT', priority: 1 });

export const rows: MatrixRow[] = [
  { method: 'GET', route: '/groups/available', path: () => `/groups/available?name=${unique('free')}`, expect: signedIn(200) },
  // Only admin may create groups, and admin belongs to a group already (one group per creator).
  { method: 'POST', route: '/groups', body: () => ({ name: unique('mx'), displayName: '矩阵集团' }), expect: signedIn(403, { admin: 409, orgadmin: 403 }) },
  { method: 'GET', route: '/groups/:id', path: (c) => `/groups/${group(c)}`, expect: signedIn(200) },
  { method: 'PATCH', route: '/groups/:id', path: (c) => `/groups/${group(c)}`, body: () => ({ displayName: '示范医疗集团' }), expect: groupAdminOnly(200) },
  // The demo group's organisations hold exams: GroupNotEmpty.
  { method: 'DELETE', route: '/groups/:id', path: (c) => `/groups/${group(c)}`, expect: groupAdminOnly(409) },
  { method: 'GET', route: '/groups/:id/quality', path: (c) => `/groups/${group(c)}/quality`, expect: signedIn(200) },

  { method: 'GET', route: '/groups/:id/members', path: (c) => `/groups/${group(c)}/members`, expect: signedIn(200) },
  { method: 'POST', route: '/groups/:id/members/query', path: (c) => `/groups/${group(c)}/members/query`, body: () => ({}), expect: groupAdminOnly(200) },
  {
    method: 'POST', route: '/groups/:id/members/invite', setup: (s) => createAccount(s), path: (c) => `/groups/${group(c)}/members/invite`,
    body: ({ fixture }) => ({ username: fixture.username, accessLevel: 0 }), expect: groupAdminOnly(200),
  },
  {
    method: 'POST', route: '/groups/:id/members/create-account', path: (c) => `/groups/${group(c)}/members/create-account`,
    body: () => ({ username: unique('mxacc'), name: '矩阵', password: 'Demo1234', accessLevel: 0 }), expect: groupAdminOnly(201),
  },
  {
    method: 'PATCH', route: '/groups/:id/members/:accountId', setup: (s) => createAccount(s, { groupId: s.ids.groupId }),
    path: (c) => `/groups/${group(c)}/members/${c.fixture.id}`, body: () => ({ accessLevel: 1 }), expect: groupAdminOnly(200),
  },
  {
    method: 'DELETE', route: '/groups/:id/members/:accountId', setup: (s) => createAccount(s, { groupId: s.ids.groupId }),
    path: (c) => `/groups/${group(c)}/members/${c.fixture.id}`, expect: groupAdminOnly(204),
  },
  { method: 'POST', route: '/groups/:id/quit', setup: groupToQuit, path: ({ fixture }) => `/groups/${fixture.groupId}/quit`, expect: signedIn(204) },

  { method: 'GET', route: '/groups/:id/organizations', path: (c) => `/groups/${group(c)}/organizations`, expect: signedIn(200) },
  { method: 'POST', route: '/groups/:id/organizations/query', path: (c) => `/groups/${group(c)}/organizations/query`, body: () => ({}), expect: signedIn(200) },
  {
    method: 'POST', route: '/groups/:id/organizations', path: (c) => `/groups/${group(c)}/organizations`,
    body: () => ({ name: '矩阵机构', code: code() }), expect: groupAdminOnly(201),
  },
  {
    method: 'DELETE', route: '/groups/:id/organizations/:bucketId', setup: orgWithMember,
    path: (c) => `/groups/${group(c)}/organizations/${c.fixture.bucketId}`, expect: groupAdminOnly(204),
  },

  { method: 'GET', route: '/groups/:id/rules', path: (c) => `/groups/${group(c)}/rules`, expect: groupAdminOnly(200) },
  { method: 'POST', route: '/groups/:id/rules', setup: orgWithMember, path: (c) => `/groups/${group(c)}/rules`, body: ruleBody, expect: groupAdminOnly(201) },
  { method: 'PUT', route: '/groups/:id/rules/:ruleId', setup: rule, path: (c) => `/groups/${group(c)}/rules/${c.fixture.ruleId}`, body: ruleBody, expect: groupAdminOnly(200) },
  { method: 'DELETE', route: '/groups/:id/rules/:ruleId', setup: rule, path: (c) => `/groups/${group(c)}/rules/${c.fixture.ruleId}`, expect: groupAdminOnly(204) },

  { method: 'GET', route: '/groups/:id/rads', path: (c) => `/groups/${group(c)}/rads`, expect: signedIn(200) },
  { method: 'GET', route: '/groups/:id/expert-buckets', path: (c) => `/groups/${group(c)}/expert-buckets`, expect: signedIn(200) },
  { method: 'PUT', route: '/groups/:id/expert-buckets', path: (c) => `/groups/${group(c)}/expert-buckets`, body: () => [], expect: groupAdminOnly(200) },
  { method: 'GET', route: '/groups/:id/consultation-targets', path: (c) => `/groups/${group(c)}/consultation-targets`, expect: signedIn(200) },
  { method: 'PUT', route: '/groups/:id/consultation-targets', path: (c) => `/groups/${group(c)}/consultation-targets`, body: () => [], expect: groupAdminOnly(200) },
  { method: 'GET', route: '/groups/:id/registry-buckets', path: (c) => `/groups/${group(c)}/registry-buckets`, expect: signedIn(200) },
  // The hospital stays the registry desk it is.
  { method: 'PUT', route: '/groups/:id/registry-buckets', path: (c) => `/groups/${group(c)}/registry-buckets`, body: ({ s }) => [s.ids.hospitalId], expect: groupAdminOnly(200) },
  { method: 'GET', route: '/groups/:id/notifications', path: (c) => `/groups/${group(c)}/notifications`, expect: groupAdminOnly(200) },
  { method: 'PUT', route: '/groups/:id/notifications', path: (c) => `/groups/${group(c)}/notifications`, body: () => [], expect: groupAdminOnly(200) },
];
