import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditTrail } from '../../server/audit/record';
import * as t from '../../server/db/schema';
import { createAccount, createGroup, joinGroup, unique } from '../support/accounts';
import { startWithLogins, type TestServer } from '../support/server';

/**
 * A group's members (areas §6 "only admins see the full member list", §7 "Members: list, query, invite, create-account,
 * update, delete, quit", §8 "the member may already exist"): who sees whom, the page query, adding and removing
 * members (with their organisation memberships and roles in the group), and the last admin who must stay.
 */
let s: TestServer;
let admin: string;
let rad1: string;
beforeAll(async () => { ({ s, tokens: [admin, rad1] } = await startWithLogins({ exams: 5 }, 'admin', 'rad1')); });
afterAll(async () => { await s.close(); });

const members = (groupId: number, token: string) => s.request('GET', `groups/${groupId}/members`, { token });
const ids = (list: { accountId: number }[]) => list.map((m) => m.accountId).sort((a, b) => a - b);

/** A group of its own (made straight in the database) with one admin who may sign in. */
async function ownGroup() {
  const g = await createGroup(s);
  const owner = await createAccount(s, { groupId: g.groupId, groupAdmin: true, buckets: [{ bucketId: g.bucketId, accessLevel: 'admin' }] });
  return { ...g, owner, token: await s.login(owner.username) };
}

describe('GET groups/{id}/members', () => {
  it('shows admins the whole list with organisations, and a plain member only the admins and themself', async () => {
    const all = (await members(s.ids.groupId, admin)).body;
    const rows = await s.db.db.select().from(t.groupMembers).where(eq(t.groupMembers.groupId, s.ids.groupId));
    expect(ids(all)).toEqual(rows.map((r) => r.accountId).sort((a, b) => a - b));
    const adminRow = all.find((m: { accountId: number }) => m.accountId === s.ids.accounts.admin);
    expect(adminRow).toMatchObject({ username: 'admin', accessLevel: 1, status: 0 });
    expect(adminRow.organizations.map((o: { bucketId: number }) => o.bucketId).sort()).toEqual([s.ids.hospitalId, s.ids.expertCentreId].sort());
    const mine = (await members(s.ids.groupId, rad1)).body;
    expect(ids(mine)).toEqual([s.ids.accounts.admin, s.ids.accounts.rad1].sort((a, b) => a - b));
  });

  it('answers 404 outside the group and 401 anonymously', async () => {
    const other = await ownGroup();
    expect((await members(s.ids.groupId, other.token)).status).toBe(404);
    expect((await members(other.groupId, admin)).status).toBe(404);
    expect((await s.request('GET', `groups/${s.ids.groupId}/members`)).status).toBe(401);
  });
});

describe('POST groups/{id}/members/query', () => {
  it('filters by username, name and access level and sorts, for group admins', async () => {
    const q = (body: unknown) => s.request('POST', `groups/${s.ids.groupId}/members/query`, { token: admin, body });
    const rads = await q({ filters: [{ field: 'username', operator: 'like', values: ['rad'] }], sorts: [{ field: 'username', direction: 'desc' }] });
    expect(rads.status).toBe(200);
    expect(rads.body.items.map((m: { username: string }) => m.username)).toEqual(['rad2', 'rad1']);
    expect(rads.body.total).toBe(2);
    const admins = await q({ filters: [{ field: 'accessLevel', operator: 'equal', values: [1] }] });
    expect(admins.body.items.every((m: { accessLevel: number }) => m.accessLevel === 1)).toBe(true);
    expect(admins.body.items.map((m: { username: string }) => m.username)).toContain('admin');
    const byName = await q({ filters: [{ field: 'name', operator: 'equal', values: ['刘志远'] }] });
    expect(byName.body.items.map((m: { username: string }) => m.username)).toEqual(['expert']);
    const paged = await q({ limit: 2, skip: 1, sorts: [{ field: 'lastLoginAt', direction: 'asc' }] });
    expect([paged.body.items.length, paged.body.total > 2]).toEqual([2, true]);
  });

  it('refuses filters and sorts off the whitelist with ParamsError naming them, and plain members with 403', async () => {
    const q = (body: unknown, token = admin) => s.request('POST', `groups/${s.ids.groupId}/members/query`, { token, body });
    const field = await q({ filters: [{ field: 'passwordHash', operator: 'equal', values: ['x'] }] });
    expect([field.status, field.body.code, field.body.details.fields[0].path]).toEqual([400, 'ParamsError', 'filters.0.field']);
    expect((await q({ filters: [{ field: 'accessLevel', operator: 'equal', values: [2] }] })).body.details.fields[0].path).toBe('filters.0.values');
    expect((await q({ filters: [{ field: 'name', operator: 'gt', values: ['a'] }] })).body.details.fields[0].path).toBe('filters.0.operator');
    expect((await q({ sorts: [{ field: 'status', direction: 'asc' }] })).body.details.fields[0].path).toBe('sorts.0.field');
    expect((await q({ limit: 0 })).status).toBe(400);
    expect((await q({}, rad1)).status).toBe(403);
  });
});

describe('POST groups/{id}/members/invite', () => {
  it('adds an existing account; a second invite answers MemberExists; an unknown username UnknownAccount', async () => {
    const acc = await createAccount(s);
    const invite = (body: unknown, token = admin) => s.request('POST', `groups/${s.ids.groupId}/members/invite`, { token, body });
    const res = await invite({ username: acc.username.toUpperCase(), accessLevel: 0 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ accountId: acc.id, accessLevel: 0, organizations: [] });
    const again = await invite({ username: acc.username });
    expect([again.status, again.body.code]).toEqual([409, 'MemberExists']);
    const unknown = await invite({ username: 'nobody-at-all' });
    expect([unknown.status, unknown.body.code]).toEqual([400, 'UnknownAccount']);
    for (const body of [{}, { username: '' }, { username: acc.username, accessLevel: 2 }, { username: acc.username, accessLevel: 'admin' }]) {
      expect((await invite(body)).body.code).toBe('ParamsError');
    }
    expect((await invite({ username: (await createAccount(s)).username }, rad1)).status).toBe(403);
    expect((await auditTrail(s.db.db, 'group-member', `${s.ids.groupId}:${acc.id}`)).map((e) => e.action)).toEqual(['member-invite']);
  });

  it('lets an account be invited into a second group, but not by an admin of another group (404)', async () => {
    const other = await ownGroup();
    const res = await s.request('POST', `groups/${other.groupId}/members/invite`, { token: other.token, body: { username: 'rad2' } });
    expect(res.status).toBe(200);
    const refused = await s.request('POST', `groups/${s.ids.groupId}/members/invite`, { token: other.token, body: { username: other.owner.username } });
    expect(refused.status).toBe(404);
  });
});

describe('POST groups/{id}/members/create-account', () => {
  it('creates an account that can sign in, in the group and the organisations named', async () => {
    const username = unique('newdoc');
    const res = await s.request('POST', `groups/${s.ids.groupId}/members/create-account`, {
      token: admin, body: { username, name: '新医生', password: 'Abc12345', accessLevel: 0, bucketIds: [s.ids.hospitalId] },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ username, name: '新医生', accessLevel: 0, organizations: [{ bucketId: s.ids.hospitalId, accessLevel: 'member' }] });
    const token = await s.login(username, 'Abc12345');
    expect((await s.request('GET', 'groups/mine', { token })).body.map((g: { id: number }) => g.id)).toEqual([s.ids.groupId]);
    const trail = await auditTrail(s.db.db, 'group-member', `${s.ids.groupId}:${res.body.accountId}`);
    expect(JSON.stringify(trail)).not.toContain('Abc12345');
  });

  it('refuses a weak password, a taken username, organisations of another group and bad input', async () => {
    const create = (body: Record<string, unknown>) => s.request('POST', `groups/${s.ids.groupId}/members/create-account`, {
      token: admin, body: { username: unique('nd'), name: 'N', password: 'Abc12345', ...body },
    });
    expect((await create({ password: 'abcdefgh' })).body.code).toBe('PasswordTooSimple');
    expect((await create({ password: 'a1' })).body.code).toBe('PasswordTooSimple');
    const taken = await create({ username: 'RAD1' });
    expect([taken.status, taken.body.code]).toEqual([409, 'UsernameTaken']);
    const other = await createGroup(s);
    const outside = await create({ bucketIds: [other.bucketId] });
    expect([outside.status, outside.body.code]).toEqual([400, 'BucketNotInGroup']);
    for (const body of [{ username: 'a b' }, { username: 'ab' }, { name: '' }, { accessLevel: 3 }, { bucketIds: ['x'] }, { password: undefined }]) {
      const res = await create(body);
      expect([JSON.stringify(body), res.status, res.body.code]).toEqual([JSON.stringify(body), 400, 'ParamsError']);
    }
    expect((await s.request('POST', `groups/${s.ids.groupId}/members/create-account`, { token: rad1, body: { username: unique('x'), name: 'N', password: 'Abc12345' } })).status).toBe(403);
  });
});

describe('PATCH groups/{id}/members/{accountId}', () => {
  it('promotes and demotes; the last admin cannot demote themself', async () => {
    const g = await ownGroup();
    const member = await createAccount(s, { groupId: g.groupId });
    const patch = (accountId: number, accessLevel: number, token = g.token) => s.request('PATCH', `groups/${g.groupId}/members/${accountId}`, { token, body: { accessLevel } });
    const last = await patch(g.owner.id, 0);
    expect([last.status, last.body.code]).toEqual([409, 'LastGroupAdmin']);
    expect((await patch(member.id, 1)).body).toMatchObject({ accountId: member.id, accessLevel: 1 });
    expect((await patch(g.owner.id, 0)).body).toMatchObject({ accountId: g.owner.id, accessLevel: 0 });
    // The owner is a plain member now: the new admin's group.
    expect((await patch(member.id, 0)).status).toBe(403);
    const memberToken = await s.login(member.username);
    expect((await patch(member.id, 0, memberToken)).body.code).toBe('LastGroupAdmin');
    expect((await patch(999999, 1, memberToken)).status).toBe(404);
    expect((await s.request('PATCH', `groups/${g.groupId}/members/${g.owner.id}`, { token: memberToken, body: { accessLevel: 5 } })).body.code).toBe('ParamsError');
  });
});

describe('DELETE groups/{id}/members/{accountId}', () => {
  it('removes the member with their organisation memberships and roles in the group, and their place in rules and notifications', async () => {
    const other = await createGroup(s);
    const acc = await createAccount(s, { groupId: s.ids.groupId, buckets: [{ bucketId: s.ids.hospitalId, actions: ['report_upsert'] }, { bucketId: other.bucketId, actions: ['exam_get'] }] });
    await joinGroup(s, acc.id, other.groupId);
    const [rule] = await s.db.db.insert(t.assignRules).values({ groupId: s.ids.groupId, name: 'R', bucketId: s.ids.hospitalId, reporterId: acc.id, memberIds: [s.ids.accounts.rad1, acc.id] }).returning();
    await s.db.db.insert(t.notificationSettings).values({ groupId: s.ids.groupId, bucketId: s.ids.hospitalId, type: 'exam', accountIds: [acc.id, s.ids.accounts.rad2] });

    expect((await s.request('DELETE', `groups/${s.ids.groupId}/members/${acc.id}`, { token: rad1 })).status).toBe(403);
    const res = await s.request('DELETE', `groups/${s.ids.groupId}/members/${acc.id}`, { token: admin });
    expect(res.status).toBe(204);

    const db = s.db.db;
    expect((await db.select().from(t.groupMembers).where(eq(t.groupMembers.accountId, acc.id))).map((r) => r.groupId)).toEqual([other.groupId]);
    expect((await db.select().from(t.bucketMembers).where(eq(t.bucketMembers.accountId, acc.id))).map((r) => r.bucketId)).toEqual([other.bucketId]);
    const roleBuckets = await db.select({ bucketId: t.roles.bucketId }).from(t.roleUsers).innerJoin(t.roles, eq(t.roles.id, t.roleUsers.roleId)).where(eq(t.roleUsers.accountId, acc.id));
    expect(roleBuckets.map((r) => r.bucketId)).toEqual([other.bucketId]);
    const [ruleAfter] = await db.select().from(t.assignRules).where(eq(t.assignRules.id, rule!.id));
    expect([ruleAfter!.reporterId, ruleAfter!.memberIds]).toEqual([null, [s.ids.accounts.rad1]]);
    const [note] = await db.select().from(t.notificationSettings).where(and(eq(t.notificationSettings.bucketId, s.ids.hospitalId), eq(t.notificationSettings.type, 'exam')));
    expect(note!.accountIds).toEqual([s.ids.accounts.rad2]);
    // The removed account no longer sees the hospital's exams.
    const token = await s.login(acc.username);
    expect((await s.request('GET', `groups/${s.ids.groupId}`, { token })).status).toBe(404);
    expect((await s.request('DELETE', `groups/${s.ids.groupId}/members/${acc.id}`, { token: admin })).status).toBe(404);
    expect((await auditTrail(db, 'group-member', `${s.ids.groupId}:${acc.id}`)).at(-1)).toMatchObject({ action: 'member-remove', before: { accessLevel: 0 } });
    await db.delete(t.notificationSettings).where(inArray(t.notificationSettings.bucketId, [s.ids.hospitalId]));
    await db.delete(t.assignRules).where(eq(t.assignRules.id, rule!.id));
  });

  it('refuses to remove the last admin, and lets an admin remove another admin', async () => {
    const g = await ownGroup();
    const last = await s.request('DELETE', `groups/${g.groupId}/members/${g.owner.id}`, { token: g.token });
    expect([last.status, last.body.code]).toEqual([409, 'LastGroupAdmin']);
    const second = await createAccount(s, { groupId: g.groupId, groupAdmin: true });
    expect((await s.request('DELETE', `groups/${g.groupId}/members/${second.id}`, { token: g.token })).status).toBe(204);
    expect((await s.request('DELETE', `groups/${g.groupId}/members/${g.owner.id}`, { token: await s.login(second.username) })).status).toBe(404);
  });
});

describe('POST groups/{id}/quit', () => {
  it('lets a member leave (with their organisations in the group); the last admin cannot', async () => {
    const g = await ownGroup();
    const member = await createAccount(s, { groupId: g.groupId, buckets: [{ bucketId: g.bucketId, actions: ['exam_get'] }] });
    const memberToken = await s.login(member.username);
    expect((await s.request('POST', `groups/${g.groupId}/quit`, { token: memberToken })).status).toBe(204);
    expect(await s.db.db.select().from(t.bucketMembers).where(eq(t.bucketMembers.accountId, member.id))).toEqual([]);
    expect(await s.db.db.select().from(t.roleUsers).where(eq(t.roleUsers.accountId, member.id))).toEqual([]);
    expect((await s.request('POST', `groups/${g.groupId}/quit`, { token: memberToken })).status).toBe(404);
    const last = await s.request('POST', `groups/${g.groupId}/quit`, { token: g.token });
    expect([last.status, last.body.code]).toEqual([409, 'LastGroupAdmin']);
    expect((await s.request('POST', `groups/${g.groupId}/quit`)).status).toBe(401);
  });

  it('keeps one admin when two admins step down at the same moment', async () => {
    const g = await ownGroup();
    const second = await createAccount(s, { groupId: g.groupId, groupAdmin: true });
    const secondToken = await s.login(second.username);
    const results = await Promise.all([
      s.request('POST', `groups/${g.groupId}/quit`, { token: g.token }),
      s.request('POST', `groups/${g.groupId}/quit`, { token: secondToken }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([204, 409]);
    const admins = await s.db.db.select().from(t.groupMembers).where(and(eq(t.groupMembers.groupId, g.groupId), eq(t.groupMembers.accessLevel, 1)));
    expect(admins).toHaveLength(1);
  });
});
