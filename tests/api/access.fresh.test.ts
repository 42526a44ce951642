import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../server/db/schema';
import { createAccount } from '../support/accounts';
import { startServer, type TestServer } from '../support/server';

/**
 * What an account may do is read with the account on every request (server/access/snapshot.ts): a change of its
 * roles, memberships, status or its group's switches counts from the very next request of a token already in use,
 * even when the change is written outside the API (another process, a console) — nothing is cached that could answer
 * with the old rights. Each case first makes the same request succeed with the same token, so anything kept from
 * that request would be warm.
 */
let s: TestServer;
let examId: number;
beforeAll(async () => {
  s = await startServer({ exams: 5 });
  const [exam] = await s.db.db.select({ id: t.exams.id }).from(t.exams).where(eq(t.exams.bucketId, s.ids.hospitalId)).limit(1);
  examId = exam!.id;
});
afterAll(async () => { await s.close(); });

/** A member of the hospital whose one role grants exam_get; its token; the role. */
async function reader() {
  const account = await createAccount(s, { groupId: s.ids.groupId, buckets: [{ bucketId: s.ids.hospitalId, actions: ['exam_get'] }] });
  const [link] = await s.db.db.select({ roleId: t.roleUsers.roleId }).from(t.roleUsers).where(eq(t.roleUsers.accountId, account.id));
  return { ...account, token: await s.login(account.username, account.password), roleId: link!.roleId };
}

describe('a change of rights counts from the very next request', () => {
  it('a role taken away through the API', async () => {
    const r = await reader();
    const admin = await s.login('admin');
    expect((await s.request('GET', `exams/${examId}`, { token: r.token })).status).toBe(200);
    const taken = await s.request('PUT', `buckets/${s.ids.hospitalId}/roles/${r.roleId}/users`, { token: admin, body: { accountIds: [] } });
    expect(taken.status).toBe(200);
    expect((await s.request('GET', `exams/${examId}`, { token: r.token })).status).toBe(403);
  });

  it('an action removed from the role, written straight to the database', async () => {
    const r = await reader();
    expect((await s.request('GET', `exams/${examId}`, { token: r.token })).status).toBe(200);
    await s.db.db.update(t.roles).set({ actions: [] }).where(eq(t.roles.id, r.roleId));
    expect((await s.request('GET', `exams/${examId}`, { token: r.token })).status).toBe(403);
    const page = await s.request('POST', 'exams/page-query', { token: r.token, body: { filters: [], limit: 20 } });
    expect(page.body).toMatchObject({ items: [], total: 0 });
  });

  it('the organisation membership removed', async () => {
    const r = await reader();
    const page = await s.request('POST', 'exams/page-query', { token: r.token, body: { filters: [], limit: 20 } });
    expect(page.body.items.length).toBeGreaterThan(0);
    await s.db.db.delete(t.bucketMembers).where(and(eq(t.bucketMembers.accountId, r.id), eq(t.bucketMembers.bucketId, s.ids.hospitalId)));
    expect((await s.request('GET', `exams/${examId}`, { token: r.token })).status).toBe(404);
    expect((await s.request('POST', 'exams/page-query', { token: r.token, body: { filters: [], limit: 20 } })).body).toMatchObject({ items: [], total: 0 });
  });

  it('the account disabled', async () => {
    const r = await reader();
    expect((await s.request('GET', `exams/${examId}`, { token: r.token })).status).toBe(200);
    await s.db.db.update(t.accounts).set({ status: 1 }).where(eq(t.accounts.id, r.id));
    const refused = await s.request('GET', `exams/${examId}`, { token: r.token });
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('JsonWebTokenError');
  });

  it('the group administrator made a plain member, then the group membership removed', async () => {
    const admin = await createAccount(s, { groupId: s.ids.groupId, groupAdmin: true });
    const token = await s.login(admin.username, admin.password);
    const rule = { groupId: s.ids.groupId, name: 'fresh', priority: 1, index: 1, column: 'modality', value: 'CT', gte: null, lte: null, foreColor: '#000000', backColor: '#ffffff' };
    expect((await s.request('POST', 'report-table-colour/create', { token, body: rule })).status).toBe(201);
    await s.db.db.update(t.groupMembers).set({ accessLevel: 0 }).where(eq(t.groupMembers.accountId, admin.id));
    expect((await s.request('POST', 'report-table-colour/create', { token, body: rule })).status).toBe(403);
    expect((await s.request('GET', `report-table-colour/find-by-group?groupId=${s.ids.groupId}`, { token })).status).toBe(200);
    await s.db.db.delete(t.groupMembers).where(eq(t.groupMembers.accountId, admin.id));
    expect((await s.request('GET', `report-table-colour/find-by-group?groupId=${s.ids.groupId}`, { token })).status).toBe(404);
  });

  it('a group switch turned off (the registry)', async () => {
    const registrar = await s.login('registrar');
    const ask = () => s.request('GET', `registry/findbyorderid?bucketId=${s.ids.hospitalId}&orderId=NONE`, { token: registrar });
    expect((await ask()).status).toBe(404); // allowed: there is just no such order
    await s.db.db.update(t.groups).set({ enableRegistry: false }).where(eq(t.groups.id, s.ids.groupId));
    try {
      expect((await ask()).status).toBe(403);
    } finally {
      await s.db.db.update(t.groups).set({ enableRegistry: true }).where(eq(t.groups.id, s.ids.groupId));
    }
  });
});

/**
 * The worklist's page checks the rights inside its own statement (checksAuth): it runs with the rights read at the
 * account's last request and answers only if its statement read the same rows back. Here nothing but the page is
 * asked between a change and the next page, so the rights it starts from are always the old ones.
 */
describe('the worklist page, asked again straight after a change', () => {
  // The worklist's own request: the view's snapshot instant (a shape of server/exams/prepared.ts).
  const opened = () => ({ field: 'created', operator: 'lte', values: [new Date(Date.now() + 3_600_000).toISOString()] });
  const page = (token: string, body: object = { filters: [opened()], limit: 20 }) => s.request('POST', 'exams/page-query', { token, body });

  it('answers with the organisation taken away, and with it back', async () => {
    const r = await reader();
    expect((await page(r.token)).body.items.length).toBeGreaterThan(0);
    expect((await page(r.token)).body.items.length).toBeGreaterThan(0);
    const [membership] = await s.db.db.delete(t.bucketMembers)
      .where(and(eq(t.bucketMembers.accountId, r.id), eq(t.bucketMembers.bucketId, s.ids.hospitalId))).returning();
    expect((await page(r.token)).body).toMatchObject({ items: [], total: 0 });
    await s.db.db.insert(t.bucketMembers).values(membership!);
    expect((await page(r.token)).body.items.length).toBeGreaterThan(0);
  });

  it('answers without the exams of a role whose action was removed, on a quick-filter page too', async () => {
    const r = await reader();
    const ct = { filters: [opened(), { field: 'modality', operator: 'in', values: ['CT', 'MR', 'DX', 'CR', 'US', 'MG'] }], limit: 20 };
    expect((await page(r.token, ct)).status).toBe(200);
    expect((await page(r.token)).body.items.length).toBeGreaterThan(0);
    await s.db.db.update(t.roles).set({ actions: [] }).where(eq(t.roles.id, r.roleId));
    expect((await page(r.token)).body).toMatchObject({ items: [], total: 0 });
    expect((await page(r.token, ct)).body).toMatchObject({ items: [], total: 0 });
  });

  it('refuses a disabled account, before it looks at the body', async () => {
    const r = await reader();
    expect((await page(r.token)).status).toBe(200);
    await s.db.db.update(t.accounts).set({ status: 1 }).where(eq(t.accounts.id, r.id));
    const refused = await page(r.token);
    expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 401, code: 'JsonWebTokenError' });
    const bad = await page(r.token, { filters: 'nonsense' });
    expect({ status: bad.status, code: bad.body.code }).toEqual({ status: 401, code: 'JsonWebTokenError' });
  });

  // An empty page has no row to carry the statement's read of the account, and a page of no prepared shape has no such
  // read: both read the account before they answer (server/exams/routes.ts).
  it('checks the account on an empty page and on a page of no prepared shape too', async () => {
    const r = await reader();
    const none = { filters: [opened(), { field: 'modality', operator: 'in', values: ['XA'] }], limit: 20 };
    const unshaped = { filters: [opened()], sorts: [{ field: 'patientName', direction: 'asc' }], limit: 20 };
    const empty = await page(r.token, none);
    expect({ status: empty.status, items: empty.body.items }).toEqual({ status: 200, items: [] });
    expect((await page(r.token, unshaped)).body.items.length).toBeGreaterThan(0);
    await s.db.db.update(t.accounts).set({ status: 1 }).where(eq(t.accounts.id, r.id));
    for (const body of [none, unshaped]) expect((await page(r.token, body)).status).toBe(401);
  });

  it('refuses a token of an older version (signed out everywhere)', async () => {
    const r = await reader();
    expect((await page(r.token)).status).toBe(200);
    const [account] = await s.db.db.select({ tv: t.accounts.tokenVersion }).from(t.accounts).where(eq(t.accounts.id, r.id));
    await s.db.db.update(t.accounts).set({ tokenVersion: account!.tv + 1 }).where(eq(t.accounts.id, r.id));
    expect((await page(r.token)).status).toBe(401);
  });

  it('refuses a deleted account', async () => {
    const r = await reader();
    expect((await page(r.token)).status).toBe(200);
    await s.db.db.delete(t.accounts).where(eq(t.accounts.id, r.id));
    expect((await page(r.token)).status).toBe(401);
  });
});
