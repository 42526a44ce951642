import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../server/db/schema';
import { accountRow, createAccount, createGroup, joinGroup, setAllowRegistration, unique } from '../support/accounts';
import { startServer, type TestServer } from '../support/server';

/** Accounts on the real server: register, profile, passwords, suggestions, groups and account administration (core §5, §7). */
let s: TestServer;
beforeAll(async () => { s = await startServer({ exams: 5 }); });
afterAll(async () => { await s.close(); });
// Every request comes from 127.0.0.1: without this the per-address throttle (20 failures) would leak from test
// to test. The throttle itself is tested in ratelimit.test.ts.
afterEach(async () => { await s.db.db.delete(t.rateCounters); });

const login = (username: string, password: string) => s.request('POST', 'accounts/login', { body: { username, password } });

describe('POST accounts (register)', () => {
  it('creates the account, answers 201 with a working token, and the account belongs to no group yet', async () => {
    const username = unique('new_user-');
    const res = await s.request('POST', 'accounts', { body: { username, password: 'Secret12', name: '  New Person ' } });
    expect(res.status).toBe(201);
    expect(res.body.user).toMatchObject({ username, name: 'New Person' });
    const token = res.body.accessToken as string;
    expect((await s.request('GET', 'accounts/me', { token })).body.username).toBe(username);
    expect((await s.request('GET', 'accounts/me/permissions', { token })).body).toEqual({});
    expect((await s.request('GET', 'groups/mine', { token })).body).toEqual([]);
    expect((await login(username, 'Secret12')).status).toBe(200);
  });

  it('refuses a password that breaks the rule with PasswordTooSimple and creates nothing', async () => {
    const username = unique('simple');
    for (const password of ['abcdefgh', '12345678', 'ab1', 'a1'.repeat(17)]) {
      const res = await s.request('POST', 'accounts', { body: { username, password, name: 'X' } });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('PasswordTooSimple');
    }
    expect((await login(username, 'abcdefgh')).body.code).toBe('InvalidCredentials');
  });

  it.each([
    ['5 characters', 'abc12', 400], ['6 characters', 'abc123', 201], ['32 characters', 'a1'.repeat(16), 201], ['33 characters', `${'a1'.repeat(16)}b`, 400],
    ['one kind', 'abcdefgh', 400], ['letters and other', 'abc-def', 201], ['digits and other', '123-456', 201], ['Chinese and digits', '放射科医生12', 201],
  ])('applies the password rule on register: %s → %i', async (_label, password, status) => {
    const res = await s.request('POST', 'accounts', { body: { username: unique('rule'), password, name: 'X' } });
    expect(res.status).toBe(status);
    if (status === 400) expect(res.body.code).toBe('PasswordTooSimple');
  });

  it('refuses a taken username with UsernameTaken, whatever its case', async () => {
    for (const username of ['rad1', 'RAD1', ' Rad1 ']) {
      const res = await s.request('POST', 'accounts', { body: { username, password: 'Secret12', name: 'X' } });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('UsernameTaken');
    }
  });

  it.each(['has space', 'dot.ted', 'at@sign', '李明', 'semi;colon', 'ab'])('refuses the username %j (alpha_dash, 3 to 32)', async (username) => {
    const res = await s.request('POST', 'accounts', { body: { username, password: 'Secret12', name: 'X' } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('ParamsError');
    expect(res.body.details.fields[0].path).toBe('username');
  });

  it('accepts letters, digits, dash and underscore', async () => {
    const username = `A-b_${unique('9')}`;
    const res = await s.request('POST', 'accounts', { body: { username, password: 'Secret12', name: 'X' } });
    expect(res.status).toBe(201);
  });

  it('answers RegistrationClosed when the domain does not allow registration', async () => {
    await setAllowRegistration(s, false);
    try {
      const username = unique('closed');
      const res = await s.request('POST', 'accounts', { body: { username, password: 'Secret12', name: 'X' } });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('RegistrationClosed');
      expect((await login(username, 'Secret12')).status).toBe(401);
    } finally {
      await setAllowRegistration(s, true);
    }
  });
});

describe('accounts/me', () => {
  it('reads the signed-in account', async () => {
    const token = await s.login('chief');
    const res = await s.request('GET', 'accounts/me', { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: s.ids.accounts.chief, username: 'chief', name: '张建国', fullName: '张建国', avatar: null, signature: null,
      mobile: null, techTitle: '主任医师', registry: null, canCreateGroup: false, domainName: { web: 'demo.local' },
      notificationPrefs: { examSound: true, consultationSound: true },
    });
  });

  it('updates the profile fields, trimmed, and keeps them', async () => {
    const acc = await createAccount(s);
    const token = await s.login(acc.username);
    const patch = { name: ' Dr Who ', fullName: 'Doctor Who', techTitle: 'Resident', registry: 'R-1', avatar: '/files/a.png', signature: '/files/s.png' };
    const res = await s.request('PATCH', 'accounts/me', { token, body: patch });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ...patch, name: 'Dr Who' });
    expect((await s.request('GET', 'accounts/me', { token })).body).toMatchObject({ ...patch, name: 'Dr Who' });
  });

  it('answers the unchanged account for an empty patch', async () => {
    const token = await s.login('tech');
    const res = await s.request('PATCH', 'accounts/me', { token, body: {} });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('陈强');
  });

  it.each([
    ['an unknown field', { nickname: 'x' }],
    ['the username', { username: 'root' }],
    ['canCreateGroup', { canCreateGroup: true }],
    ['the status', { status: 1 }],
    ['the mobile (it has its own binding flow)', { mobile: '13800000000' }],
    ['an empty name', { name: '   ' }],
    ['a name over 64 characters', { name: 'x'.repeat(65) }],
    ['a number for a text', { fullName: 42 }],
  ])('refuses %s with 400 ParamsError and changes nothing', async (_label, body) => {
    const acc = await createAccount(s, { name: 'Before' });
    const token = await s.login(acc.username);
    const res = await s.request('PATCH', 'accounts/me', { token, body: { fullName: 'Changed', ...body } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('ParamsError');
    const row = await accountRow(s, acc.id);
    expect(row.fullName).toBeNull();
    expect(row.name).toBe('Before');
    expect(row.canCreateGroup).toBe(false);
    expect(row.status).toBe(0);
  });
});

describe('POST accounts/change-password', () => {
  it('changes the password (204): the new one signs in, the old one no longer does, and this session stays', async () => {
    const acc = await createAccount(s);
    const token = await s.login(acc.username);
    const res = await s.request('POST', 'accounts/change-password', { token, body: { oldPassword: acc.password, newPassword: 'Fresh#pass' } });
    expect(res.status).toBe(204);
    expect((await login(acc.username, acc.password)).status).toBe(401);
    expect((await login(acc.username, 'Fresh#pass')).status).toBe(200);
    expect((await s.request('GET', 'accounts/me', { token })).status).toBe(200);
  });

  it('refuses a wrong old password with InvalidCredentials and keeps the password', async () => {
    const acc = await createAccount(s);
    const token = await s.login(acc.username);
    const res = await s.request('POST', 'accounts/change-password', { token, body: { oldPassword: 'Wrong999', newPassword: 'Fresh#pass' } });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('InvalidCredentials');
    expect((await login(acc.username, acc.password)).status).toBe(200);
  });

  it('refuses a new password that breaks the rule with PasswordTooSimple and keeps the old one', async () => {
    const acc = await createAccount(s);
    const token = await s.login(acc.username);
    const res = await s.request('POST', 'accounts/change-password', { token, body: { oldPassword: acc.password, newPassword: 'simple' } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('PasswordTooSimple');
    expect((await login(acc.username, acc.password)).status).toBe(200);
    expect((await login(acc.username, 'simple')).status).toBe(401);
  });

  it('counts wrong old passwords in the login throttle, so a stolen token cannot guess the password', async () => {
    const acc = await createAccount(s);
    const token = await s.login(acc.username);
    for (let i = 0; i < 5; i++) {
      const res = await s.request('POST', 'accounts/change-password', { token, body: { oldPassword: `Guess${i}xx`, newPassword: 'Fresh#pass' } });
      expect(res.status).toBe(401);
    }
    const blocked = await s.request('POST', 'accounts/change-password', { token, body: { oldPassword: acc.password, newPassword: 'Fresh#pass' } });
    expect(blocked.status).toBe(429);
    expect(blocked.body.code).toBe('TooManyAttempts');
    expect((await login(acc.username, acc.password)).status).toBe(429);
  });
});

describe('old passwords that break today\'s rule (core §5)', () => {
  it('answers 403 PasswordResetRequired to the right old password and gives no token', async () => {
    const acc = await createAccount(s, { password: '123456' });
    const res = await login(acc.username, '123456');
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('PasswordResetRequired');
    expect(res.body.details).toEqual({ username: acc.username });
    expect(res.body.accessToken).toBeUndefined();
  });

  it('answers a wrong password to such an account with InvalidCredentials, not PasswordResetRequired', async () => {
    const acc = await createAccount(s, { password: 'abc' });
    const res = await login(acc.username, 'abd');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('InvalidCredentials');
  });

  it.each([['too short', 'ab1'], ['one kind', 'password'], ['too long', 'a1'.repeat(20)]])(
    'lets update-password replace an old %s password (204), after which login works', async (_label, old) => {
      const acc = await createAccount(s, { password: old });
      expect((await login(acc.username, old)).body.code).toBe('PasswordResetRequired');
      const res = await s.request('POST', 'accounts/update-password', { body: { username: ` ${acc.username} `, oldPwd: old, newPwd: 'Better#123' } });
      expect(res.status).toBe(204);
      expect((await login(acc.username, 'Better#123')).status).toBe(200);
      expect((await login(acc.username, old)).status).toBe(401);
    });

  it('refuses update-password with a wrong old password (InvalidCredentials) and with a new one that breaks the rule (PasswordTooSimple)', async () => {
    const acc = await createAccount(s, { password: '111111' });
    const wrong = await s.request('POST', 'accounts/update-password', { body: { username: acc.username, oldPwd: '111112', newPwd: 'Better#123' } });
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe('InvalidCredentials');
    const simple = await s.request('POST', 'accounts/update-password', { body: { username: acc.username, oldPwd: '111111', newPwd: '222222' } });
    expect(simple.status).toBe(400);
    expect(simple.body.code).toBe('PasswordTooSimple');
    expect((await login(acc.username, '111111')).body.code).toBe('PasswordResetRequired');
  });

  it('refuses update-password for an unknown user with the same InvalidCredentials', async () => {
    const res = await s.request('POST', 'accounts/update-password', { body: { username: 'ghost-user', oldPwd: 'abc', newPwd: 'Better#123' } });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('InvalidCredentials');
  });

  it('ends the tokens the account held before update-password', async () => {
    const acc = await createAccount(s);
    const token = await s.login(acc.username);
    const res = await s.request('POST', 'accounts/update-password', { body: { username: acc.username, oldPwd: acc.password, newPwd: 'Other#123' } });
    expect(res.status).toBe(204);
    expect((await s.request('GET', 'accounts/me', { token })).status).toBe(401);
  });

  it('refuses update-password for a disabled account with AccountDisabled', async () => {
    const acc = await createAccount(s, { password: 'abc', status: 1 });
    const res = await s.request('POST', 'accounts/update-password', { body: { username: acc.username, oldPwd: 'abc', newPwd: 'Better#123' } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('AccountDisabled');
  });
});

describe('GET accounts/suggestions', () => {
  let elsewhere: { groupId: number; bucketId: number };
  let outsider: { id: number; username: string };
  beforeAll(async () => {
    elsewhere = await createGroup(s);
    outsider = await createAccount(s, { username: unique('radOutside'), name: '外院李医生', groupId: elsewhere.groupId, groupAdmin: true });
    // Names with LIKE metacharacters, in the demo group.
    await createAccount(s, { username: unique('pct'), name: '100% sure', groupId: s.ids.groupId });
    await createAccount(s, { username: unique('und'), name: 'under_score', groupId: s.ids.groupId });
    // 7 demo accounts + 2 above + 3 more: more than the 10 a suggestion list holds.
    for (let i = 0; i < 3; i++) await createAccount(s, { username: unique('zz'), groupId: s.ids.groupId });
  });

  const suggest = async (username: string, q?: string) => {
    const token = await s.login(username);
    const res = await s.request('GET', `accounts/suggestions${q === undefined ? '' : `?q=${encodeURIComponent(q)}`}`, { token });
    expect(res.status).toBe(200);
    return res.body as { id: number; username: string; name: string }[];
  };

  it('lists only accounts of the caller\'s groups, at most 10, by username', async () => {
    const all = await suggest('rad1');
    expect(all.length).toBe(10);
    expect(all.map((a) => a.username)).toEqual([...all.map((a) => a.username)].sort());
    expect(all.map((a) => a.username)).not.toContain(outsider.username);
    expect(Object.keys(all[0]!).sort()).toEqual(['id', 'name', 'username']);
  });

  it('filters by username or name, case-insensitively', async () => {
    expect((await suggest('rad1', 'RAD')).map((a) => a.username)).toEqual(['rad1', 'rad2']);
    expect((await suggest('rad1', '李')).map((a) => a.username)).toEqual(['rad1']);
    expect((await suggest('rad1', '  chief  ')).map((a) => a.username)).toEqual(['chief']);
  });

  it('takes LIKE metacharacters literally, so they never widen the match', async () => {
    expect((await suggest('rad1', '%')).map((a) => a.name)).toEqual(['100% sure']);
    expect((await suggest('rad1', '_')).map((a) => a.name)).toEqual(['under_score']);
    expect(await suggest('rad1', 'r_d')).toEqual([]);
    expect(await suggest('rad1', 'r%1')).toEqual([]);
    expect(await suggest('rad1', '\\')).toEqual([]);
  });

  it('never reaches into another group, even by exact name', async () => {
    expect(await suggest('rad1', '外院')).toEqual([]);
    expect((await suggest(outsider.username)).map((a) => a.username)).toEqual([outsider.username]);
    expect(await suggest(outsider.username, 'rad1')).toEqual([]);
  });

  it('leaves out disabled accounts', async () => {
    const off = await createAccount(s, { username: unique('disabledPerson'), groupId: s.ids.groupId, status: 1 });
    expect(await suggest('rad1', off.username)).toEqual([]);
  });

  it('answers an empty list to an account without a group', async () => {
    const loner = await createAccount(s);
    expect(await suggest(loner.username)).toEqual([]);
  });

  const suggestIn = async (username: string, query: string) =>
    s.request('GET', `accounts/suggestions?${query}`, { token: await s.login(username) });

  it('narrows to the members of one of the caller\'s organisations with bucketId, and to report writers there with action', async () => {
    // A content manager writes reports by access level; a collaborator only through a role; a disabled writer is left out.
    const manager = await createAccount(s, { username: unique('mgr'), groupId: s.ids.groupId, buckets: [{ bucketId: s.ids.hospitalId, accessLevel: 'contentManager' }] });
    const viewerOnly = await createAccount(s, { username: unique('collab'), groupId: s.ids.groupId, buckets: [{ bucketId: s.ids.hospitalId, accessLevel: 'collaborator', actions: ['report_trace'] }] });
    const off = await createAccount(s, { username: unique('offWriter'), groupId: s.ids.groupId, status: 1, buckets: [{ bucketId: s.ids.hospitalId, actions: ['report_upsert'] }] });

    const members = await suggestIn('chief', `bucketId=${s.ids.hospitalId}`);
    expect(members.status).toBe(200);
    const memberNames = members.body.map((a: { username: string }) => a.username);
    expect(memberNames).toEqual(expect.arrayContaining(['admin', 'chief', 'rad1', 'rad2', 'registrar']));
    expect(memberNames).not.toContain('expert');
    expect(memberNames).not.toContain(outsider.username);

    const writers = await suggestIn('chief', `bucketId=${s.ids.hospitalId}&action=report_upsert`);
    const writerNames = writers.body.map((a: { username: string }) => a.username);
    expect(writerNames).toEqual(['admin', 'chief', manager.username, 'orgadmin', 'rad1', 'rad2'].sort());
    expect(writerNames).not.toContain(viewerOnly.username);
    expect(writerNames).not.toContain(off.username);
    expect(Object.keys(writers.body[0]).sort()).toEqual(['id', 'name', 'username']);

    const named = await suggestIn('chief', `bucketId=${s.ids.hospitalId}&action=report_upsert&q=${encodeURIComponent('王')}`);
    expect(named.body.map((a: { username: string }) => a.username)).toEqual(['rad2']);
    // The expert centre's expert writes reports there, not in the hospital.
    expect((await suggestIn('admin', `bucketId=${s.ids.expertCentreId}&action=report_upsert`)).body.map((a: { username: string }) => a.username))
      .toEqual(['admin', 'expert']);
  });

  it('answers 404 for an organisation the caller is not in, and 400 for an action without an organisation or an unknown one', async () => {
    expect((await suggestIn('rad1', `bucketId=${s.ids.expertCentreId}`)).status).toBe(404);
    expect((await suggestIn(outsider.username, `bucketId=${s.ids.hospitalId}&action=report_upsert`)).status).toBe(404);
    expect((await suggestIn('rad1', `bucketId=${elsewhere.bucketId}`)).status).toBe(404);
    const noBucket = await suggestIn('chief', 'action=report_upsert');
    expect([noBucket.status, noBucket.body.code]).toEqual([400, 'ParamsError']);
    expect((await suggestIn('chief', `bucketId=${s.ids.hospitalId}&action=drop_tables`)).status).toBe(400);
    expect((await suggestIn('chief', 'bucketId=abc')).status).toBe(400);
  });
});

describe('GET groups/mine', () => {
  it('answers the demo group with every flag on, accessLevel 1 for its admin and 0 for members', async () => {
    const admin = (await s.request('GET', 'groups/mine', { token: await s.login('admin') })).body;
    const rad1 = (await s.request('GET', 'groups/mine', { token: await s.login('rad1') })).body;
    expect(admin).toHaveLength(1);
    expect(admin[0]).toMatchObject({
      id: s.ids.groupId, accessLevel: 1, displayName: '示范医疗集团', domainName: 'demo.local', openTelemed: true, enableRegistry: true,
      enableStat: true, enableConsultation: true, enableCalling: true, enableCredit: true, allowOverview: true, allowAccountMgmt: true,
      isGroupKb: true, featEncryptionViewerOn: true, openPrivateCloud: '1', defaultExpertBucketId: s.ids.expertCentreId,
      defaultConsultationBucketId: s.ids.expertCentreId, autoNotifyAudio: '/sounds/notify.wav', readsStatistics: true,
    });
    // rad1 holds no statistics_report: the same group, without its statistics.
    expect(rad1).toEqual([{ ...admin[0], accessLevel: 0, readsStatistics: false }]);
    expect(Object.keys(admin[0])).not.toContain('name');
    expect(Object.keys(admin[0])).not.toContain('created');
  });

  it('lists every group of an account in two groups, with its level in each', async () => {
    const other = await createGroup(s);
    const acc = await createAccount(s, { groupId: s.ids.groupId });
    await joinGroup(s, acc.id, other.groupId, true);
    const res = await s.request('GET', 'groups/mine', { token: await s.login(acc.username) });
    expect(res.body.map((g: { id: number; accessLevel: number }) => [g.id, g.accessLevel])).toEqual([[s.ids.groupId, 0], [other.groupId, 1]]);
  });
});

describe('POST accounts/{id}/status', () => {
  it('lets a group admin disable a member: the member\'s tokens end at once and sign-in answers AccountDisabled; enabling lets them back in', async () => {
    const member = await createAccount(s, { groupId: s.ids.groupId });
    const memberToken = await s.login(member.username);
    const adminToken = await s.login('admin');
    const off = await s.request('POST', `accounts/${member.id}/status`, { token: adminToken, body: { status: 1 } });
    expect(off.status).toBe(204);
    const refused = await s.request('GET', 'accounts/me', { token: memberToken });
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('JsonWebTokenError');
    expect((await login(member.username, member.password)).body.code).toBe('AccountDisabled');
    expect((await accountRow(s, member.id)).status).toBe(1);

    const on = await s.request('POST', `accounts/${member.id}/status`, { token: adminToken, body: { status: 0 } });
    expect(on.status).toBe(204);
    expect((await s.request('GET', 'accounts/me', { token: memberToken })).status).toBe(401);
    expect((await login(member.username, member.password)).status).toBe(200);
  });

  it('refuses a member who is not a group admin with Forbidden and changes nothing', async () => {
    const member = await createAccount(s, { groupId: s.ids.groupId });
    const res = await s.request('POST', `accounts/${member.id}/status`, { token: await s.login('chief'), body: { status: 1 } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('Forbidden');
    expect((await accountRow(s, member.id)).status).toBe(0);
  });

  it('refuses an admin\'s own account', async () => {
    const res = await s.request('POST', `accounts/${s.ids.accounts.admin}/status`, { token: await s.login('admin'), body: { status: 1 } });
    expect(res.status).toBe(403);
    expect((await accountRow(s, s.ids.accounts.admin)).status).toBe(0);
  });

  it('answers NotFound for an account of another group, and for an id that does not exist', async () => {
    const other = await createGroup(s);
    const stranger = await createAccount(s, { groupId: other.groupId });
    const token = await s.login('admin');
    const res = await s.request('POST', `accounts/${stranger.id}/status`, { token, body: { status: 1 } });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('NotFound');
    expect((await accountRow(s, stranger.id)).status).toBe(0);
    expect((await s.request('POST', 'accounts/2000000000/status', { token, body: { status: 1 } })).status).toBe(404);
  });

  it('lets the admin of another group not touch the demo group\'s accounts', async () => {
    const other = await createGroup(s);
    const otherAdmin = await createAccount(s, { groupId: other.groupId, groupAdmin: true });
    const res = await s.request('POST', `accounts/${s.ids.accounts.rad1}/status`, { token: await s.login(otherAdmin.username), body: { status: 1 } });
    expect(res.status).toBe(404);
    expect((await accountRow(s, s.ids.accounts.rad1)).status).toBe(0);
  });
});

describe('POST accounts/{id}/password/reset (a forgotten password)', () => {
  it('lets a group admin set a new password (204): the old password and the old tokens stop working, the new password signs in', async () => {
    const member = await createAccount(s, { groupId: s.ids.groupId });
    const memberToken = await s.login(member.username);
    const res = await s.request('POST', `accounts/${member.id}/password/reset`, { token: await s.login('admin'), body: { newPassword: 'Temp#2024' } });
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();
    expect((await s.request('GET', 'accounts/me', { token: memberToken })).status).toBe(401);
    expect((await login(member.username, member.password)).status).toBe(401);
    expect((await login(member.username, 'Temp#2024')).status).toBe(200);
  });

  it('lifts the login block of a member who locked themselves out', async () => {
    const member = await createAccount(s, { groupId: s.ids.groupId });
    for (let i = 0; i < 5; i++) await login(member.username, `Forgot${i}x`);
    expect((await login(member.username, member.password)).status).toBe(429);
    await s.request('POST', `accounts/${member.id}/password/reset`, { token: await s.login('admin'), body: { newPassword: 'Temp#2024' } });
    expect((await login(member.username, 'Temp#2024')).status).toBe(200);
  });

  it('refuses a new password that breaks the rule with PasswordTooSimple and changes nothing', async () => {
    const member = await createAccount(s, { groupId: s.ids.groupId });
    const memberToken = await s.login(member.username);
    const res = await s.request('POST', `accounts/${member.id}/password/reset`, { token: await s.login('admin'), body: { newPassword: 'abcdefg' } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('PasswordTooSimple');
    expect((await s.request('GET', 'accounts/me', { token: memberToken })).status).toBe(200);
    expect((await login(member.username, member.password)).status).toBe(200);
  });

  it('refuses a member who is not a group admin with Forbidden', async () => {
    const member = await createAccount(s, { groupId: s.ids.groupId });
    const res = await s.request('POST', `accounts/${member.id}/password/reset`, { token: await s.login('rad1'), body: { newPassword: 'Temp#2024' } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('Forbidden');
    expect((await login(member.username, member.password)).status).toBe(200);
  });

  it('refuses the admin\'s own account (change-password is for that)', async () => {
    const res = await s.request('POST', `accounts/${s.ids.accounts.admin}/password/reset`, { token: await s.login('admin'), body: { newPassword: 'Temp#2024' } });
    expect(res.status).toBe(403);
    expect((await login('admin', 'Demo1234')).status).toBe(200);
  });

  it('answers NotFound for an account of another group and for an unknown id', async () => {
    const other = await createGroup(s);
    const stranger = await createAccount(s, { groupId: other.groupId });
    const token = await s.login('admin');
    expect((await s.request('POST', `accounts/${stranger.id}/password/reset`, { token, body: { newPassword: 'Temp#2024' } })).status).toBe(404);
    expect((await login(stranger.username, stranger.password)).status).toBe(200);
    expect((await s.request('POST', 'accounts/2000000000/password/reset', { token, body: { newPassword: 'Temp#2024' } })).status).toBe(404);
  });

  it('refuses an account that also belongs to a group the caller does not administer', async () => {
    const other = await createGroup(s);
    const both = await createAccount(s, { groupId: s.ids.groupId });
    await joinGroup(s, both.id, other.groupId);
    const res = await s.request('POST', `accounts/${both.id}/password/reset`, { token: await s.login('admin'), body: { newPassword: 'Temp#2024' } });
    expect(res.status).toBe(403);
    expect((await login(both.username, both.password)).status).toBe(200);
  });

  it('needs a token', async () => {
    const res = await s.request('POST', `accounts/${s.ids.accounts.rad2}/password/reset`, { body: { newPassword: 'Temp#2024' } });
    expect(res.status).toBe(401);
  });
});
