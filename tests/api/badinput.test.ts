import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountRow, createAccount } from '../support/accounts';
import { startServer, type TestServer } from '../support/server';

/**
 * Bad input anywhere is 400 ParamsError, never a 500, and changes nothing (architecture "Input"). Every endpoint
 * with a body gets the same treatment: each field missing, of each wrong type, oversized, carrying a NUL; the
 * whole body junk, an array, a scalar, poisoned, too large.
 */
let s: TestServer;
let token: string;
let adminToken: string;
let target: { id: number; username: string };
beforeAll(async () => {
  s = await startServer({ exams: 5 });
  token = await s.login('rad1');
  adminToken = await s.login('admin');
  target = await createAccount(s, { groupId: s.ids.groupId });
});
afterAll(async () => { await s.close(); });

interface Endpoint {
  method: string;
  name: string;
  path: () => string;
  auth: 'none' | 'user' | 'admin';
  valid: Record<string, unknown>;
  /** Fields that may be left out. */
  optional?: string[];
}

const ENDPOINTS: Endpoint[] = [
  { method: 'POST', name: 'accounts/login', path: () => 'accounts/login', auth: 'none', valid: { username: 'rad1', password: 'Demo1234' } },
  { method: 'POST', name: 'accounts', path: () => 'accounts', auth: 'none', valid: { username: 'valid_name', password: 'Demo1234', name: 'Name' } },
  {
    method: 'PATCH', name: 'accounts/me', path: () => 'accounts/me', auth: 'user', valid: { name: 'N', fullName: 'F', avatar: 'a', signature: 's', techTitle: 't', registry: 'r' },
    optional: ['name', 'fullName', 'avatar', 'signature', 'techTitle', 'registry'],
  },
  { method: 'POST', name: 'accounts/change-password', path: () => 'accounts/change-password', auth: 'user', valid: { oldPassword: 'Demo1234', newPassword: 'Demo1234' } },
  { method: 'POST', name: 'accounts/update-password', path: () => 'accounts/update-password', auth: 'none', valid: { username: 'rad2', oldPwd: 'Demo1234', newPwd: 'Demo1234' } },
  { method: 'POST', name: 'accounts/{id}/status', path: () => `accounts/${target.id}/status`, auth: 'admin', valid: { status: 0 } },
  { method: 'POST', name: 'accounts/{id}/password/reset', path: () => `accounts/${target.id}/password/reset`, auth: 'admin', valid: { newPassword: 'Demo1234' } },
];

const tokenFor = (e: Endpoint) => (e.auth === 'user' ? token : e.auth === 'admin' ? adminToken : undefined);

async function expectParamsError(res: { status: number; body: { code?: string; message?: string } }) {
  expect(res.status).toBe(400);
  expect(res.body.code).toBe('ParamsError');
  expect(typeof res.body.message).toBe('string');
}

/** Each field of the valid body replaced by something it must not be. */
function fieldVariants(e: Endpoint): [string, Record<string, unknown>][] {
  const out: [string, Record<string, unknown>][] = [];
  for (const field of Object.keys(e.valid)) {
    const isText = typeof e.valid[field] === 'string';
    const wrong: [string, unknown][] = [
      ['null', null], ['an array', ['x']], ['an object', { x: 1 }], ['a boolean', true],
      ...(isText
        ? [['a number', 42], ['10 000 characters', 'x'.repeat(10_000)], ['a NUL character', 'ab\u0000cd']] as [string, unknown][]
        : [['a string', '1'], ['2', 2], ['-1', -1], ['1.5', 1.5]] as [string, unknown][]),
    ];
    for (const [what, value] of wrong) out.push([`${field} as ${what}`, { ...e.valid, [field]: value }]);
    if (!e.optional?.includes(field)) {
      const { [field]: _dropped, ...rest } = e.valid;
      out.push([`${field} missing`, rest]);
    }
  }
  return out;
}

describe.each(ENDPOINTS.map((e) => [`${e.method} ${e.name}`, e] as const))('%s', (_name, e) => {
  it('refuses every wrong field with 400 ParamsError naming it', async () => {
    for (const [what, body] of fieldVariants(e)) {
      const res = await s.request(e.method, e.path(), { token: tokenFor(e), body });
      expect({ what, status: res.status, code: res.body?.code }).toEqual({ what, status: 400, code: 'ParamsError' });
      const field = what.split(' ')[0];
      expect(res.body.details.fields.map((f: { path: string }) => f.path)).toContain(field);
    }
  });

  it.each([
    ['junk JSON', '{"username": '],
    ['an array', '[]'],
    ['an array of the valid body', null],
    ['a string', '"text"'],
    ['a number', '42'],
    ['an empty body', ''],
    ['a deeply nested array', `${'['.repeat(20_000)}${']'.repeat(20_000)}`],
    ['a __proto__ key', '{"__proto__": {"admin": true}}'],
    ['a constructor.prototype key', '{"constructor": {"prototype": {"admin": true}}}'],
  ])('refuses %s with 400 ParamsError', async (_what, raw) => {
    const body = raw ?? JSON.stringify([e.valid]);
    const res = await s.request(e.method, e.path(), { token: tokenFor(e), body, headers: { 'content-type': 'application/json' } });
    await expectParamsError(res);
  });

  it('refuses a body that is not JSON (text/plain) with 400 ParamsError', async () => {
    const res = await s.request(e.method, e.path(), { token: tokenFor(e), body: JSON.stringify(e.valid), headers: { 'content-type': 'text/plain' } });
    await expectParamsError(res);
  });

  it('refuses a body over 2 MB with 400 ParamsError', async () => {
    const big = JSON.stringify({ ...e.valid, padding: 'x'.repeat(2 * 1024 * 1024) });
    const res = await s.request(e.method, e.path(), { token: tokenFor(e), body: big, headers: { 'content-type': 'application/json' } });
    await expectParamsError(res);
  });
});

describe('ids in the path', () => {
  it.each(['abc', '1.5', '-1', '0', '99999999999', '%20', 'null', '1;drop table accounts'])('refuses %j as an account id with 400 ParamsError', async (id) => {
    for (const path of [`accounts/${id}/status`, `accounts/${id}/password/reset`]) {
      const body = path.endsWith('status') ? { status: 0 } : { newPassword: 'Demo1234' };
      const res = await s.request('POST', path, { token: adminToken, body });
      await expectParamsError(res);
    }
  });
});

describe('query strings', () => {
  it.each([
    ['a q over 64 characters', `q=${'x'.repeat(65)}`],
    ['q given twice', 'q=a&q=b'],
    ['a NUL in q', 'q=a%00b'],
  ])('refuses %s on accounts/suggestions with 400 ParamsError', async (_what, query) => {
    await expectParamsError(await s.request('GET', `accounts/suggestions?${query}`, { token }));
  });
});

describe('after all that', () => {
  it('left every account as it was: the demo passwords, rad1\'s profile, the target account', async () => {
    for (const username of ['rad1', 'rad2', 'admin']) expect((await s.request('POST', 'accounts/login', { body: { username, password: 'Demo1234' } })).status).toBe(200);
    const me = await s.request('GET', 'accounts/me', { token });
    expect(me.body).toMatchObject({ name: '李明', fullName: '李明', avatar: null, signature: null, techTitle: '主治医师', registry: null });
    const row = await accountRow(s, target.id);
    expect(row.status).toBe(0);
    expect((await s.request('POST', 'accounts/login', { body: { username: row.username, password: 'Demo1234' } })).status).toBe(200);
  });

  it('answers an unknown method on a known path with 404 NotFound, not 500', async () => {
    const res = await s.request('DELETE', 'accounts/me', { token });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('NotFound');
  });
});
