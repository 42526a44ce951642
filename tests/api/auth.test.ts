import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTokens } from '../../server/auth/tokens';
import * as t from '../../server/db/schema';
import { accountRow, createAccount } from '../support/accounts';
import { startServer, type TestServer } from '../support/server';

/** Sign-in, tokens and logout on the real server (core §3 Token info, §4 Session, §8). */
let s: TestServer;
const TTL = 3600;
beforeAll(async () => { s = await startServer({ exams: 5, tokenTtlSeconds: TTL }); });
afterAll(async () => { await s.close(); });

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const nowSeconds = () => Math.floor(s.clock.now().getTime() / 1000);

describe('POST accounts/login', () => {
  it('answers a bearer token with its expiry in unix seconds and the user', async () => {
    const res = await s.request('POST', 'accounts/login', { body: { username: 'rad1', password: 'Demo1234' } });
    expect(res.status).toBe(200);
    expect(res.body.accessToken).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(res.body.expires).toBe(nowSeconds() + TTL);
    expect(res.body.loginType).toBe('normal');
    expect(res.body.user).toMatchObject({ id: s.ids.accounts.rad1, username: 'rad1', name: '李明', techTitle: '主治医师', canCreateGroup: false });
    expect(res.body.user.domainName).toEqual({ web: 'demo.local' });
  });

  it('never sends the password hash or the token version', async () => {
    const res = await s.request('POST', 'accounts/login', { body: { username: 'rad1', password: 'Demo1234' } });
    const text = JSON.stringify(res.body);
    expect(text).not.toContain('scrypt$');
    expect(Object.keys(res.body.user)).not.toContain('passwordHash');
    expect(Object.keys(res.body.user)).not.toContain('tokenVersion');
  });

  it('trims the username before looking it up (core §5)', async () => {
    const res = await s.request('POST', 'accounts/login', { body: { username: '  chief \t', password: 'Demo1234' } });
    expect(res.status).toBe(200);
    expect(res.body.user.username).toBe('chief');
  });

  it('finds the username whatever its case', async () => {
    const res = await s.request('POST', 'accounts/login', { body: { username: 'RAD2', password: 'Demo1234' } });
    expect(res.status).toBe(200);
    expect(res.body.user.username).toBe('rad2');
  });

  it('answers a wrong password and an unknown user with the same InvalidCredentials', async () => {
    const wrong = await s.request('POST', 'accounts/login', { body: { username: 'tech', password: 'Wrong1234' } });
    const unknown = await s.request('POST', 'accounts/login', { body: { username: 'nobody-here', password: 'Demo1234' } });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ code: 'InvalidCredentials', message: 'Invalid username or password' });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
  });

  it('does not match the password case-insensitively', async () => {
    const res = await s.request('POST', 'accounts/login', { body: { username: 'tech', password: 'demo1234' } });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('InvalidCredentials');
  });

  it('refuses a disabled account with AccountDisabled once the password is right, and says nothing more on a wrong one', async () => {
    const off = await createAccount(s, { status: 1 });
    const right = await s.request('POST', 'accounts/login', { body: { username: off.username, password: off.password } });
    expect(right.status).toBe(403);
    expect(right.body.code).toBe('AccountDisabled');
    const wrong = await s.request('POST', 'accounts/login', { body: { username: off.username, password: 'Wrong1234' } });
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe('InvalidCredentials');
  });

  it('records the time and address of the last sign-in, ignoring X-Forwarded-For when no proxy is trusted', async () => {
    const acc = await createAccount(s);
    const res = await s.request('POST', 'accounts/login', { body: { username: acc.username, password: acc.password }, headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(res.status).toBe(200);
    const row = await accountRow(s, acc.id);
    expect(row.lastLoginAt?.getTime()).toBe(s.clock.now().getTime());
    expect(row.lastLoginIp).toBe('127.0.0.1');
  });
});

describe('bearer tokens', () => {
  it('lets a signed-in account read accounts/me', async () => {
    const token = await s.login('registrar');
    const res = await s.request('GET', 'accounts/me', { token });
    expect(res.status).toBe(200);
    expect(res.body.username).toBe('registrar');
  });

  it('refuses a request without a token with 401 JsonWebTokenError', async () => {
    const res = await s.request('GET', 'accounts/me');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('JsonWebTokenError');
  });

  it('refuses a token sent under another scheme than Bearer', async () => {
    const token = await s.login('registrar');
    const res = await s.request('GET', 'accounts/me', { headers: { authorization: `Basic ${token}` } });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('JsonWebTokenError');
  });

  it.each([
    ['not a JWT', 'abc'],
    ['three empty parts', '..'],
    ['junk base64', 'eyJ.eyJ.sig'],
    ['a header that is not JSON', `${Buffer.from('nope').toString('base64url')}.${b64({ sub: '1' })}.x`],
  ])('refuses a malformed token (%s) with 401 JsonWebTokenError', async (_label, token) => {
    const res = await s.request('GET', 'accounts/me', { token });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('JsonWebTokenError');
  });

  it('refuses an unsigned token (alg none) with 401 JsonWebTokenError', async () => {
    const token = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: String(s.ids.accounts.admin), tv: 0, lt: 'normal', iat: nowSeconds(), exp: nowSeconds() + 60 })}.`;
    const res = await s.request('GET', 'accounts/me', { token });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('JsonWebTokenError');
  });

  it('refuses a token signed with another secret with 401 JsonWebTokenError', async () => {
    const other = createTokens('someone-elses-secret', TTL);
    const { accessToken } = await other.issue({ sub: s.ids.accounts.admin, tv: 0, loginType: 'normal' }, nowSeconds());
    const res = await s.request('GET', 'accounts/me', { token: accessToken });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('JsonWebTokenError');
  });

  it('refuses a genuine token whose payload was changed to another account', async () => {
    const token = await s.login('tech');
    const [header, payload, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const forged = `${header}.${b64({ ...claims, sub: String(s.ids.accounts.admin) })}.${signature}`;
    const res = await s.request('GET', 'accounts/me', { token: forged });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('JsonWebTokenError');
  });

  it('refuses the token of an account that no longer exists', async () => {
    const gone = await createAccount(s);
    const token = await s.login(gone.username);
    await s.db.db.delete(t.accounts).where(eq(t.accounts.id, gone.id));
    const res = await s.request('GET', 'accounts/me', { token });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('JsonWebTokenError');
  });

  it('lets public routes through with a bad token, and answers 404 for an unknown API path', async () => {
    expect((await s.request('GET', 'domain', { token: 'garbage' })).status).toBe(200);
    const login = await s.request('POST', 'accounts/login', { token: 'garbage', body: { username: 'rad1', password: 'Demo1234' } });
    expect(login.status).toBe(200);
    const unknown = await s.request('GET', 'no-such-thing');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('NotFound');
  });
});

describe('POST accounts/logout', () => {
  it('answers 204 and ends every token of the account at once, not other accounts\' tokens', async () => {
    const acc = await createAccount(s);
    const first = await s.login(acc.username);
    const second = await s.login(acc.username);
    const bystander = await s.login('rad2');
    const out = await s.request('POST', 'accounts/logout', { token: first });
    expect(out.status).toBe(204);
    for (const token of [first, second]) {
      const res = await s.request('GET', 'accounts/me', { token });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('JsonWebTokenError');
    }
    expect((await s.request('GET', 'accounts/me', { token: bystander })).status).toBe(200);
    const again = await s.login(acc.username);
    expect((await s.request('GET', 'accounts/me', { token: again })).status).toBe(200);
  });

  it('needs a token', async () => {
    const res = await s.request('POST', 'accounts/logout');
    expect(res.status).toBe(401);
  });
});

// Last: it moves the shared clock forward.
describe('token expiry', () => {
  it('accepts a token until its expiry and then answers 401 TokenExpiredError', async () => {
    const token = await s.login('expert');
    s.clock.advance((TTL - 1) * 1000);
    expect((await s.request('GET', 'accounts/me', { token })).status).toBe(200);
    s.clock.advance(2000);
    const res = await s.request('GET', 'accounts/me', { token });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('TokenExpiredError');
    const fresh = await s.login('expert');
    expect((await s.request('GET', 'accounts/me', { token: fresh })).status).toBe(200);
  });

  it('tells an expired token from a forged one even when it is also old', async () => {
    const other = createTokens('someone-elses-secret', 60);
    const { accessToken } = await other.issue({ sub: s.ids.accounts.admin, tv: 0, loginType: 'normal' }, nowSeconds() - 3600);
    const res = await s.request('GET', 'accounts/me', { token: accessToken });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('JsonWebTokenError');
  });
});
