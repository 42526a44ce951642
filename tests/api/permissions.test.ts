import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_ACTIONS } from '../../contract/actions';
import { startServer, type TestServer } from '../support/server';

/**
 * What each demo account may do where (core §6): GET accounts/me/permissions and accounts/me/organizations.
 * The expected sets are written out, not imported from the seed, so a change to the demo roles shows here.
 */
let s: TestServer;
beforeAll(async () => { s = await startServer({ exams: 5 }); });
afterAll(async () => { await s.close(); });

const READING = ['exam_get', 'report_advice', 'report_print', 'report_trace', 'report_upsert'];
const APPROVING = [...READING, 'report_approval', 'report_assign', 'report_recall'];
const ASKING = [
  'consultation_create', 'consultation_update', 'consultation_clinicCase_create', 'consultation_clinicCase_delete',
  'consultation_Exam_create', 'consultation_Exam_delete', 'consultation_submitSuggestion',
];
const ANSWERING = ['consultation_update', 'consultation_submitSuggestion', 'consultation_clinicCase_create', 'consultation_clinicCase_delete'];
const APPLYING = ['apply_expert_report', 'apply_remote_report'];
const RADIOLOGIST = [...READING, ...ASKING, ...APPLYING];
const CHIEF = [...APPROVING, ...ASKING, ...APPLYING, 'payment_refund', 'upload_apply_forms', 'consultation_delete', 'statistics_report'];
const EXPECTED: Record<string, (ids: TestServer['ids']) => Record<number, string[]>> = {
  admin: (ids) => ({ [ids.hospitalId]: [...ALL_ACTIONS], [ids.expertCentreId]: [...ALL_ACTIONS] }),
  rad1: (ids) => ({ [ids.hospitalId]: RADIOLOGIST }),
  rad2: (ids) => ({ [ids.hospitalId]: RADIOLOGIST }),
  chief: (ids) => ({ [ids.hospitalId]: CHIEF }),
  registrar: (ids) => ({ [ids.hospitalId]: ['calling_call', 'calling_manage_queue', 'registry_create', 'registry_delete', 'registry_update'] }),
  tech: (ids) => ({ [ids.hospitalId]: ['attachment_create', 'attachment_delete', 'attachment_presigned_url', 'attachment_upload', 'exam_get', 'exam_upload'] }),
  expert: (ids) => ({ [ids.expertCentreId]: [...APPROVING, 'export_exams', 'study_package', ...ANSWERING, 'payment_refund'] }),
};

describe('GET accounts/me/permissions', () => {
  it.each(Object.keys(EXPECTED))('gives %s exactly its action set per organisation, as type-1 entries', async (username) => {
    const res = await s.request('GET', 'accounts/me/permissions', { token: await s.login(username) });
    expect(res.status).toBe(200);
    const expected = Object.fromEntries(Object.entries(EXPECTED[username]!(s.ids)).map(([bucketId, actions]) =>
      [bucketId, { type: 1, actions: [...actions].sort() }]));
    expect(res.body).toEqual(expected);
  });

  it('lists every action of the catalogue once for the admin', async () => {
    const res = await s.request('GET', 'accounts/me/permissions', { token: await s.login('admin') });
    const actions: string[] = res.body[String(s.ids.hospitalId)].actions;
    expect(new Set(actions).size).toBe(actions.length);
    expect(actions.length).toBe(ALL_ACTIONS.length);
  });

  it('needs a token', async () => {
    expect((await s.request('GET', 'accounts/me/permissions')).status).toBe(401);
  });
});

describe('GET accounts/me/organizations', () => {
  it.each([
    ['admin', (ids: TestServer['ids']) => [[ids.hospitalId, 'admin'], [ids.expertCentreId, 'admin']]],
    ['rad1', (ids: TestServer['ids']) => [[ids.hospitalId, 'member']]],
    ['rad2', (ids: TestServer['ids']) => [[ids.hospitalId, 'member']]],
    ['chief', (ids: TestServer['ids']) => [[ids.hospitalId, 'member']]],
    ['registrar', (ids: TestServer['ids']) => [[ids.hospitalId, 'member']]],
    ['tech', (ids: TestServer['ids']) => [[ids.hospitalId, 'member']]],
    ['expert', (ids: TestServer['ids']) => [[ids.expertCentreId, 'member']]],
  ] as const)('lists the organisations of %s with its access level', async (username, expected) => {
    const res = await s.request('GET', 'accounts/me/organizations', { token: await s.login(username) });
    expect(res.status).toBe(200);
    expect(res.body.map((o: { id: number; accessLevel: string }) => [o.id, o.accessLevel])).toEqual(expected(s.ids));
  });

  it('names each organisation with its code and group', async () => {
    const res = await s.request('GET', 'accounts/me/organizations', { token: await s.login('admin') });
    expect(res.body).toEqual([
      { id: s.ids.hospitalId, name: '市第一人民医院放射科', code: 'CITY1-RAD', groupId: s.ids.groupId, accessLevel: 'admin' },
      { id: s.ids.expertCentreId, name: '远程影像专家中心', code: 'EXPERT-CENTRE', groupId: s.ids.groupId, accessLevel: 'admin' },
    ]);
  });
});
