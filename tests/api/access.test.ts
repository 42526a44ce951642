import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIONS, type Action } from '../../contract/actions';
import { assertCan, assertMember, bucketsWith, can, isGroupAdmin, loadAccess, type Access } from '../../server/access/access';
import * as t from '../../server/db/schema';
import { ApiError } from '../../server/http/errors';
import { createAccount, createGroup } from '../support/accounts';
import { startServer, type TestServer } from '../support/server';

/**
 * The permission check every endpoint asks (server/access/access.ts), on the real database with a second
 * group and organisation made here: another organisation's object is 404, a missing action 403.
 */
let s: TestServer;
let other: { groupId: number; bucketId: number };
beforeAll(async () => {
  s = await startServer({ exams: 5 });
  other = await createGroup(s);
});
afterAll(async () => { await s.close(); });

const accessOf = (accountId: number) => loadAccess(s.db.db, accountId);

/** The status an endpoint would answer for assertCan: 200 when allowed. */
function statusOf(access: Access, action: Action, bucketId: number): number {
  try {
    assertCan(access, action, bucketId);
    return 200;
  } catch (err) {
    if (err instanceof ApiError) return err.status;
    throw err;
  }
}

describe('assertCan', () => {
  it('allows an action the account holds in its own organisation', async () => {
    const access = await accessOf(s.ids.accounts.rad1);
    expect(statusOf(access, 'report_upsert', s.ids.hospitalId)).toBe(200);
  });

  it('answers 403 Forbidden for an action missing in an organisation the account belongs to', async () => {
    const access = await accessOf(s.ids.accounts.rad1);
    expect(statusOf(access, 'exam_delete', s.ids.hospitalId)).toBe(403);
    expect(() => assertCan(access, 'exam_delete', s.ids.hospitalId)).toThrow(expect.objectContaining({ code: 'Forbidden' }));
  });

  it('answers 404 NotFound for another organisation\'s object, whatever the action', async () => {
    const access = await accessOf(s.ids.accounts.rad1);
    for (const action of ['exam_get', 'report_upsert', 'exam_delete'] as const) {
      expect(statusOf(access, action, other.bucketId)).toBe(404);
    }
    expect(statusOf(access, 'exam_get', s.ids.expertCentreId)).toBe(404); // same group, not its organisation
    expect(statusOf(access, 'exam_get', 2_000_000_000)).toBe(404);
    expect(() => assertCan(access, 'exam_get', other.bucketId)).toThrow(expect.objectContaining({ code: 'NotFound' }));
  });

  it('answers 404 to the admin of the other organisation for the demo organisations', async () => {
    const foreignAdmin = await createAccount(s, { groupId: other.groupId, groupAdmin: true, buckets: [{ bucketId: other.bucketId, accessLevel: 'admin' }] });
    const access = await accessOf(foreignAdmin.id);
    expect(statusOf(access, 'exam_delete', other.bucketId)).toBe(200);
    expect(statusOf(access, 'exam_get', s.ids.hospitalId)).toBe(404);
    expect(statusOf(access, 'exam_get', s.ids.expertCentreId)).toBe(404);
    expect(isGroupAdmin(access, other.groupId)).toBe(true);
    expect(isGroupAdmin(access, s.ids.groupId)).toBe(false);
  });

  it('lets the demo admin do everything in the demo organisations and nothing in the other one', async () => {
    const access = await accessOf(s.ids.accounts.admin);
    expect(statusOf(access, 'exam_delete', s.ids.hospitalId)).toBe(200);
    expect(statusOf(access, 'payment_refund', s.ids.expertCentreId)).toBe(200);
    expect(statusOf(access, 'exam_get', other.bucketId)).toBe(404);
    expect(isGroupAdmin(access, s.ids.groupId)).toBe(true);
    expect(isGroupAdmin(access, other.groupId)).toBe(false);
  });
});

describe('access levels (core §6)', () => {
  it('gives a member exactly its roles\' actions, and a member without a role none (403 everywhere)', async () => {
    const withRole = await createAccount(s, { buckets: [{ bucketId: other.bucketId, actions: ['exam_get', 'registry_create'] }] });
    const without = await createAccount(s, { buckets: [{ bucketId: other.bucketId }] });
    expect([...(await accessOf(withRole.id)).buckets.get(other.bucketId)!.actions].sort()).toEqual(['exam_get', 'registry_create']);
    const bare = await accessOf(without.id);
    expect(bare.buckets.get(other.bucketId)!.actions.size).toBe(0);
    expect(statusOf(bare, 'exam_get', other.bucketId)).toBe(403);
    expect(() => assertMember(bare, other.bucketId)).not.toThrow();
  });

  it('gives a collaborator only the report actions of its roles', async () => {
    const acc = await createAccount(s, { buckets: [{ bucketId: other.bucketId, accessLevel: 'collaborator', actions: ['exam_get', 'report_upsert', 'report_print', 'registry_create'] }] });
    const access = await accessOf(acc.id);
    expect([...access.buckets.get(other.bucketId)!.actions].sort()).toEqual(['report_print', 'report_upsert']);
    expect(statusOf(access, 'exam_get', other.bucketId)).toBe(403);
  });

  it('gives a contentManager every exam, attachment and report action plus its roles\' actions', async () => {
    const acc = await createAccount(s, { buckets: [{ bucketId: other.bucketId, accessLevel: 'contentManager', actions: ['registry_create'] }] });
    const actions = (await accessOf(acc.id)).buckets.get(other.bucketId)!.actions;
    expect([...actions].sort()).toEqual([...ACTIONS.exam, ...ACTIONS.attachment, ...ACTIONS.report, 'registry_create'].sort());
  });

  it('keeps roles in their organisation: a role of one organisation grants nothing in another', async () => {
    const acc = await createAccount(s, { buckets: [{ bucketId: s.ids.hospitalId, actions: ['exam_delete'] }, { bucketId: other.bucketId }] });
    const access = await accessOf(acc.id);
    expect(can(access, 'exam_delete', s.ids.hospitalId)).toBe(true);
    expect(can(access, 'exam_delete', other.bucketId)).toBe(false);
  });

  it('grants nothing from a role in an organisation the account is not a member of', async () => {
    const acc = await createAccount(s);
    const [role] = await s.db.db.insert(t.roles).values({ bucketId: other.bucketId, name: 'orphan', actions: ['exam_get'] }).returning();
    await s.db.db.insert(t.roleUsers).values({ roleId: role!.id, accountId: acc.id });
    const access = await accessOf(acc.id);
    expect(access.buckets.size).toBe(0);
    expect(statusOf(access, 'exam_get', other.bucketId)).toBe(404);
  });

  it('ignores action names a role holds that the catalogue does not know', async () => {
    const acc = await createAccount(s, { buckets: [{ bucketId: other.bucketId, actions: ['exam_get', 'root_everything' as Action] }] });
    expect([...(await accessOf(acc.id)).buckets.get(other.bucketId)!.actions]).toEqual(['exam_get']);
  });
});

describe('bucketsWith (the scope of list queries)', () => {
  it('lists only the account\'s own organisations holding the action', async () => {
    expect(bucketsWith(await accessOf(s.ids.accounts.admin), 'exam_get').sort()).toEqual([s.ids.hospitalId, s.ids.expertCentreId].sort());
    expect(bucketsWith(await accessOf(s.ids.accounts.rad1), 'exam_get')).toEqual([s.ids.hospitalId]);
    expect(bucketsWith(await accessOf(s.ids.accounts.registrar), 'exam_get')).toEqual([]);
    expect(bucketsWith(await accessOf(s.ids.accounts.expert), 'study_package')).toEqual([s.ids.expertCentreId]);
  });
});
