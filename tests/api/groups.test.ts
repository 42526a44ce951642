import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditTrail } from '../../server/audit/record';
import * as t from '../../server/db/schema';
import { createAccount, createGroup, unique } from '../support/accounts';
import { reportIn } from '../support/reports';
import { startWithLogins, type TestServer } from '../support/server';

/**
 * Groups on the real server (areas §3 Group, §5, §6, §7 "Groups"): name availability, creating a group (the right to,
 * one group per creator), reading and changing its settings (and the flags gating registry and calling at the next
 * request), deleting it, and its quality summary. Members: groups.members.test.ts; organisations, rules and settings
 * lists: groups.organizations.test.ts.
 */
let s: TestServer;
let admin: string;
let rad1: string;
beforeAll(async () => { ({ s, tokens: [admin, rad1] } = await startWithLogins({ exams: 5 }, 'admin', 'rad1')); });
afterAll(async () => { await s.close(); });

/** An account allowed to create groups (given the right straight in the database), in no group. */
async function creator() {
  const acc = await createAccount(s);
  await s.db.db.update(t.accounts).set({ canCreateGroup: true }).where(eq(t.accounts.id, acc.id));
  return { ...acc, token: await s.login(acc.username) };
}

describe('GET groups/available', () => {
  it('answers true for a free name and false for a taken one, in any case', async () => {
    expect((await s.request('GET', `groups/available?name=${unique('free')}`, { token: rad1 })).body).toEqual({ available: true });
    expect((await s.request('GET', 'groups/available?name=demo', { token: rad1 })).body).toEqual({ available: false });
    expect((await s.request('GET', 'groups/available?name=DEMO', { token: rad1 })).body).toEqual({ available: false });
  });

  it('refuses names that break alpha_dash or the length with ParamsError', async () => {
    for (const name of ['a', 'has space', 'x'.repeat(65), 'bad!name', '名字', '']) {
      const res = await s.request('GET', `groups/available?name=${encodeURIComponent(name)}`, { token: rad1 });
      expect([name, res.status, res.body.code]).toEqual([name, 400, 'ParamsError']);
    }
    expect((await s.request('GET', 'groups/available', { token: rad1 })).status).toBe(400);
  });

  it('needs a signed-in caller', async () => {
    expect((await s.request('GET', 'groups/available?name=abc')).status).toBe(401);
  });
});

describe('POST groups', () => {
  it('refuses an account without the right to create groups', async () => {
    const acc = await createAccount(s);
    const res = await s.request('POST', 'groups', { token: await s.login(acc.username), body: { name: unique('g'), displayName: 'X' } });
    expect([res.status, res.body.code]).toEqual([403, 'Forbidden']);
  });

  it('creates the group with its creator as group admin, and refuses a second one (one group per creator)', async () => {
    const c = await creator();
    const name = unique('grp');
    const res = await s.request('POST', 'groups', { token: c.token, body: { name, displayName: '新集团' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name, displayName: '新集团', accessLevel: 1, enableRegistry: false, openPrivateCloud: '0', admin: { createdBy: c.id, memberCount: 1, organizationCount: 0 } });
    const [row] = await s.db.db.select().from(t.groups).where(eq(t.groups.id, res.body.id));
    expect(row!.createdBy).toBe(c.id);
    const mine = (await s.request('GET', 'groups/mine', { token: c.token })).body;
    expect(mine.map((g: { id: number; accessLevel: number }) => [g.id, g.accessLevel])).toEqual([[res.body.id, 1]]);
    expect((await s.request('GET', `groups/available?name=${name}`, { token: c.token })).body).toEqual({ available: false });
    expect((await auditTrail(s.db.db, 'group', res.body.id)).map((e) => e.action)).toEqual(['create']);

    const again = await s.request('POST', 'groups', { token: c.token, body: { name: unique('grp'), displayName: '第二个' } });
    expect([again.status, again.body.code]).toEqual([409, 'AlreadyInGroup']);
  });

  it('refuses an account that already belongs to a group, even with the right', async () => {
    const acc = await createAccount(s, { groupId: s.ids.groupId });
    await s.db.db.update(t.accounts).set({ canCreateGroup: true }).where(eq(t.accounts.id, acc.id));
    const res = await s.request('POST', 'groups', { token: await s.login(acc.username), body: { name: unique('g'), displayName: 'X' } });
    expect([res.status, res.body.code]).toEqual([409, 'AlreadyInGroup']);
    expect((await s.request('POST', 'groups', { token: admin, body: { name: unique('g'), displayName: 'X' } })).body.code).toBe('AlreadyInGroup');
  });

  it('refuses a taken name (any case) with GroupNameTaken', async () => {
    const c = await creator();
    const res = await s.request('POST', 'groups', { token: c.token, body: { name: 'Demo', displayName: 'X' } });
    expect([res.status, res.body.code]).toEqual([409, 'GroupNameTaken']);
  });

  it('refuses bad input with ParamsError', async () => {
    const c = await creator();
    for (const body of [{}, { name: 'x', displayName: 'X' }, { name: 'ok-name', displayName: '' }, { name: 'a b c', displayName: 'X' }, { name: 'okname' }, { name: 12, displayName: 'X' }]) {
      const res = await s.request('POST', 'groups', { token: c.token, body });
      expect([JSON.stringify(body), res.status, res.body.code]).toEqual([JSON.stringify(body), 400, 'ParamsError']);
    }
  });
});

describe('GET groups/{id}', () => {
  it('gives members the group with its flags, and its admins also who made it and how big it is', async () => {
    const asAdmin = (await s.request('GET', `groups/${s.ids.groupId}`, { token: admin })).body;
    const asMember = (await s.request('GET', `groups/${s.ids.groupId}`, { token: rad1 })).body;
    expect(asAdmin).toMatchObject({ id: s.ids.groupId, name: 'demo', accessLevel: 1, enableRegistry: true, enableCalling: true, searchInGroup: false, logo: null });
    expect(asAdmin.admin.memberCount).toBeGreaterThanOrEqual(9);
    expect(asAdmin.admin.organizationCount).toBeGreaterThanOrEqual(2);
    expect(asMember.accessLevel).toBe(0);
    expect(asMember.admin).toBeUndefined();
    // The caller's own: the admin reads the group's statistics, rad1 (no statistics_report) does not.
    expect([asAdmin.readsStatistics, asMember.readsStatistics]).toEqual([true, false]);
    const { admin: _a, accessLevel: _l, readsStatistics: _r, ...shared } = asAdmin;
    expect(asMember).toMatchObject(shared);
  });

  it('answers 404 outside the group, 401 anonymously and 400 for a bad id', async () => {
    const other = await createGroup(s);
    expect((await s.request('GET', `groups/${other.groupId}`, { token: admin })).status).toBe(404);
    expect((await s.request('GET', 'groups/999999', { token: admin })).status).toBe(404);
    expect((await s.request('GET', `groups/${s.ids.groupId}`)).status).toBe(401);
    expect((await s.request('GET', 'groups/abc', { token: admin })).body.code).toBe('ParamsError');
  });
});

describe('PATCH groups/{id}', () => {
  it('lets a group admin change every setting; groups/mine shows them; the change is audited', async () => {
    const c = await creator();
    const g = (await s.request('POST', 'groups', { token: c.token, body: { name: unique('set'), displayName: 'Set' } })).body;
    const org = (await s.request('POST', `groups/${g.id}/organizations`, { token: c.token, body: { name: '机构', code: unique('ORG').replace(/\W/g, '') } })).body;
    const patch = {
      displayName: '改名', domainName: 'x.local', openTelemed: true, enableRegistry: true, enableStat: true, enableConsultation: true,
      autoNotifyAudio: '/a.wav', autoConsulNotifyAudio: '/b.wav', defaultConsultationBucketId: org.id, defaultExpertBucketId: org.id,
      isGroupKb: true, featEncryptionViewerOn: true, enableCalling: true, openPrivateCloud: '1', allowOverview: true, enableCredit: true,
      pathologyUrl: 'https://path.local', allowAccountMgmt: true, matchDob: 'shift_on', logo: '/logo.png', url: 'https://g.local',
      allowRegistration: true, searchInGroup: true,
    };
    const res = await s.request('PATCH', `groups/${g.id}`, { token: c.token, body: patch });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject(patch);
    const [mine] = (await s.request('GET', 'groups/mine', { token: c.token })).body;
    expect(mine).toMatchObject(patch);
    // Statistics switched on: the administrator now reads them (they did not when the group was made).
    expect([g.readsStatistics, res.body.readsStatistics, mine.readsStatistics]).toEqual([false, true, true]);
    expect(Object.keys(mine)).not.toContain('name');
    const trail = await auditTrail(s.db.db, 'group', g.id);
    expect(trail.at(-1)).toMatchObject({ action: 'update', actorId: c.id, after: patch });
    expect(trail.at(-1)!.before).toMatchObject({ displayName: 'Set', enableRegistry: false });
    // Empty strings clear the optional texts.
    expect((await s.request('PATCH', `groups/${g.id}`, { token: c.token, body: { logo: '', domainName: '' } })).body).toMatchObject({ logo: null, domainName: null });
  });

  it('refuses bad input with ParamsError and organisations of another group with BucketNotInGroup', async () => {
    const other = await createGroup(s);
    for (const body of [{ openPrivateCloud: '2' }, { enableCalling: 'yes' }, { unknownFlag: true }, { matchDob: 'never' }, { displayName: '' }, { defaultExpertBucketId: -1 }, { logo: 'x'.repeat(1025) }]) {
      const res = await s.request('PATCH', `groups/${s.ids.groupId}`, { token: admin, body });
      expect([JSON.stringify(body), res.status, res.body.code]).toEqual([JSON.stringify(body), 400, 'ParamsError']);
    }
    const res = await s.request('PATCH', `groups/${s.ids.groupId}`, { token: admin, body: { defaultExpertBucketId: other.bucketId } });
    expect([res.status, res.body.code, res.body.details]).toEqual([400, 'BucketNotInGroup', { bucketIds: [other.bucketId] }]);
  });

  it('refuses members who are not its admin (403, the hospital admin too) and callers outside the group (404)', async () => {
    expect((await s.request('PATCH', `groups/${s.ids.groupId}`, { token: rad1, body: { enableCalling: false } })).status).toBe(403);
    expect((await s.request('PATCH', `groups/${s.ids.groupId}`, { token: await s.login('orgadmin'), body: { enableCalling: false } })).status).toBe(403);
    const c = await creator();
    expect((await s.request('PATCH', `groups/${s.ids.groupId}`, { token: c.token, body: { enableCalling: false } })).status).toBe(404);
    expect((await s.request('GET', `groups/${s.ids.groupId}`, { token: admin })).body.enableCalling).toBe(true);
  });
});

describe('group flags gate features at the next request', () => {
  it('turns the registry desk off and on for a member who stays signed in', async () => {
    const registrar = await s.login('registrar');
    const setup = () => s.request('GET', `buckets/${s.ids.hospitalId}/registry/setup`, { token: registrar });
    expect((await setup()).status).toBe(200);
    expect((await s.request('PATCH', `groups/${s.ids.groupId}`, { token: admin, body: { enableRegistry: false } })).status).toBe(200);
    expect((await setup()).status).toBe(403);
    await s.request('PATCH', `groups/${s.ids.groupId}`, { token: admin, body: { enableRegistry: true } });
    expect((await setup()).status).toBe(200);
  });

  it('turns the call queue off and on for a member who stays signed in', async () => {
    const registrar = await s.login('registrar');
    const queues = () => s.request('GET', `buckets/${s.ids.hospitalId}/queue-types`, { token: registrar });
    expect((await queues()).status).toBe(200);
    await s.request('PATCH', `groups/${s.ids.groupId}`, { token: admin, body: { enableCalling: false } });
    expect((await queues()).status).toBe(403);
    await s.request('PATCH', `groups/${s.ids.groupId}`, { token: admin, body: { enableCalling: true } });
    expect((await queues()).status).toBe(200);
  });
});

describe('DELETE groups/{id}', () => {
  it('refuses while its organisations hold exams (GroupNotEmpty), and deletes an empty group with its organisations', async () => {
    const refused = await s.request('DELETE', `groups/${s.ids.groupId}`, { token: admin });
    expect([refused.status, refused.body.code]).toEqual([409, 'GroupNotEmpty']);
    expect(refused.body.details.bucketIds).toContain(s.ids.hospitalId);

    const c = await creator();
    const g = (await s.request('POST', 'groups', { token: c.token, body: { name: unique('del'), displayName: 'Del' } })).body;
    const org = (await s.request('POST', `groups/${g.id}/organizations`, { token: c.token, body: { name: '空机构', code: unique('EMPTY').replace(/\W/g, '') } })).body;
    const res = await s.request('DELETE', `groups/${g.id}`, { token: c.token });
    expect(res.status).toBe(204);
    expect(await s.db.db.select().from(t.groups).where(eq(t.groups.id, g.id))).toEqual([]);
    expect(await s.db.db.select().from(t.buckets).where(eq(t.buckets.id, org.id))).toEqual([]);
    expect((await s.request('GET', `groups/${g.id}`, { token: c.token })).status).toBe(404);
    expect((await auditTrail(s.db.db, 'group', g.id)).map((e) => e.action)).toEqual(['create', 'delete']);
  });

  it('refuses plain members (403) and callers outside the group (404)', async () => {
    expect((await s.request('DELETE', `groups/${s.ids.groupId}`, { token: rad1 })).status).toBe(403);
    const c = await creator();
    expect((await s.request('DELETE', `groups/${s.ids.groupId}`, { token: c.token })).status).toBe(404);
  });
});

describe('GET groups/{id}/quality', () => {
  it('counts the quality records of the group\'s organisations by grade, for its members only', async () => {
    const before = (await s.request('GET', `groups/${s.ids.groupId}/quality`, { token: rad1 })).body;
    for (const grade of ['A', 'A', 'B']) {
      const report = await reportIn(s, 'none');
      await s.db.db.insert(t.reportQuality).values({ reportId: report.id, bucketId: s.ids.hospitalId, grade, updated: s.clock.now() });
    }
    const res = await s.request('GET', `groups/${s.ids.groupId}/quality`, { token: rad1 });
    expect(res.status).toBe(200);
    const count = (body: typeof before, grade: string) => body.grades.find((g: { grade: string }) => g.grade === grade)?.count ?? 0;
    expect(res.body.total).toBe(before.total + 3);
    expect([count(res.body, 'A') - count(before, 'A'), count(res.body, 'B') - count(before, 'B')]).toEqual([2, 1]);
    const hospital = res.body.organizations.find((o: { bucketId: number }) => o.bucketId === s.ids.hospitalId);
    expect(hospital.total).toBeGreaterThanOrEqual(3);
    const c = await creator();
    expect((await s.request('GET', `groups/${s.ids.groupId}/quality`, { token: c.token })).status).toBe(404);
  });
});

describe('one group per creator, at the same moment', () => {
  it('lets only one of two simultaneous creates of one account through', async () => {
    const c = await creator();
    const results = await Promise.all([unique('race'), unique('race')].map((name) =>
      s.request('POST', 'groups', { token: c.token, body: { name, displayName: 'Race' } })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(results.find((r) => r.status === 409)!.body.code).toBe('AlreadyInGroup');
    expect(await s.db.db.select().from(t.groups).where(eq(t.groups.createdBy, c.id))).toHaveLength(1);
  });
});

describe('another group\'s admin', () => {
  it('gets 404 from every endpoint of the demo group, and the demo admin 404 from theirs', async () => {
    const c = await creator();
    const own = (await s.request('POST', 'groups', { token: c.token, body: { name: unique('cross'), displayName: 'Cross' } })).body;
    const g = s.ids.groupId;
    const calls: [string, string, unknown?][] = [
      ['GET', `groups/${g}`], ['PATCH', `groups/${g}`, { displayName: 'x' }], ['DELETE', `groups/${g}`], ['GET', `groups/${g}/quality`],
      ['GET', `groups/${g}/members`], ['POST', `groups/${g}/members/query`, {}], ['POST', `groups/${g}/members/invite`, { username: 'rad1' }],
      ['POST', `groups/${g}/members/create-account`, { username: unique('x'), name: 'x', password: 'Abc12345' }],
      ['PATCH', `groups/${g}/members/${s.ids.accounts.rad1}`, { accessLevel: 1 }], ['DELETE', `groups/${g}/members/${s.ids.accounts.rad1}`],
      ['POST', `groups/${g}/quit`], ['GET', `groups/${g}/organizations`], ['POST', `groups/${g}/organizations/query`, {}],
      ['POST', `groups/${g}/organizations`, { name: 'x', code: 'CROSS1234' }], ['DELETE', `groups/${g}/organizations/${s.ids.expertCentreId}`],
      ['GET', `groups/${g}/rules`], ['GET', `groups/${g}/rads`], ['GET', `groups/${g}/expert-buckets`], ['PUT', `groups/${g}/expert-buckets`, []],
      ['GET', `groups/${g}/consultation-targets`], ['PUT', `groups/${g}/registry-buckets`, []], ['GET', `groups/${g}/notifications`],
      ['PUT', `groups/${g}/notifications`, []],
    ];
    for (const [method, path, body] of calls) {
      const res = await s.request(method, path, { token: c.token, body });
      expect([method, path, res.status]).toEqual([method, path, 404]);
    }
    expect((await s.request('GET', `groups/${own.id}/members`, { token: admin })).status).toBe(404);
    expect((await s.request('GET', `buckets/${s.ids.hospitalId}/registry/setup`, { token: await s.login('registrar') })).status).toBe(200);
  });
});
