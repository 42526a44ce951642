import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../server/db/schema';
import type { SmsSender } from '../../server/accounts/sms';
import { accountRow, createAccount, createGroup } from '../support/accounts';
import { startServer, type TestServer } from '../support/server';

/** Settings: mobile binding and password reset by SMS code (core §7 "Mobile"; docs/decisions.md "Settings"). */
const sent: { mobile: string; text: string }[] = [];
let failSending = false;
const capture: SmsSender = {
  async send(mobile, text) {
    if (failSending) throw new Error('gateway down');
    sent.push({ mobile, text });
  },
};
let s: TestServer;
beforeAll(async () => { s = await startServer({ exams: 2, sms: capture }); });
afterAll(async () => { await s.close(); });
afterEach(async () => {
  await s.db.db.delete(t.rateCounters);
  failSending = false;
});

const MINUTE = 60_000;
const lastCode = (mobile: string) => {
  const found = [...sent].reverse().find((m) => m.mobile === mobile);
  if (!found) throw new Error(`no SMS to ${mobile}`);
  return /(\d{6})/.exec(found.text)![1]!;
};
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');
let serial = 0;
const newMobile = () => `139${String(Date.now() % 1e4).padStart(4, '0')}${String(++serial).padStart(4, '0')}`;

async function fresh(opts: Parameters<typeof createAccount>[1] = {}) {
  const account = await createAccount(s, opts);
  return { ...account, token: await s.login(account.username, account.password) };
}

async function bind(token: string, mobile: string) {
  const asked = await s.request('POST', 'accounts/me/code/bind-mobile', { token, body: { mobile } });
  expect(asked.status).toBe(200);
  return s.request('POST', 'accounts/me/mobile/bind', { token, body: { mobile, code: lastCode(mobile) } });
}

describe('binding a mobile number', () => {
  it('sends a 6-digit code to the number, and binds it with that code; the code is stored hashed', async () => {
    const me = await fresh();
    const mobile = newMobile();
    const asked = await s.request('POST', 'accounts/me/code/bind-mobile', { token: me.token, body: { mobile: `+86 ${mobile.slice(0, 3)}-${mobile.slice(3)}` } });
    expect(asked.status).toBe(200);
    expect(asked.body).toEqual({ mobile: `${mobile.slice(0, 3)}****${mobile.slice(-4)}`, expiresIn: 600, resendAfter: 60 });
    const code = lastCode(mobile);
    expect(code).toMatch(/^\d{6}$/);
    const [row] = await s.db.db.select().from(t.verificationCodes).where(eq(t.verificationCodes.accountId, me.id));
    expect(row!.codeHash).not.toContain(code);
    expect(row!.purpose).toBe('bind-mobile');
    const bound = await s.request('POST', 'accounts/me/mobile/bind', { token: me.token, body: { mobile, code } });
    expect(bound.status).toBe(200);
    expect(bound.body.mobile).toBe(mobile);
    expect((await accountRow(s, me.id)).mobile).toBe(mobile);
    expect((await s.request('GET', `accounts/${me.id}/mobile`, { token: me.token })).body).toEqual({ mobile: `${mobile.slice(0, 3)}****${mobile.slice(-4)}` });
  });

  it.each(['12345678901', '1381234567', '138123456789', 'abc', '', '+0123456789', '+1234567', '+86 12812345678'])('refuses the number %j with ParamsError', async (mobile) => {
    const me = await fresh();
    const res = await s.request('POST', 'accounts/me/code/bind-mobile', { token: me.token, body: { mobile } });
    expect([res.status, res.body.code, res.body.details.fields[0].path]).toEqual([400, 'ParamsError', 'mobile']);
  });

  it('accepts an international number in E.164 form', async () => {
    const me = await fresh();
    const mobile = `+4479${String(Date.now()).slice(-8)}`;
    expect((await bind(me.token, mobile)).body.mobile).toBe(mobile);
  });

  it('refuses a number bound to another account with MobileTaken, at the code and at the bind', async () => {
    const first = await fresh();
    const second = await fresh();
    const mobile = newMobile();
    // The second account asks first; the first binds meanwhile.
    expect((await s.request('POST', 'accounts/me/code/bind-mobile', { token: second.token, body: { mobile } })).status).toBe(200);
    const code = lastCode(mobile);
    expect((await bind(first.token, mobile)).status).toBe(200);
    const late = await s.request('POST', 'accounts/me/mobile/bind', { token: second.token, body: { mobile, code } });
    expect([late.status, late.body.code]).toEqual([400, 'MobileTaken']);
    s.clock.advance(MINUTE);
    const again = await s.request('POST', 'accounts/me/code/bind-mobile', { token: second.token, body: { mobile } });
    expect([again.status, again.body.code]).toEqual([400, 'MobileTaken']);
    expect((await accountRow(s, second.id)).mobile).toBeNull();
  });

  it('sends at most one code a minute per account (429 TooManyAttempts with retryAfter)', async () => {
    const me = await fresh();
    expect((await s.request('POST', 'accounts/me/code/bind-mobile', { token: me.token, body: { mobile: newMobile() } })).status).toBe(200);
    s.clock.advance(30_000);
    const soon = await s.request('POST', 'accounts/me/code/bind-mobile', { token: me.token, body: { mobile: newMobile() } });
    expect([soon.status, soon.body.code, soon.body.details.retryAfter]).toEqual([429, 'TooManyAttempts', 30]);
    s.clock.advance(30_000);
    expect((await s.request('POST', 'accounts/me/code/bind-mobile', { token: me.token, body: { mobile: newMobile() } })).status).toBe(200);
  });

  it('refuses an expired code (after 10 minutes)', async () => {
    const me = await fresh();
    const mobile = newMobile();
    await s.request('POST', 'accounts/me/code/bind-mobile', { token: me.token, body: { mobile } });
    s.clock.advance(10 * MINUTE);
    const res = await s.request('POST', 'accounts/me/mobile/bind', { token: me.token, body: { mobile, code: lastCode(mobile) } });
    expect([res.status, res.body.code, res.body.details.reason]).toEqual([400, 'VerificationCodeInvalid', 'expired']);
    expect((await accountRow(s, me.id)).mobile).toBeNull();
  });

  it('allows 5 wrong tries, then the code is dead even when right', async () => {
    const me = await fresh();
    const mobile = newMobile();
    await s.request('POST', 'accounts/me/code/bind-mobile', { token: me.token, body: { mobile } });
    const code = lastCode(mobile);
    for (let i = 1; i <= 5; i++) {
      const res = await s.request('POST', 'accounts/me/mobile/bind', { token: me.token, body: { mobile, code: wrong(code) } });
      expect([res.status, res.body.code, res.body.details]).toEqual([400, 'VerificationCodeInvalid', { reason: i < 5 ? 'wrong' : 'tooManyTries', triesLeft: 5 - i }]);
    }
    const right = await s.request('POST', 'accounts/me/mobile/bind', { token: me.token, body: { mobile, code } });
    expect([right.status, right.body.details.reason]).toEqual([400, 'tooManyTries']);
    expect((await accountRow(s, me.id)).mobile).toBeNull();
  });

  it('uses a code once', async () => {
    const me = await fresh();
    const mobile = newMobile();
    expect((await bind(me.token, mobile)).status).toBe(200);
    const again = await s.request('POST', 'accounts/me/mobile/bind', { token: me.token, body: { mobile, code: lastCode(mobile) } });
    expect([again.status, again.body.code, again.body.details.reason]).toEqual([400, 'VerificationCodeInvalid', 'missing']);
  });

  it('binds only the number the code was sent to, and a newer code supersedes the older', async () => {
    const me = await fresh();
    const a = newMobile();
    const b = newMobile();
    await s.request('POST', 'accounts/me/code/bind-mobile', { token: me.token, body: { mobile: a } });
    const other = await s.request('POST', 'accounts/me/mobile/bind', { token: me.token, body: { mobile: b, code: lastCode(a) } });
    expect([other.status, other.body.details.reason]).toEqual([400, 'wrong']);
    s.clock.advance(MINUTE);
    await s.request('POST', 'accounts/me/code/bind-mobile', { token: me.token, body: { mobile: b } });
    const old = await s.request('POST', 'accounts/me/mobile/bind', { token: me.token, body: { mobile: a, code: lastCode(a) } });
    expect(old.status).toBe(400);
    expect((await s.request('POST', 'accounts/me/mobile/bind', { token: me.token, body: { mobile: b, code: lastCode(b) } })).status).toBe(200);
  });

  it('refuses malformed codes and bodies with ParamsError, never 500', async () => {
    const me = await fresh();
    for (const body of [{ mobile: newMobile(), code: '12345' }, { mobile: newMobile(), code: 'abcdef' }, { mobile: newMobile() }, { code: '123456' }, null, [], { mobile: 13800000000 }]) {
      const res = await s.request('POST', 'accounts/me/mobile/bind', { token: me.token, body });
      expect([res.status, res.body.code]).toEqual([400, 'ParamsError']);
    }
  });

  it('leaves no code and no wait when the SMS cannot be sent (OperationFailed)', async () => {
    const me = await fresh();
    failSending = true;
    const res = await s.request('POST', 'accounts/me/code/bind-mobile', { token: me.token, body: { mobile: newMobile() } });
    expect([res.status, res.body.code]).toEqual([500, 'OperationFailed']);
    expect(await s.db.db.select().from(t.verificationCodes).where(eq(t.verificationCodes.accountId, me.id))).toEqual([]);
    failSending = false;
    expect((await s.request('POST', 'accounts/me/code/bind-mobile', { token: me.token, body: { mobile: newMobile() } })).status).toBe(200);
  });

  it('needs a token', async () => {
    expect((await s.request('POST', 'accounts/me/code/bind-mobile', { body: { mobile: newMobile() } })).status).toBe(401);
    expect((await s.request('POST', 'accounts/me/mobile/bind', { body: { mobile: newMobile(), code: '123456' } })).status).toBe(401);
  });
});

describe('GET accounts/{id}/mobile', () => {
  it('answers the account itself and an admin of its group, masked; 403 to a plain member; 404 outside the group', async () => {
    const member = await fresh({ groupId: s.ids.groupId });
    const mobile = newMobile();
    await bind(member.token, mobile);
    const masked = { mobile: `${mobile.slice(0, 3)}****${mobile.slice(-4)}` };
    const admin = await s.login('admin');
    expect((await s.request('GET', `accounts/${member.id}/mobile`, { token: admin })).body).toEqual(masked);
    const peer = await s.login('rad2');
    expect((await s.request('GET', `accounts/${member.id}/mobile`, { token: peer })).body.code).toBe('Forbidden');
    const { groupId } = await createGroup(s);
    const outsider = await fresh({ groupId, groupAdmin: true });
    const res = await s.request('GET', `accounts/${member.id}/mobile`, { token: outsider.token });
    expect([res.status, res.body.code]).toEqual([404, 'NotFound']);
    expect((await s.request('GET', 'accounts/99999999/mobile', { token: outsider.token })).status).toBe(404);
    expect((await s.request('GET', `accounts/${member.id}/mobile`)).status).toBe(401);
    expect((await s.request('GET', 'accounts/abc/mobile', { token: admin })).body.code).toBe('ParamsError');
  });

  it('answers null for an account without a number', async () => {
    const me = await fresh();
    expect((await s.request('GET', `accounts/${me.id}/mobile`, { token: me.token })).body).toEqual({ mobile: null });
  });
});

describe('password reset by code', () => {
  async function withMobile() {
    const account = await fresh({ groupId: s.ids.groupId });
    const mobile = newMobile();
    await bind(account.token, mobile);
    s.clock.advance(MINUTE);
    return { ...account, mobile };
  }

  it('sends a code to the bound number without a token (by id or username) and sets the new password with it', async () => {
    const me = await withMobile();
    const asked = await s.request('POST', `accounts/${me.username}/code/reset-password`);
    expect(asked.status).toBe(204);
    const code = lastCode(me.mobile);
    const reset = await s.request('POST', `accounts/${me.username}/password/reset`, { body: { code, newPassword: 'NewPass99' } });
    expect(reset.status).toBe(204);
    expect((await s.request('POST', 'accounts/login', { body: { username: me.username, password: 'NewPass99' } })).status).toBe(200);
    // The old session ended with the reset.
    expect((await s.request('GET', 'accounts/me', { token: me.token })).status).toBe(401);
    const trail = await s.db.db.select().from(t.auditEvents).where(eq(t.auditEvents.objectId, String(me.id)));
    expect(trail.map((e) => e.action)).toContain('password-reset-code');
    expect(JSON.stringify(trail)).not.toContain('NewPass99');
    s.clock.advance(MINUTE);
    expect((await s.request('POST', `accounts/${me.id}/code/reset-password`)).status).toBe(204);
    expect((await s.request('POST', `accounts/${me.id}/password/reset`, { body: { code: lastCode(me.mobile), newPassword: 'Other777' } })).status).toBe(204);
  });

  it('answers 204 for an unknown account or one without a number, and sends nothing', async () => {
    const before = sent.length;
    const bare = await fresh();
    expect((await s.request('POST', 'accounts/nobody-here/code/reset-password')).status).toBe(204);
    expect((await s.request('POST', `accounts/${bare.username}/code/reset-password`)).status).toBe(204);
    expect(sent.length).toBe(before);
    const res = await s.request('POST', `accounts/${bare.username}/password/reset`, { body: { code: '123456', newPassword: 'NewPass99' } });
    expect([res.status, res.body.code]).toEqual([400, 'VerificationCodeInvalid']);
  });

  it('refuses a wrong code 5 times, then the code is dead; a used code cannot be reused; an expired one is refused', async () => {
    const me = await withMobile();
    await s.request('POST', `accounts/${me.username}/code/reset-password`);
    const code = lastCode(me.mobile);
    for (let i = 1; i <= 5; i++) {
      const res = await s.request('POST', `accounts/${me.username}/password/reset`, { body: { code: wrong(code), newPassword: 'NewPass99' } });
      expect([res.status, res.body.code, res.body.details.triesLeft]).toEqual([400, 'VerificationCodeInvalid', 5 - i]);
    }
    expect((await s.request('POST', `accounts/${me.username}/password/reset`, { body: { code, newPassword: 'NewPass99' } })).body.details.reason).toBe('tooManyTries');
    await s.db.db.delete(t.rateCounters);

    s.clock.advance(MINUTE);
    await s.request('POST', `accounts/${me.username}/code/reset-password`);
    const second = lastCode(me.mobile);
    expect((await s.request('POST', `accounts/${me.username}/password/reset`, { body: { code: second, newPassword: 'NewPass99' } })).status).toBe(204);
    const reuse = await s.request('POST', `accounts/${me.username}/password/reset`, { body: { code: second, newPassword: 'NewPass77' } });
    expect([reuse.status, reuse.body.details.reason]).toEqual([400, 'missing']);

    s.clock.advance(MINUTE);
    await s.request('POST', `accounts/${me.username}/code/reset-password`);
    s.clock.advance(10 * MINUTE + 1000);
    const late = await s.request('POST', `accounts/${me.username}/password/reset`, { body: { code: lastCode(me.mobile), newPassword: 'NewPass55' } });
    expect([late.status, late.body.details.reason]).toEqual([400, 'expired']);
  });

  it('applies the password rule (PasswordTooSimple) without spending the code', async () => {
    const me = await withMobile();
    await s.request('POST', `accounts/${me.username}/code/reset-password`);
    const code = lastCode(me.mobile);
    for (const newPassword of ['abcdefgh', '12345', 'a1'.repeat(17)]) {
      const res = await s.request('POST', `accounts/${me.username}/password/reset`, { body: { code, newPassword } });
      expect([res.status, res.body.code]).toEqual([400, 'PasswordTooSimple']);
    }
    expect((await s.request('POST', `accounts/${me.username}/password/reset`, { body: { code, newPassword: 'Fine1234' } })).status).toBe(204);
  });

  it('limits reset codes: one a minute per account, 10 an hour per address', async () => {
    const me = await withMobile();
    expect((await s.request('POST', `accounts/${me.username}/code/reset-password`)).status).toBe(204);
    const soon = await s.request('POST', `accounts/${me.username}/code/reset-password`);
    expect([soon.status, soon.body.code]).toEqual([429, 'TooManyAttempts']);
    await s.db.db.delete(t.rateCounters);
    for (let i = 0; i < 10; i++) await s.request('POST', `accounts/nobody${i}/code/reset-password`);
    expect((await s.request('POST', 'accounts/nobody/code/reset-password')).status).toBe(429);
  });

  it('blocks an address after 10 failed code checks in 15 minutes', async () => {
    const me = await withMobile();
    await s.request('POST', `accounts/${me.username}/code/reset-password`);
    for (let i = 0; i < 10; i++) await s.request('POST', `accounts/nobody${i}/password/reset`, { body: { code: '000000', newPassword: 'NewPass99' } });
    const blocked = await s.request('POST', `accounts/${me.username}/password/reset`, { body: { code: lastCode(me.mobile), newPassword: 'NewPass99' } });
    expect([blocked.status, blocked.body.code]).toEqual([429, 'TooManyAttempts']);
  });

  it('refuses malformed input with ParamsError', async () => {
    for (const body of [{ code: '12', newPassword: 'NewPass99' }, { code: 123456, newPassword: 'NewPass99' }, { code: '123456' }]) {
      const res = await s.request('POST', 'accounts/rad1/password/reset', { body });
      expect([res.status, res.body.code]).toEqual([400, 'ParamsError']);
    }
    const long = await s.request('POST', `accounts/${'x'.repeat(80)}/code/reset-password`);
    expect([long.status, long.body.code]).toEqual([400, 'ParamsError']);
  });

  it('keeps the administrator form: {newPassword} needs a token and group admin rights', async () => {
    const member = await fresh({ groupId: s.ids.groupId });
    expect((await s.request('POST', `accounts/${member.id}/password/reset`, { body: { newPassword: 'Admin999' } })).status).toBe(401);
    const peer = await s.login('rad2');
    expect((await s.request('POST', `accounts/${member.id}/password/reset`, { token: peer, body: { newPassword: 'Admin999' } })).status).toBe(403);
    const admin = await s.login('admin');
    expect((await s.request('POST', `accounts/${member.id}/password/reset`, { token: admin, body: { newPassword: 'Admin999' } })).status).toBe(204);
    expect((await s.request('POST', `accounts/${member.username}/password/reset`, { token: admin, body: { newPassword: 'Admin999' } })).body.code).toBe('ParamsError');
  });
});
