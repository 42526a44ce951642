import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_ACTIONS } from '../../contract/actions';
import type { ActionCategory, Role } from '../../contract/organizations';
import * as t from '../../server/db/schema';
import { auditTrail } from '../../server/audit/record';
import { createGroup } from '../support/accounts';
import { tokenOf } from '../support/reports';
import { startServer, type TestServer } from '../support/server';

/**
 * Custom roles (areas §6): the action catalogue, names unique in the organisation, only known actions, mappings to
 * members only, and a change that counts from the member's next request.
 */
let s: TestServer;
let orgadmin: string;
let hospital: number;
const roles = async () => (await s.request('GET', `buckets/${hospital}/roles`, { token: orgadmin })).body as Role[];

beforeAll(async () => {
  s = await startServer({ exams: 10 });
  orgadmin = await tokenOf(s, 'orgadmin');
  hospital = s.ids.hospitalId;
});
afterAll(async () => s?.close());

describe('the action catalogue', () => {
  it('lists every action once, by category', async () => {
    const res = await s.request('GET', `buckets/${hospital}/actions`, { token: await tokenOf(s, 'rad1') });
    expect(res.status).toBe(200);
    const catalogue = res.body as ActionCategory[];
    expect(catalogue.map((c) => c.category)).toEqual(['exam', 'attachment', 'template', 'report', 'registry', 'statistics', 'consultation', 'quality', 'order', 'queue', 'other']);
    expect(catalogue.flatMap((c) => c.actions).sort()).toEqual([...ALL_ACTIONS].sort());
  });
});

describe('roles', () => {
  it('creates, renames and deletes a role, with its audit trail', async () => {
    const created = await s.request('POST', `buckets/${hospital}/roles`, { token: orgadmin, body: { name: '质控员', actions: ['quality_upsert', 'quality_upsert', 'exam_get'] } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const role = created.body as Role;
    expect(role).toMatchObject({ name: '质控员', bucketId: hospital, accountIds: [] });
    expect([...role.actions].sort()).toEqual(['exam_get', 'quality_upsert']);
    const renamed = await s.request('PUT', `buckets/${hospital}/roles/${role.id}`, { token: orgadmin, body: { name: '质控', actions: ['quality_delete'] } });
    expect(renamed.body).toMatchObject({ name: '质控', actions: ['quality_delete'] });
    expect((await s.request('DELETE', `buckets/${hospital}/roles/${role.id}`, { token: orgadmin })).status).toBe(204);
    expect((await roles()).some((r) => r.id === role.id)).toBe(false);
    expect((await s.request('DELETE', `buckets/${hospital}/roles/${role.id}`, { token: orgadmin })).status).toBe(404);
    expect((await auditTrail(s.db.db, 'role', role.id)).map((e) => e.action)).toEqual(['role-create', 'role-update', 'role-delete']);
  });

  it('refuses unknown actions with UnknownAction, naming them, and writes nothing', async () => {
    const before = (await roles()).length;
    const res = await s.request('POST', `buckets/${hospital}/roles`, { token: orgadmin, body: { name: '坏角色', actions: ['exam_get', 'fly_to_moon', 'EXAM_GET'] } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'UnknownAction', details: { actions: ['fly_to_moon', 'EXAM_GET'] } });
    const [first] = await roles();
    const put = await s.request('PUT', `buckets/${hospital}/roles/${first!.id}`, { token: orgadmin, body: { name: first!.name, actions: ['admin'] } });
    expect(put.body.code).toBe('UnknownAction');
    expect((await roles()).length).toBe(before);
    expect((await roles())[0]!.actions).toEqual(first!.actions);
  });

  it('keeps names unique in the organisation, in any case', async () => {
    const a = (await s.request('POST', `buckets/${hospital}/roles`, { token: orgadmin, body: { name: 'Reader', actions: [] } })).body as Role;
    const dup = await s.request('POST', `buckets/${hospital}/roles`, { token: orgadmin, body: { name: 'reader', actions: [] } });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('DuplicateName');
    const b = (await s.request('POST', `buckets/${hospital}/roles`, { token: orgadmin, body: { name: 'Writer', actions: [] } })).body as Role;
    expect((await s.request('PUT', `buckets/${hospital}/roles/${b.id}`, { token: orgadmin, body: { name: 'READER', actions: [] } })).body.code).toBe('DuplicateName');
    // Renaming a role to its own name (another case) is fine, and another organisation may use the name.
    expect((await s.request('PUT', `buckets/${hospital}/roles/${a.id}`, { token: orgadmin, body: { name: 'READER', actions: [] } })).status).toBe(200);
    const admin = await tokenOf(s, 'admin');
    expect((await s.request('POST', `buckets/${s.ids.expertCentreId}/roles`, { token: admin, body: { name: 'Reader', actions: [] } })).status).toBe(200);
  });

  it('answers bad input with ParamsError', async () => {
    for (const body of [{}, { name: '', actions: [] }, { name: 'x'.repeat(65), actions: [] }, { name: 'ok' }, { name: 'ok', actions: 'exam_get' }, { name: 'ok', actions: [1] }]) {
      const res = await s.request('POST', `buckets/${hospital}/roles`, { token: orgadmin, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('ParamsError');
    }
    expect((await s.request('PUT', `buckets/${hospital}/roles/abc`, { token: orgadmin, body: { name: 'x', actions: [] } })).status).toBe(400);
  });

  it('refuses a role of another organisation through this one (404), never changing it', async () => {
    const admin = await tokenOf(s, 'admin');
    const [centreRole] = await s.db.db.select().from(t.roles).where(eq(t.roles.bucketId, s.ids.expertCentreId));
    expect((await s.request('PUT', `buckets/${hospital}/roles/${centreRole!.id}`, { token: admin, body: { name: '改', actions: [] } })).status).toBe(404);
    expect((await s.request('DELETE', `buckets/${hospital}/roles/${centreRole!.id}`, { token: admin })).status).toBe(404);
    expect((await s.request('PUT', `buckets/${hospital}/roles/${centreRole!.id}/users`, { token: admin, body: { accountIds: [] } })).status).toBe(404);
    expect((await s.request('GET', `buckets/${hospital}/roles/${centreRole!.id}/users`, { token: admin })).status).toBe(404);
    const [after] = await s.db.db.select().from(t.roles).where(eq(t.roles.id, centreRole!.id));
    expect(after).toEqual(centreRole);
    const other = await createGroup(s);
    expect((await s.request('GET', `buckets/${other.bucketId}/roles`, { token: admin })).status).toBe(404);
  });
});

describe('role users', () => {
  it('maps members only: an account outside the organisation is refused with NotBucketMember and nothing changes', async () => {
    const role = (await s.request('POST', `buckets/${hospital}/roles`, { token: orgadmin, body: { name: '映射', actions: ['exam_get'] } })).body as Role;
    const { rad1, tech, expert } = s.ids.accounts;
    const ok = await s.request('PUT', `buckets/${hospital}/roles/${role.id}/users`, { token: orgadmin, body: { accountIds: [tech, rad1, tech] } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toEqual({ roleId: role.id, accountIds: [rad1, tech].sort((a, b) => a - b) });
    const bad = await s.request('PUT', `buckets/${hospital}/roles/${role.id}/users`, { token: orgadmin, body: { accountIds: [rad1, expert, 999999] } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'NotBucketMember', details: { accountIds: [expert, 999999] } });
    const view = await s.request('GET', `buckets/${hospital}/roles/${role.id}/users`, { token: await tokenOf(s, 'rad2') });
    expect(view.body.accountIds).toEqual([rad1, tech].sort((a, b) => a - b));
    expect((await s.request('PUT', `buckets/${hospital}/roles/${role.id}/users`, { token: await tokenOf(s, 'rad2'), body: { accountIds: [] } })).status).toBe(403);
    expect((await s.request('PUT', `buckets/${hospital}/roles/${role.id}/users`, { token: orgadmin, body: { accountIds: [0] } })).body.code).toBe('ParamsError');
  });

  it('applies a permission change at the member\'s next request', async () => {
    const rad2 = await tokenOf(s, 'rad2');
    const rad2Id = s.ids.accounts.rad2;
    const perms = async () => (await s.request('GET', 'accounts/me/permissions', { token: rad2 })).body[String(hospital)].actions as string[];
    expect(await perms()).toContain('report_upsert');
    const [exam0] = await s.db.db.select({ id: t.exams.id }).from(t.exams).where(eq(t.exams.bucketId, hospital)).limit(1);
    expect([200, 201]).toContain((await s.request('POST', `exams/${exam0!.id}/reports`, { token: rad2 })).status);
    expect((await s.request('POST', 'registry', { token: rad2, body: registration() })).status).toBe(403);

    // rad2 leaves every role it has, then gets a new role with exactly two actions.
    for (const r of await roles()) {
      if (r.accountIds.includes(rad2Id)) {
        const res = await s.request('PUT', `buckets/${hospital}/roles/${r.id}/users`, { token: orgadmin, body: { accountIds: r.accountIds.filter((a) => a !== rad2Id) } });
        expect(res.status).toBe(200);
      }
    }
    const role = (await s.request('POST', `buckets/${hospital}/roles`, { token: orgadmin, body: { name: '登记加叫号', actions: ['registry_create', 'calling_call'] } })).body as Role;
    expect((await s.request('PUT', `buckets/${hospital}/roles/${role.id}/users`, { token: orgadmin, body: { accountIds: [rad2Id] } })).status).toBe(200);

    // Same token, next request: exactly the two actions.
    expect((await perms()).sort()).toEqual(['calling_call', 'registry_create']);
    const [exam] = await s.db.db.select({ id: t.exams.id }).from(t.exams).where(eq(t.exams.bucketId, hospital)).limit(1);
    const report = await s.request('POST', `exams/${exam!.id}/reports`, { token: rad2 });
    expect(report.status, JSON.stringify(report.body)).toBe(403);
    const registry = await s.request('POST', 'registry', { token: rad2, body: registration() });
    expect(registry.status, JSON.stringify(registry.body)).toBe(200);

    // And back: the role's actions change, the next request sees it.
    await s.request('PUT', `buckets/${hospital}/roles/${role.id}`, { token: orgadmin, body: { name: '登记加叫号', actions: ['calling_call'] } });
    expect(await perms()).toEqual(['calling_call']);
    expect((await s.request('POST', 'registry', { token: rad2, body: registration() })).status).toBe(403);
  });
});

/** A registration of one CT exam at the hospital today (contract/registry.ts). */
function registration() {
  const when = new Date(s.clock.now().getTime() + 3600_000).toISOString();
  return {
    bucketId: hospital,
    patient: { patientName: '权限测试', patientGender: 'F', patientSource: 'O', outpatientId: 'MZ0001', phone: '13800138000', age: 40, ageUnit: 'Y' },
    exams: [{ modality: 'CT', scheduledTime: when }],
  };
}
