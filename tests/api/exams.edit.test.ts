import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditTrail } from '../../server/audit/record';
import { createAccount, createGroup } from '../support/accounts';
import { insertExam, tokenOf } from '../support/reports';
import { startServer, type TestServer } from '../support/server';

/**
 * Editing an exam's information (core §7 POST exams/{id}, action exam_update) as the edit screen does it: version
 * checked, audited, the patient-source rule of core §3, the organisation and the right checked.
 */
let s: TestServer;
let admin: string;
beforeAll(async () => {
  s = await startServer({ exams: 1 });
  admin = await tokenOf(s, 'admin');
});
afterAll(async () => { await s.close(); });

const edit = (id: number, body: Record<string, unknown>, token = admin) => s.request('POST', `exams/${id}`, { token, body });

describe('POST exams/{id} with version', () => {
  it('answers the row with the raised version, and refuses the stale one with 409 VersionConflict', async () => {
    const id = await insertExam(s);
    const read = (await s.request('GET', `exams/${id}`, { token: admin })).body;
    expect(read.version).toBe(0);
    const first = await edit(id, { version: 0, patientName: '张三改' });
    expect([first.status, first.body.patientName, first.body.version]).toEqual([200, '张三改', 1]);
    const stale = await edit(id, { version: 0, patientName: '李四' });
    expect([stale.status, stale.body.code, stale.body.details?.version]).toEqual([409, 'VersionConflict', 1]);
    expect((await s.request('GET', `exams/${id}`, { token: admin })).body).toMatchObject({ patientName: '张三改', version: 1 });
  });

  it('lets one of two concurrent edits from the same version through', async () => {
    const id = await insertExam(s);
    const answers = await Promise.all([edit(id, { version: 0, bodyPart: 'HEAD' }), edit(id, { version: 0, bodyPart: 'CHEST' })]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    expect((await s.request('GET', `exams/${id}`, { token: admin })).body.version).toBe(1);
  });

  it('records who changed which fields, before and after; an unchanged save changes nothing', async () => {
    const id = await insertExam(s, { patientId: 'E-AUD-1' });
    await edit(id, { version: 0, patientId: 'E-AUD-2', urgentFlag: true });
    const trail = await auditTrail(s.db.db, 'exam', id);
    expect(trail).toHaveLength(1);
    expect(trail[0]).toMatchObject({ area: 'exams', action: 'update', actorId: s.ids.accounts.admin, bucketId: s.ids.hospitalId,
      before: { patientId: 'E-AUD-1', urgentFlag: false }, after: { patientId: 'E-AUD-2', urgentFlag: true } });
    const again = await edit(id, { version: 1, patientId: 'E-AUD-2' });
    expect([again.status, again.body.version]).toEqual([200, 1]);
    expect(await auditTrail(s.db.db, 'exam', id)).toHaveLength(1);
  });

  it('enforces the patient-source rule on the result: inpatients need an inpatient id and a bed', async () => {
    const id = await insertExam(s);
    const refused = await edit(id, { version: 0, patientSource: 'I', inpatientId: 'ZY-1' });
    expect([refused.status, refused.body.code]).toEqual([400, 'ParamsError']);
    expect(JSON.stringify(refused.body)).toContain('bedNum');
    const ok = await edit(id, { version: 0, patientSource: 'I', inpatientId: 'ZY-1', bedNum: '12' });
    expect([ok.status, ok.body.patientSource, ok.body.version]).toEqual([200, 'I', 1]);
    const cleared = await edit(id, { version: 1, bedNum: '' });
    expect([cleared.status, cleared.body.code]).toEqual([400, 'ParamsError']);
  });

  it('refuses bad input with ParamsError, another organisation’s exam with 404, and an account without exam_update with 403', async () => {
    const id = await insertExam(s);
    for (const body of [{ version: -1 }, { version: 'x' }, { modality: 'ct' }, { visitAge: '12 years' }, { unknown: 1 }]) {
      const res = await edit(id, body);
      expect([JSON.stringify(body), res.status, res.body.code]).toEqual([JSON.stringify(body), 400, 'ParamsError']);
    }
    const elsewhere = await createGroup(s);
    expect((await edit(await insertExam(s, { bucketId: elsewhere.bucketId }), { version: 0, urgentFlag: true })).status).toBe(404);
    const reader = await createAccount(s, { groupId: s.ids.groupId, buckets: [{ bucketId: s.ids.hospitalId, actions: ['exam_get'] }] });
    const res = await edit(id, { version: 0, urgentFlag: true }, await s.login(reader.username));
    expect([res.status, res.body.code]).toEqual([403, 'Forbidden']);
  });
});
