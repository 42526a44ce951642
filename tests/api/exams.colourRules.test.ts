import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, createGroup } from '../support/accounts';
import { tokenOf } from '../support/reports';
import { startServer, type TestServer } from '../support/server';

/** Report-table colour rules (areas §3, §9): the group administrator manages them, members read them. */
let s: TestServer;
let admin: string;

beforeAll(async () => {
  s = await startServer({ exams: 0 });
  admin = await tokenOf(s, 'admin');
});
afterAll(async () => { await s.close(); });

const rule = (over: Record<string, unknown> = {}) => ({ name: '危急', priority: 5, column: 'urgentFlag', value: 'true', backColor: '#fee2e2', foreColor: '#991b1b', ...over });

async function create(token: string, body: Record<string, unknown>) {
  return s.request('POST', 'report-table-colour/create', { token, body });
}

describe('colour rules', () => {
  it('are created by the group administrator and read by members, smallest priority number first', async () => {
    const a = await create(admin, { groupId: s.ids.groupId, ...rule({ name: 'late', priority: 20, column: 'examTime', value: null, lte: '2026-01-01T00:00:00Z', backColor: '#fef3c7', foreColor: null }) });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ groupId: s.ids.groupId, name: 'late', priority: 20, index: 0, column: 'examTime', value: null, gte: null, lte: '2026-01-01T00:00:00Z', foreColor: null, backColor: '#fef3c7' });
    const b = await create(admin, { groupId: s.ids.groupId, ...rule({ priority: 1 }) });
    const c = await create(admin, { groupId: s.ids.groupId, ...rule({ name: 'old', priority: 30, column: 'visitAge', value: null, gte: '70', index: 3 }) });
    const list = await s.request('GET', `report-table-colour/find-by-group?groupId=${s.ids.groupId}`, { token: await tokenOf(s, 'rad1') });
    expect(list.status).toBe(200);
    expect(list.body.map((r: { id: number }) => r.id)).toEqual([b.body.id, a.body.id, c.body.id]);
  });

  it('are updated and deleted by the group administrator only', async () => {
    const made = await create(admin, { groupId: s.ids.groupId, ...rule({ name: 'to change' }) });
    const rad1 = await tokenOf(s, 'rad1');
    expect((await s.request('POST', 'report-table-colour/update', { token: rad1, body: { id: made.body.id, ...rule({ name: 'x' }) } })).status).toBe(403);
    const updated = await s.request('POST', 'report-table-colour/update', { token: admin, body: { id: made.body.id, ...rule({ name: 'changed', column: 'modality', value: 'CT', priority: 9 }) } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: made.body.id, groupId: s.ids.groupId, name: 'changed', column: 'modality', value: 'CT', priority: 9 });
    expect((await s.request('DELETE', `report-table-colour/${made.body.id}`, { token: rad1 })).status).toBe(403);
    expect((await s.request('DELETE', `report-table-colour/${made.body.id}`, { token: admin })).status).toBe(204);
    expect((await s.request('DELETE', `report-table-colour/${made.body.id}`, { token: admin })).status).toBe(404);
    expect((await s.request('POST', 'report-table-colour/update', { token: admin, body: { id: made.body.id, ...rule() } })).status).toBe(404);
  });

  it('are refused to members (403) and hidden from other groups (404)', async () => {
    expect((await create(await tokenOf(s, 'chief'), { groupId: s.ids.groupId, ...rule() })).status).toBe(403);
    const other = await createGroup(s);
    const otherAdmin = await createAccount(s, { groupId: other.groupId, groupAdmin: true });
    const token = await s.login(otherAdmin.username);
    const ours = await create(admin, { groupId: s.ids.groupId, ...rule() });
    expect((await s.request('GET', `report-table-colour/find-by-group?groupId=${s.ids.groupId}`, { token })).status).toBe(404);
    expect((await create(token, { groupId: s.ids.groupId, ...rule() })).status).toBe(404);
    expect((await s.request('POST', 'report-table-colour/update', { token, body: { id: ours.body.id, ...rule() } })).status).toBe(404);
    expect((await s.request('DELETE', `report-table-colour/${ours.body.id}`, { token })).status).toBe(404);
    const theirs = await create(token, { groupId: other.groupId, ...rule({ name: 'theirs' }) });
    expect(theirs.status).toBe(201);
    const ourList = await s.request('GET', `report-table-colour/find-by-group?groupId=${s.ids.groupId}`, { token: admin });
    expect(ourList.body.map((r: { name: string }) => r.name)).not.toContain('theirs');
  });

  it.each([
    ['no colour', rule({ backColor: null, foreColor: null })],
    ['a colour that is not hex', rule({ backColor: 'red' })],
    ['a CSS injection', rule({ backColor: '#fff;background:url(x)' })],
    ['an unknown column', rule({ column: 'passwordHash' })],
    ['a value and a range', rule({ gte: '1' })],
    ['a yes/no column with a value that is not true or false', rule({ value: 'yes' })],
    ['a range on a yes/no column', rule({ value: null, gte: '0' })],
    ['a reversed numeric range', rule({ value: null, column: 'bodyPartCount', gte: '5', lte: '2' })],
    ['an empty name', rule({ name: ' ' })],
    ['a negative priority', rule({ priority: -1 })],
    ['a fractional priority', rule({ priority: 1.5 })],
    ['an unknown field', rule({ script: 'x' })],
  ])('refuses %s with 400 ParamsError', async (_name, body) => {
    const res = await create(admin, { groupId: s.ids.groupId, ...body });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('ParamsError');
  });

  it('refuses a bad group id in the query', async () => {
    expect((await s.request('GET', 'report-table-colour/find-by-group?groupId=abc', { token: admin })).status).toBe(400);
    expect((await s.request('GET', 'report-table-colour/find-by-group', { token: admin })).status).toBe(400);
  });
});

describe('colour rule audit', () => {
  it('records create, update and delete with the rule before and after, in the write', async () => {
    const { auditTrail } = await import('../../server/audit/record');
    const made = await create(admin, { groupId: s.ids.groupId, ...rule({ name: 'audited', priority: 7 }) });
    await s.request('POST', 'report-table-colour/update', { token: admin, body: { id: made.body.id, ...rule({ name: 'audited', priority: 8 }) } });
    await s.request('DELETE', `report-table-colour/${made.body.id}`, { token: admin });
    const trail = await auditTrail(s.db.db, 'colourRule', made.body.id);
    expect(trail.map((e) => [e.action, e.actorId])).toEqual([['create', s.ids.accounts.admin], ['update', s.ids.accounts.admin], ['delete', s.ids.accounts.admin]]);
    expect(trail[1]!.before).toMatchObject({ priority: 7, groupId: s.ids.groupId });
    expect(trail[1]!.after).toMatchObject({ priority: 8 });
    expect(trail[2]!.before).toMatchObject({ name: 'audited', column: 'urgentFlag' });
  });
});
