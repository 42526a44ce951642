import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, createGroup } from '../support/accounts';
import { startServer, type TestServer } from '../support/server';

/** POST accounts/query-in-realm (areas §7 "Accounts"): the group admin's account list, with status and last sign-in. */
describe('accounts/query-in-realm', () => {
  let s: TestServer;
  let admin: string;
  beforeAll(async () => {
    s = await startServer({ exams: 0 });
    admin = await s.login('admin');
  });
  afterAll(() => s.close());

  it('lists the accounts of the groups the caller administers, in username order, with the last sign-in', async () => {
    await s.login('rad1');
    const res = await s.request('POST', 'accounts/query-in-realm', { token: admin, body: {} });
    expect(res.status).toBe(200);
    const usernames = res.body.items.map((a: { username: string }) => a.username);
    expect(usernames).toEqual([...usernames].sort((a: string, b: string) => a.localeCompare(b)));
    expect(usernames).toEqual(expect.arrayContaining(['admin', 'rad1', 'rad2', 'chief', 'registrar', 'tech', 'expert', 'orgadmin']));
    expect(res.body.total).toBe(res.body.items.length);
    const rad1 = res.body.items.find((a: { username: string }) => a.username === 'rad1');
    expect(rad1).toMatchObject({ status: 0, groupIds: [s.ids.groupId], lastLoginIp: '127.0.0.1' });
    expect(Date.parse(rad1.lastLoginAt)).not.toBeNaN();
    expect(rad1).not.toHaveProperty('passwordHash');
  });

  it('finds by username or name, pages, and takes % and _ as letters', async () => {
    const byName = await s.request('POST', 'accounts/query-in-realm', { token: admin, body: { query: '王芳' } });
    expect(byName.body.items.map((a: { username: string }) => a.username)).toEqual(['rad2']);
    const byUser = await s.request('POST', 'accounts/query-in-realm', { token: admin, body: { query: 'RAD' } });
    expect(byUser.body.items.map((a: { username: string }) => a.username)).toEqual(['rad1', 'rad2']);
    const page = await s.request('POST', 'accounts/query-in-realm', { token: admin, body: { skip: 1, limit: 2 } });
    expect(page.body.items).toHaveLength(2);
    expect(page.body.total).toBeGreaterThan(2);
    const literal = await s.request('POST', 'accounts/query-in-realm', { token: admin, body: { query: '%' } });
    expect(literal.body).toEqual({ items: [], total: 0 });
  });

  it('shows a disabled account as such', async () => {
    const member = await createAccount(s, { groupId: s.ids.groupId });
    expect((await s.request('POST', `accounts/${member.id}/status`, { token: admin, body: { status: 1 } })).status).toBe(204);
    const res = await s.request('POST', 'accounts/query-in-realm', { token: admin, body: { query: member.username } });
    expect(res.body.items).toEqual([expect.objectContaining({ id: member.id, status: 1, lastLoginAt: null })]);
  });

  it('never shows accounts of another group, and refuses a caller who administers none', async () => {
    const { groupId } = await createGroup(s);
    const otherAdmin = await createAccount(s, { groupId, groupAdmin: true });
    const outsider = await s.login(otherAdmin.username, otherAdmin.password);
    const res = await s.request('POST', 'accounts/query-in-realm', { token: outsider, body: {} });
    expect(res.status).toBe(200);
    expect(res.body.items.map((a: { id: number }) => a.id)).toEqual([otherAdmin.id]);
    const rad1 = await s.login('rad1');
    expect((await s.request('POST', 'accounts/query-in-realm', { token: rad1, body: {} })).status).toBe(403);
  });

  it('answers bad input with 400', async () => {
    for (const body of [{ limit: 0 }, { limit: 101 }, { skip: -1 }, { query: 'x'.repeat(65) }, { query: 5 }]) {
      const res = await s.request('POST', 'accounts/query-in-realm', { token: admin, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('ParamsError');
    }
  });
});
