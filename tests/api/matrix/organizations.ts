import { eq } from 'drizzle-orm';
import * as t from '../../../server/db/schema';
import { createAccount, unique } from '../../support/accounts';
import type { TestServer } from '../../support/server';
import { signedIn, statuses, type MatrixRow, type Role } from './types';

/**
 * Organisation administration (contract/organizations.ts), at the demo hospital. Reads for its members (admin,
 * orgadmin, rad1 … tech); expert is a member of the group who sees the (public) hospital but is not its member: 403
 * there, 200 only for GET buckets/:id. Writes for the hospital's admins (admin as group admin, orgadmin as
 * organisation admin); the other members 403. Writes that would change the hospital for later rows (its code, its
 * upload token) act on a fresh organisation with the hospital's people.
 */
const read = (ok = 200) => signedIn(403, { admin: ok, rad1: ok, rad2: ok, chief: ok, registrar: ok, tech: ok });
const write = (ok = 200) => signedIn(403, { admin: ok });
const hospital = ({ s }: { s: TestServer }) => s.ids.hospitalId;

/** A new organisation of the demo group: orgadmin its admin, the hospital's members its members. */
async function freshOrg(s: TestServer) {
  const code = unique('MX').replace(/[^A-Za-z0-9]/g, '');
  const token = unique('tok').padEnd(24, 'x');
  const [bucket] = await s.db.db.insert(t.buckets).values({ groupId: s.ids.groupId, name: `矩阵机构 ${code}`, code, publicUploadToken: token }).returning();
  const a = s.ids.accounts;
  await s.db.db.insert(t.bucketMembers).values([
    { bucketId: bucket!.id, accountId: a.orgadmin, accessLevel: 'admin' },
    ...[a.rad1, a.rad2, a.chief, a.registrar, a.tech].map((accountId) => ({ bucketId: bucket!.id, accountId, accessLevel: 'member' })),
  ]);
  return { bucketId: bucket!.id, token };
}

/** A group member outside the hospital (to add) or a hospital member (to change or remove). */
async function person(s: TestServer, inHospital: boolean) {
  const acc = await createAccount(s, { groupId: s.ids.groupId, buckets: inHospital ? [{ bucketId: s.ids.hospitalId }] : [] });
  return { accountId: acc.id, username: acc.username };
}

async function role(s: TestServer) {
  const [row] = await s.db.db.insert(t.roles).values({ bucketId: s.ids.hospitalId, name: unique('矩阵角色'), actions: ['exam_get'] }).returning();
  return { roleId: row!.id };
}

const named = (role: Role) => unique(`矩阵${role}`);

/** CRUD (+ re-sort) rows of one list the organisation keeps. */
function listRows(path: string, param: string, body: (role: Role) => unknown, insert: (s: TestServer) => Promise<number>, order?: (s: TestServer) => Promise<number[]>): MatrixRow[] {
  const base = `/buckets/:id/${path}`;
  const item = (c: { s: TestServer; fixture: { itemId: number } }) => `/buckets/${hospital(c)}/${path}/${c.fixture.itemId}`;
  const setup = async (s: TestServer) => ({ itemId: await insert(s) });
  const rows: MatrixRow[] = [
    { method: 'GET', route: base, path: (c) => `/buckets/${hospital(c)}/${path}`, expect: read() },
    { method: 'POST', route: base, path: (c) => `/buckets/${hospital(c)}/${path}`, body: (c) => body(c.role), expect: write() },
    { method: 'PUT', route: `${base}/:${param}`, setup, path: item, body: (c) => body(c.role), expect: write() },
    { method: 'DELETE', route: `${base}/:${param}`, setup, path: item, expect: write(204) },
  ];
  if (order) {
    rows.push({
      method: 'POST', route: `${base}/resort`, path: (c) => `/buckets/${hospital(c)}/${path}/resort`,
      setup: async (s) => ({ ids: (await order(s)).reverse() }), body: (c) => ({ ids: c.fixture.ids }), expect: write(),
    });
  }
  return rows;
}

const db = (s: TestServer) => s.db.db;
const hid = (s: TestServer) => s.ids.hospitalId;

export const rows: MatrixRow[] = [
  // The organisation.
  { method: 'GET', route: '/buckets/find-one', setup: freshOrg, path: (c) => `/buckets/find-one?token=${c.fixture.token}`, expect: statuses(200) },
  { method: 'GET', route: '/buckets/:id', path: (c) => `/buckets/${hospital(c)}`, expect: signedIn(200) },
  { method: 'PATCH', route: '/buckets/:id', path: (c) => `/buckets/${hospital(c)}`, body: () => ({ isFocused: false }), expect: write() },
  {
    method: 'POST', route: '/buckets/:id/bind-code', setup: freshOrg, path: (c) => `/buckets/${c.fixture.bucketId}/bind-code`,
    body: () => ({ code: unique('BIND').replace(/[^A-Za-z0-9]/g, '') }), expect: write(),
  },
  { method: 'GET', route: '/buckets/:id/upload-token', path: (c) => `/buckets/${hospital(c)}/upload-token`, expect: write() },
  { method: 'POST', route: '/buckets/:id/upload-token/regenerate', setup: freshOrg, path: (c) => `/buckets/${c.fixture.bucketId}/upload-token/regenerate`, expect: write() },

  // Members.
  { method: 'GET', route: '/buckets/:id/members', path: (c) => `/buckets/${hospital(c)}/members`, expect: read() },
  {
    method: 'POST', route: '/buckets/:id/members', setup: (s) => person(s, false), path: (c) => `/buckets/${hospital(c)}/members`,
    body: (c) => ({ username: c.fixture.username, accessLevel: 'member' }), expect: write(),
  },
  {
    method: 'PATCH', route: '/buckets/:id/members/:accountId', setup: (s) => person(s, true), path: (c) => `/buckets/${hospital(c)}/members/${c.fixture.accountId}`,
    body: () => ({ accessLevel: 'collaborator' }), expect: write(),
  },
  { method: 'DELETE', route: '/buckets/:id/members/:accountId', setup: (s) => person(s, true), path: (c) => `/buckets/${hospital(c)}/members/${c.fixture.accountId}`, expect: write(204) },

  // Roles.
  { method: 'GET', route: '/buckets/:id/actions', path: (c) => `/buckets/${hospital(c)}/actions`, expect: read() },
  { method: 'GET', route: '/buckets/:id/roles', path: (c) => `/buckets/${hospital(c)}/roles`, expect: read() },
  { method: 'POST', route: '/buckets/:id/roles', path: (c) => `/buckets/${hospital(c)}/roles`, body: (c) => ({ name: named(c.role), actions: ['exam_get'] }), expect: write() },
  { method: 'PUT', route: '/buckets/:id/roles/:roleId', setup: role, path: (c) => `/buckets/${hospital(c)}/roles/${c.fixture.roleId}`, body: (c) => ({ name: named(c.role), actions: ['report_print'] }), expect: write() },
  { method: 'DELETE', route: '/buckets/:id/roles/:roleId', setup: role, path: (c) => `/buckets/${hospital(c)}/roles/${c.fixture.roleId}`, expect: write(204) },
  { method: 'GET', route: '/buckets/:id/roles/:roleId/users', setup: role, path: (c) => `/buckets/${hospital(c)}/roles/${c.fixture.roleId}/users`, expect: read() },
  {
    method: 'PUT', route: '/buckets/:id/roles/:roleId/users', setup: role, path: (c) => `/buckets/${hospital(c)}/roles/${c.fixture.roleId}/users`,
    body: ({ s }) => ({ accountIds: [s.ids.accounts.tech] }), expect: write(),
  },

  // Dictionaries.
  ...listRows('departments', 'itemId', (r) => ({ name: named(r) }),
    async (s) => (await db(s).insert(t.departments).values({ bucketId: hid(s), name: unique('科室') }).returning())[0]!.id),
  ...listRows('bodyparts', 'itemId', (r) => ({ name: named(r) }),
    async (s) => (await db(s).insert(t.bodyparts).values({ bucketId: hid(s), name: unique('部位') }).returning())[0]!.id),
  ...listRows('doctors', 'itemId', (r) => ({ name: named(r), departmentId: 0 }),
    async (s) => (await db(s).insert(t.doctors).values({ bucketId: hid(s), name: unique('医生') }).returning())[0]!.id),
  ...listRows('critical-values', 'itemId', (r) => ({ name: named(r) }),
    async (s) => (await db(s).insert(t.criticalValues).values({ bucketId: hid(s), name: unique('危急值') }).returning())[0]!.id),
  ...listRows('extensions', 'itemId', (r) => ({ key: unique(`k_${r}`), label: named(r) }),
    async (s) => (await db(s).insert(t.bucketExtensions).values({ bucketId: hid(s), key: unique('key'), label: '扩展' }).returning())[0]!.id),
  ...listRows('extension-packages', 'itemId', (r) => ({ name: named(r), type: 'report', fields: [{ name: '长径', unit: 'mm' }] }),
    async (s) => (await db(s).insert(t.extensionPackages).values({ bucketId: hid(s), name: unique('包'), fields: [{ name: 'a', unit: null }] }).returning())[0]!.id),

  // Ordered lists.
  ...listRows('procedures', 'procedureId', (r) => ({ code: unique(`P${r}`), name: named(r), modality: 'CT', price: 10 }),
    async (s) => (await db(s).insert(t.procedures).values({ bucketId: hid(s), code: unique('PX'), name: '矩阵项目', modality: 'CT', sortOrder: 9999 }).returning())[0]!.id,
    async (s) => (await db(s).select({ id: t.procedures.id }).from(t.procedures).where(eq(t.procedures.bucketId, hid(s)))).map((r) => r.id)),
  ...listRows('steps', 'stepId', (r) => ({ name: named(r), modality: 'CT' }),
    async (s) => (await db(s).insert(t.procedureSteps).values({ bucketId: hid(s), name: '矩阵步骤', modality: 'CT', sortOrder: 9999 }).returning())[0]!.id,
    async (s) => (await db(s).select({ id: t.procedureSteps.id }).from(t.procedureSteps).where(eq(t.procedureSteps.bucketId, hid(s)))).map((r) => r.id)),
  ...listRows('device-groups', 'deviceGroupId', (r) => ({ name: named(r) }),
    async (s) => (await db(s).insert(t.deviceGroups).values({ bucketId: hid(s), name: '矩阵设备组', sortOrder: 9999 }).returning())[0]!.id,
    async (s) => (await db(s).select({ id: t.deviceGroups.id }).from(t.deviceGroups).where(eq(t.deviceGroups.bucketId, hid(s)))).map((r) => r.id)),
  ...listRows('devices', 'deviceId', (r) => ({ name: named(r), modality: 'CT', aeTitle: 'CT01' }),
    async (s) => (await db(s).insert(t.devices).values({ bucketId: hid(s), name: '矩阵设备', modality: 'CT', sortOrder: 9999 }).returning())[0]!.id,
    async (s) => (await db(s).select({ id: t.devices.id }).from(t.devices).where(eq(t.devices.bucketId, hid(s)))).map((r) => r.id)),

  // The DICOM listener as the organisation's admins see it (server/dicom/routes.ts): admins only, reads included.
  { method: 'GET', route: '/buckets/:id/dicom/node', path: (c) => `/buckets/${hospital(c)}/dicom/node`, expect: write() },
  { method: 'GET', route: '/buckets/:id/dicom/settings', path: (c) => `/buckets/${hospital(c)}/dicom/settings`, expect: write() },
  // Off stays off: the row leaves the hospital as it was.
  { method: 'PUT', route: '/buckets/:id/dicom/settings', path: (c) => `/buckets/${hospital(c)}/dicom/settings`, body: () => ({ acceptUnknownSenders: false }), expect: write() },
  { method: 'POST', route: '/buckets/:id/dicom/associations/query', path: (c) => `/buckets/${hospital(c)}/dicom/associations/query`, body: () => ({}), expect: write() },
  // A device without host and port: the admin gets past the permission to DeviceNoAddress (no network in the matrix).
  {
    method: 'POST', route: '/buckets/:id/devices/:deviceId/echo',
    setup: async (s) => ({ deviceId: (await db(s).insert(t.devices).values({ bucketId: hid(s), name: '矩阵回显', modality: 'CT', sortOrder: 9999 }).returning())[0]!.id }),
    path: (c) => `/buckets/${hospital(c)}/devices/${c.fixture.deviceId}/echo`, expect: write(400),
  },
];

