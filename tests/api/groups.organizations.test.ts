import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditTrail } from '../../server/audit/record';
import * as t from '../../server/db/schema';
import { pickAssignee, pickRule } from '../../server/exams/assign';
import { createAccount, createGroup, unique } from '../support/accounts';
import { startWithLogins, type TestServer } from '../support/server';
import { CT_SERIES_STUDY, initUpload } from '../support/uploads';

/**
 * A group's organisations (areas §5 code rules, §6 private organisations, §7 "Organisations: list, query, add, delete"),
 * its assign rules (CRUD, and applied to arriving exams), and the lists its settings name: rads, expert buckets,
 * consultation targets, registry desks, notifications (at most 2 users per organisation and type).
 */
let s: TestServer;
let admin: string;
let rad1: string;
beforeAll(async () => { ({ s, tokens: [admin, rad1] } = await startWithLogins({ exams: 5 }, 'admin', 'rad1')); });
afterAll(async () => { await s.close(); });

const code = (prefix = 'ORG') => unique(prefix).replace(/[^A-Za-z0-9]/g, '');
const orgs = (token: string) => s.request('GET', `groups/${s.ids.groupId}/organizations`, { token });
const addOrg = (body: Record<string, unknown>, token = admin, groupId = s.ids.groupId) =>
  s.request('POST', `groups/${groupId}/organizations`, { token, body: { name: '新机构', code: code(), ...body } });

describe('organisations of a group', () => {
  it('creates one with a fresh upload token, its creator as admin, and an audit event', async () => {
    const c = code('Good');
    const res = await addOrg({ code: c, name: '新分院' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ groupId: s.ids.groupId, name: '新分院', code: c, isPrivate: false, codeBound: false, memberCount: 1 });
    const [row] = await s.db.db.select().from(t.buckets).where(eq(t.buckets.id, res.body.id));
    expect(row!.publicUploadToken).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const [other] = await s.db.db.select().from(t.buckets).where(eq(t.buckets.id, s.ids.hospitalId));
    expect(row!.publicUploadToken).not.toBe(other!.publicUploadToken);
    const members = await s.db.db.select().from(t.bucketMembers).where(eq(t.bucketMembers.bucketId, res.body.id));
    expect(members.map((m) => [m.accountId, m.accessLevel])).toEqual([[s.ids.accounts.admin, 'admin']]);
    expect((await auditTrail(s.db.db, 'bucket', res.body.id)).map((e) => e.action)).toEqual(['organization-create']);
    expect(JSON.stringify(res.body)).not.toContain(row!.publicUploadToken!);
  });

  it('applies the code rule: 4 to 35 letters, digits, - or _ (OrganizationCodeInvalid), unique in any case (OrganizationCodeTaken)', async () => {
    for (const bad of ['abc', 'x'.repeat(36), 'has space', '-badcode', 'badcode_', '代码代码代码', 'abc!']) {
      const res = await addOrg({ code: bad });
      expect([bad, res.status, res.body.code]).toEqual([bad, 400, 'OrganizationCodeInvalid']);
    }
    expect((await addOrg({ code: 'abcd' })).status).toBe(201);
    expect((await addOrg({ code: 'CITY9-RAD_2' })).status).toBe(201);
    expect((await addOrg({ code: 'y'.repeat(35) })).status).toBe(201);
    const taken = await addOrg({ code: 'ABCD' });
    expect([taken.status, taken.body.code]).toEqual([409, 'OrganizationCodeTaken']);
    // Unique across every group's organisations.
    const other = await createGroup(s, unique('elsewhere'));
    const [otherRow] = await s.db.db.select().from(t.buckets).where(eq(t.buckets.id, other.bucketId));
    expect((await addOrg({ code: otherRow!.code.toLowerCase() })).body.code).toBe('OrganizationCodeTaken');
  });

  it('refuses bad input with ParamsError, plain members with 403 and other groups with 404', async () => {
    for (const body of [{ name: '' }, { name: 'x'.repeat(129) }, { code: '' }, { isPrivate: 'yes' }, { code: 12345 }]) {
      const res = await addOrg(body);
      expect([JSON.stringify(body), res.status, res.body.code]).toEqual([JSON.stringify(body), 400, 'ParamsError']);
    }
    expect((await addOrg({}, await s.login('orgadmin'))).status).toBe(403);
    const other = await createGroup(s);
    expect((await addOrg({}, admin, other.groupId)).status).toBe(404);
  });

  it('shows private organisations only to group admins and the organisation\'s own members', async () => {
    const priv = (await addOrg({ name: '私有机构', isPrivate: true })).body;
    const inside = await createAccount(s, { groupId: s.ids.groupId, buckets: [{ bucketId: priv.id }] });
    const names = async (token: string) => (await orgs(token)).body.map((o: { id: number }) => o.id);
    expect(await names(admin)).toContain(priv.id);
    expect(await names(await s.login(inside.username))).toContain(priv.id);
    expect(await names(rad1)).not.toContain(priv.id);
    expect(await names(rad1)).toContain(s.ids.hospitalId);
    const query = (token: string, body: unknown) => s.request('POST', `groups/${s.ids.groupId}/organizations/query`, { token, body });
    const privates = await query(admin, { filters: [{ field: 'isPrivate', operator: 'equal', values: [true] }] });
    expect(privates.body.items.map((o: { id: number }) => o.id)).toContain(priv.id);
    expect(privates.body.items.every((o: { isPrivate: boolean }) => o.isPrivate)).toBe(true);
    expect((await query(rad1, { filters: [{ field: 'isPrivate', operator: 'equal', values: [true] }] })).body).toEqual({ items: [], total: 0 });
    const byCode = await query(rad1, { filters: [{ field: 'code', operator: 'equal', values: ['CITY1-RAD'] }] });
    expect(byCode.body.items.map((o: { id: number }) => o.id)).toEqual([s.ids.hospitalId]);
    const sorted = await query(admin, { sorts: [{ field: 'code', direction: 'asc' }], limit: 3 });
    const codes = sorted.body.items.map((o: { code: string }) => o.code);
    expect(codes).toEqual([...codes].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect((await query(admin, { filters: [{ field: 'publicUploadToken', operator: 'equal', values: ['x'] }] })).body.details.fields[0].path).toBe('filters.0.field');
    expect((await query(admin, { filters: [{ field: 'isPrivate', operator: 'equal', values: ['yes'] }] })).body.details.fields[0].path).toBe('filters.0.values');
  });

  it('deletes an organisation without exams, and refuses one with exams (BucketHasExams)', async () => {
    const org = (await addOrg({})).body;
    await s.db.db.update(t.groups).set({ defaultExpertBucketId: org.id }).where(eq(t.groups.id, s.ids.groupId));
    expect((await s.request('DELETE', `groups/${s.ids.groupId}/organizations/${org.id}`, { token: rad1 })).status).toBe(403);
    expect((await s.request('DELETE', `groups/${s.ids.groupId}/organizations/${org.id}`, { token: admin })).status).toBe(204);
    expect(await s.db.db.select().from(t.buckets).where(eq(t.buckets.id, org.id))).toEqual([]);
    const [g] = await s.db.db.select().from(t.groups).where(eq(t.groups.id, s.ids.groupId));
    expect(g!.defaultExpertBucketId).toBeNull();
    await s.db.db.update(t.groups).set({ defaultExpertBucketId: s.ids.expertCentreId }).where(eq(t.groups.id, s.ids.groupId));

    const refused = await s.request('DELETE', `groups/${s.ids.groupId}/organizations/${s.ids.hospitalId}`, { token: admin });
    expect([refused.status, refused.body.code]).toEqual([409, 'BucketHasExams']);
    const other = await createGroup(s);
    expect((await s.request('DELETE', `groups/${s.ids.groupId}/organizations/${other.bucketId}`, { token: admin })).status).toBe(404);
  });
});

/** A fresh organisation of the demo group (admin administers it) with two members. */
async function orgWithMembers() {
  const org = (await addOrg({})).body;
  const a = await createAccount(s, { groupId: s.ids.groupId, buckets: [{ bucketId: org.id, actions: ['report_upsert'] }] });
  const b = await createAccount(s, { groupId: s.ids.groupId, buckets: [{ bucketId: org.id, actions: ['report_upsert'] }] });
  return { bucketId: org.id as number, a: a.id, b: b.id };
}

describe('assign rules', () => {
  const path = (suffix = '') => `groups/${s.ids.groupId}/rules${suffix}`;

  it('are created, listed by priority, changed and deleted by group admins, with audit events', async () => {
    const o = await orgWithMembers();
    const first = await s.request('POST', path(), { token: admin, body: { name: '全部', bucketId: o.bucketId, memberIds: [o.a, o.b], priority: 5 } });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ name: '全部', bucketId: o.bucketId, reporterId: null, modality: null, memberIds: [o.a, o.b], priority: 5 });
    const ct = (await s.request('POST', path(), { token: admin, body: { name: 'CT', bucketId: o.bucketId, reporterId: o.a, modality: 'CT', priority: 1 } })).body;
    const list = (await s.request('GET', path(), { token: admin })).body.map((r: { id: number }) => r.id);
    expect(list.indexOf(ct.id)).toBeLessThan(list.indexOf(first.body.id));
    const put = await s.request('PUT', path(`/${ct.id}`), { token: admin, body: { name: 'CT2', bucketId: o.bucketId, reporterId: o.b, modality: 'CT', priority: 9 } });
    expect(put.body).toMatchObject({ id: ct.id, name: 'CT2', reporterId: o.b, priority: 9 });
    expect((await s.request('DELETE', path(`/${ct.id}`), { token: admin })).status).toBe(204);
    expect((await s.request('DELETE', path(`/${ct.id}`), { token: admin })).status).toBe(404);
    expect((await auditTrail(s.db.db, 'assign-rule', ct.id)).map((e) => e.action)).toEqual(['rule-create', 'rule-update', 'rule-delete']);
    await s.request('DELETE', path(`/${first.body.id}`), { token: admin });
  });

  it('refuses organisations of another group, reporters and members outside the organisation, and bad input', async () => {
    const o = await orgWithMembers();
    const other = await createGroup(s);
    const post = (body: Record<string, unknown>) => s.request('POST', path(), { token: admin, body: { name: 'R', bucketId: o.bucketId, reporterId: o.a, ...body } });
    const outside = await post({ bucketId: other.bucketId });
    expect([outside.status, outside.body.code]).toEqual([400, 'BucketNotInGroup']);
    const notMember = await post({ reporterId: s.ids.accounts.rad1 });
    expect([notMember.status, notMember.body.code, notMember.body.details.accountIds]).toEqual([400, 'NotBucketMember', [s.ids.accounts.rad1]]);
    expect((await post({ memberIds: [o.b, s.ids.accounts.expert] })).body.code).toBe('NotBucketMember');
    for (const body of [{ reporterId: null }, { name: '' }, { modality: 'ct scan' }, { priority: 1.5 }, { memberIds: 'all' }, { bucketId: 'x' }]) {
      const res = await post(body);
      expect([JSON.stringify(body), res.status, res.body.code]).toEqual([JSON.stringify(body), 400, 'ParamsError']);
    }
    expect((await s.request('GET', path(), { token: rad1 })).status).toBe(403);
    expect((await post({ reporterId: o.b })).status).toBe(201);
  });

  it('pick the first matching rule by priority and the least loaded member (pure rules)', () => {
    const rule = (id: number, priority: number, modality: string | null, reporterId: number | null = null, memberIds: number[] = []) =>
      ({ id, bucketId: 1, priority, modality, reporterId, memberIds });
    const set = [rule(1, 5, null, 10), rule(2, 1, 'CT', 20), rule(3, 1, 'MR', 30), rule(4, 1, 'CT', 40)];
    expect(pickRule(set, { bucketId: 1, modality: 'CT' })?.id).toBe(2);
    expect(pickRule(set, { bucketId: 1, modality: 'ct' })?.id).toBe(2);
    expect(pickRule(set, { bucketId: 1, modality: 'US' })?.id).toBe(1);
    expect(pickRule(set, { bucketId: 2, modality: 'CT' })).toBeNull();
    const members = new Set([7, 8, 9]);
    expect(pickAssignee(rule(5, 0, null, 9, [7, 8]), members, new Map())).toBe(9);
    expect(pickAssignee(rule(5, 0, null, 99, [7, 8]), members, new Map([[7, 3], [8, 1]]))).toBe(8);
    expect(pickAssignee(rule(5, 0, null, null, [7, 8]), members, new Map())).toBe(7);
    expect(pickAssignee(rule(5, 0, null, null, [99]), members, new Map())).toBeNull();
  });

  it('give an uploaded exam its assignee by the first matching rule', async () => {
    const o = await orgWithMembers();
    await s.request('POST', path(), { token: admin, body: { name: '其余', bucketId: o.bucketId, reporterId: o.a, priority: 10 } });
    await s.request('POST', path(), { token: admin, body: { name: 'CT', bucketId: o.bucketId, reporterId: o.b, modality: 'CT', priority: 1 } });
    const upload = async (modality: string) => {
      const session = await initUpload(s, admin, o.bucketId, { ...CT_SERIES_STUDY, studyInstanceUid: `1.2.826.0.1.${Date.now()}.${Math.floor(Math.random() * 1e6)}`, modality });
      const [exam] = await s.db.db.select().from(t.exams).where(eq(t.exams.id, session.exam.id));
      return exam!.assigneeId;
    };
    expect(await upload('CT')).toBe(o.b);
    expect(await upload('MR')).toBe(o.a);
    // Elsewhere no rule applies.
    const session = await initUpload(s, admin, s.ids.expertCentreId, { ...CT_SERIES_STUDY, studyInstanceUid: `1.2.826.0.2.${Date.now()}` });
    const [exam] = await s.db.db.select().from(t.exams).where(eq(t.exams.id, session.exam.id));
    expect(exam!.assigneeId).toBeNull();
  });
});

describe('rads and the organisation lists of the settings', () => {
  it('lists the accounts holding report_upsert in the group\'s organisations', async () => {
    const res = await s.request('GET', `groups/${s.ids.groupId}/rads`, { token: rad1 });
    expect(res.status).toBe(200);
    const ids = res.body.map((r: { id: number }) => r.id);
    expect(ids).toContain(s.ids.accounts.rad1);
    expect(ids).toContain(s.ids.accounts.admin);
    expect(ids).not.toContain(s.ids.accounts.registrar);
    expect(res.body.find((r: { id: number }) => r.id === s.ids.accounts.rad1)).toEqual({ id: s.ids.accounts.rad1, name: expect.any(String), title: expect.anything() });
  });

  it('sets expert organisations (with free) and consultation targets of the group only; members read them', async () => {
    const put = (what: string, body: unknown, token = admin) => s.request('PUT', `groups/${s.ids.groupId}/${what}`, { token, body });
    const experts = await put('expert-buckets', [{ bucketId: s.ids.expertCentreId, free: true }]);
    expect(experts.body).toEqual([{ bucketId: s.ids.expertCentreId, name: expect.any(String), free: true }]);
    expect((await s.request('GET', `groups/${s.ids.groupId}/expert-buckets`, { token: rad1 })).body).toEqual(experts.body);
    const targets = await put('consultation-targets', [s.ids.expertCentreId]);
    expect(targets.body.map((b: { bucketId: number }) => b.bucketId)).toEqual([s.ids.expertCentreId]);
    expect((await s.request('GET', `groups/${s.ids.groupId}/consultation-targets`, { token: rad1 })).body).toEqual(targets.body);
    const other = await createGroup(s);
    expect((await put('expert-buckets', [{ bucketId: other.bucketId }])).body.code).toBe('BucketNotInGroup');
    expect((await put('consultation-targets', [other.bucketId])).body.code).toBe('BucketNotInGroup');
    expect((await put('consultation-targets', [s.ids.hospitalId, s.ids.hospitalId])).body.code).toBe('ParamsError');
    expect((await put('expert-buckets', { bucketId: 1 })).body.code).toBe('ParamsError');
    expect((await put('expert-buckets', [], rad1)).status).toBe(403);
    expect((await put('consultation-targets', [])).body).toEqual([]);
  });

  it('sets the registry desks: an organisation taken off refuses its registry at the next request', async () => {
    const registrar = await s.login('registrar');
    const setup = () => s.request('GET', `buckets/${s.ids.hospitalId}/registry/setup`, { token: registrar });
    expect((await setup()).status).toBe(200);
    expect((await s.request('PUT', `groups/${s.ids.groupId}/registry-buckets`, { token: admin, body: [] })).body).toEqual([]);
    expect((await setup()).status).toBe(403);
    const back = await s.request('PUT', `groups/${s.ids.groupId}/registry-buckets`, { token: admin, body: [s.ids.hospitalId] });
    expect(back.body.map((b: { bucketId: number }) => b.bucketId)).toEqual([s.ids.hospitalId]);
    expect((await setup()).status).toBe(200);
    expect((await s.request('GET', `groups/${s.ids.groupId}/registry-buckets`, { token: registrar })).body).toEqual(back.body);
  });
});

describe('notification settings', () => {
  const put = (body: unknown, token = admin) => s.request('PUT', `groups/${s.ids.groupId}/notifications`, { token, body });

  it('keeps at most 2 users per organisation and type (NotificationLimit), members of that organisation (NotBucketMember)', async () => {
    const { rad1: r1, rad2: r2, chief, expert } = s.ids.accounts;
    const three = await put([{ bucketId: s.ids.hospitalId, type: 'exam', accountIds: [r1, r2, chief] }]);
    expect([three.status, three.body.code, three.body.details]).toEqual([400, 'NotificationLimit', { bucketId: s.ids.hospitalId, type: 'exam', max: 2 }]);
    const outsider = await put([{ bucketId: s.ids.hospitalId, type: 'exam', accountIds: [r1, expert] }]);
    expect([outsider.status, outsider.body.code]).toEqual([400, 'NotBucketMember']);
    const ok = await put([
      { bucketId: s.ids.hospitalId, type: 'exam', accountIds: [r1, r2, r1] },
      { bucketId: s.ids.hospitalId, type: 'consultation', accountIds: [chief] },
      { bucketId: s.ids.expertCentreId, type: 'exam', accountIds: [expert] },
    ]);
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual([
      { bucketId: s.ids.hospitalId, type: 'consultation', accountIds: [chief] },
      { bucketId: s.ids.hospitalId, type: 'exam', accountIds: [r1, r2] },
      { bucketId: s.ids.expertCentreId, type: 'exam', accountIds: [expert] },
    ].sort((a, b) => a.bucketId - b.bucketId || a.type.localeCompare(b.type)));
    expect((await s.request('GET', `groups/${s.ids.groupId}/notifications`, { token: admin })).body).toEqual(ok.body);
    // Replaced as a whole.
    expect((await put([{ bucketId: s.ids.hospitalId, type: 'exam', accountIds: [r2] }])).body).toEqual([{ bucketId: s.ids.hospitalId, type: 'exam', accountIds: [r2] }]);
  });

  it('refuses bad input, duplicates, other groups\' organisations, and non-admins', async () => {
    const other = await createGroup(s);
    for (const body of [[{ bucketId: s.ids.hospitalId, type: 'sms', accountIds: [] }], [{ bucketId: s.ids.hospitalId, type: 'exam' }], {},
      [{ bucketId: s.ids.hospitalId, type: 'exam', accountIds: [] }, { bucketId: s.ids.hospitalId, type: 'exam', accountIds: [] }]]) {
      const res = await put(body);
      expect([JSON.stringify(body), res.status, res.body.code]).toEqual([JSON.stringify(body), 400, 'ParamsError']);
    }
    expect((await put([{ bucketId: other.bucketId, type: 'exam', accountIds: [] }])).body.code).toBe('BucketNotInGroup');
    expect((await put([], rad1)).status).toBe(403);
    expect((await s.request('GET', `groups/${s.ids.groupId}/notifications`, { token: rad1 })).status).toBe(403);
    expect((await s.request('GET', `groups/${other.groupId}/notifications`, { token: admin })).status).toBe(404);
  });
});
