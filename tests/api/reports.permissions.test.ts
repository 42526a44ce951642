import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_ACTIONS } from '../../contract/reports';
import * as t from '../../server/db/schema';
import { createAccount, createGroup } from '../support/accounts';
import { act, detail, examRow, insertExam, reportIn, reportRow, tokenOf, tracesOf, FINDING } from '../support/reports';
import { startServer, type TestServer } from '../support/server';

/**
 * Who may do what to a report (core §6). The status every demo role gets from every report endpoint is the
 * table in tests/api/matrix/reports.ts (run by matrix.test.ts); here: organisations that are not the
 * account's, and the rules that depend on who the person is rather than on a permission.
 */
let s: TestServer;
beforeAll(async () => { s = await startServer({ exams: 5 }); });
afterAll(async () => { await s.close(); });

const DEMO = ['admin', 'rad1', 'rad2', 'chief', 'registrar', 'tech', 'expert'] as const;

/** Every report endpoint, aimed at one report (and its exam, traces and organisation). */
function endpoints(r: { id: number; examId: number; version: number; traceId: number; bucketId: number; templateId: number }) {
  return [
    ...REPORT_ACTIONS.map((a) => ({ method: 'POST', path: `reports/${r.id}/${a}`, body: { version: r.version, reason: '理由', accountId: 1, finding: '<p>x</p>' } })),
    { method: 'GET', path: `reports/${r.id}/detail` },
    { method: 'GET', path: `reports/${r.id}/report-trace` },
    { method: 'GET', path: `reports/${r.id}/traces/${r.traceId}` },
    { method: 'GET', path: `reports/${r.id}/diff-trace?fromId=${r.traceId}&toId=${r.traceId}` },
    { method: 'GET', path: `reports/${r.id}/quality` },
    { method: 'POST', path: `reports/${r.id}/quality/upsert`, body: { grade: 'A' } },
    { method: 'GET', path: `reports/${r.id}/print-data` },
    { method: 'GET', path: `exams/${r.examId}/reports` },
    { method: 'POST', path: `exams/${r.examId}/reports` },
    { method: 'GET', path: `report-templates?bucketId=${r.bucketId}` },
    { method: 'GET', path: `report-templates/search?bucketId=${r.bucketId}&q=x` },
    { method: 'POST', path: 'report-templates/upsert', body: { bucketId: r.bucketId, name: 'x' } },
    { method: 'DELETE', path: `report-templates/${r.templateId}` },
  ];
}

describe('organisations that are not the account\'s', () => {
  it('answers 404 on every report endpoint, to every demo role, for a report of another group, and changes nothing', async () => {
    const other = await createGroup(s);
    const writer = await createAccount(s, { buckets: [{ bucketId: other.bucketId, actions: ['report_upsert'] }] });
    const examId = await insertExam(s, { bucketId: other.bucketId });
    const [report] = await s.db.db.insert(t.reports).values({
      examId, bucketId: other.bucketId, sourceBucketId: other.bucketId, status: 'corrected', creatorId: writer.id, finding: FINDING,
    }).returning();
    const [trace] = await s.db.db.insert(t.reportTraces).values({ reportId: report!.id, accountId: writer.id, action: 'save', snapshot: {} }).returning();
    const [template] = await s.db.db.insert(t.reportTemplates).values({ bucketId: other.bucketId, name: 'other' }).returning();
    const target = { id: report!.id, examId, version: report!.version, traceId: trace!.id, bucketId: other.bucketId, templateId: template!.id };

    const answers: string[] = [];
    for (const role of DEMO) {
      for (const e of endpoints(target)) {
        const res = await s.request(e.method, e.path, { token: await tokenOf(s, role), body: e.body });
        if (res.status !== 404) answers.push(`${role} ${e.method} ${e.path} → ${res.status} ${res.body?.code}`);
      }
    }
    expect(answers).toEqual([]);
    expect(await reportRow(s, report!.id)).toMatchObject({ version: report!.version, status: 'corrected', lockedById: null, deletedTime: null });
    expect((await tracesOf(s, report!.id)).length).toBe(1);
  });

  it('keeps the expert centre\'s reports from hospital staff and the hospital\'s from the expert', async () => {
    const centreExam = await insertExam(s, { bucketId: s.ids.expertCentreId });
    const created = await s.request('POST', `exams/${centreExam}/reports`, { token: await tokenOf(s, 'expert') });
    expect(created.status).toBe(201);
    const hospitalReport = await reportIn(s, 'final');
    for (const role of ['rad1', 'rad2', 'chief', 'registrar', 'tech'] as const) {
      expect((await detail(s, role, created.body.id)).status, role).toBe(404);
      expect((await act(s, role, created.body, 'save', { version: created.body.version, finding: FINDING })).status, role).toBe(404);
    }
    expect((await detail(s, 'expert', hospitalReport.id)).status).toBe(404);
    expect((await act(s, 'expert', hospitalReport, 'approve', { version: hospitalReport.version })).status).toBe(404);
    expect((await detail(s, 'expert', created.body.id)).body.transitions).toEqual(['save', 'submit', 'lock', 'sync', 'delete', 'assign']);
  });
});

describe('who the person is', () => {
  it('gives each demo role its own transitions on a submitted report', async () => {
    const r = await reportIn(s, 'final');
    const seen: Record<string, unknown> = {};
    for (const role of DEMO) {
      const res = await detail(s, role, r.id);
      seen[role] = res.status === 200 ? res.body.transitions : res.status;
    }
    expect(seen).toEqual({
      admin: ['save', 'approve', 'reject', 'advise', 'lock'],
      rad1: ['cancelSubmit'],
      rad2: ['advise'],
      chief: ['save', 'approve', 'reject', 'advise', 'lock'],
      registrar: 403,
      tech: [],
      expert: 404,
    });
  });

  it('refuses approve to the report\'s own creator, even one who holds report_approval', async () => {
    const examId = await insertExam(s);
    const created = await s.request('POST', `exams/${examId}/reports`, { token: await tokenOf(s, 'chief') });
    const submitted = await act(s, 'chief', created.body, 'submit', { version: created.body.version, finding: FINDING });
    expect(submitted.status).toBe(200);
    expect(submitted.body.transitions).toEqual(['cancelSubmit']);
    const approve = await act(s, 'chief', created.body, 'approve', { version: submitted.body.version });
    expect(approve.status).toBe(403);
    expect(approve.body.code).toBe('Forbidden');
    const reject = await act(s, 'chief', created.body, 'reject', { version: submitted.body.version, reason: '自己驳回' });
    expect(reject.status).toBe(403);
    expect((await act(s, 'admin', created.body, 'approve', { version: submitted.body.version })).status).toBe(200);
  });

  it('lets only the creator edit a draft', async () => {
    const r = await reportIn(s, 'partial');
    for (const role of ['rad2', 'chief', 'admin'] as const) {
      const res = await act(s, role, r, 'save', { version: r.version, finding: '<p>他人修改</p>' });
      expect({ role, status: res.status, code: res.body.code }).toEqual({ role, status: 403, code: 'Forbidden' });
    }
    expect((await reportRow(s, r.id)).finding).toBe(FINDING);
  });

  it('lets an advisor without approval rights edit a submitted report only when the creator ticked the option', async () => {
    const off = await reportIn(s, 'final');
    expect((await detail(s, 'rad2', off.id)).body.transitions).toEqual(['advise']);
    const refused = await act(s, 'rad2', off, 'save', { version: off.version, finding: '<p>顾问修改</p>' });
    expect(refused.status).toBe(403);
    const adviceWithText = await act(s, 'rad2', off, 'advise', { version: off.version, reason: '建议', finding: '<p>顾问修改</p>' });
    expect(adviceWithText.status).toBe(403);
    expect((await reportRow(s, off.id)).version).toBe(off.version);

    const draft = await reportIn(s, 'partial');
    const ticked = await act(s, 'rad1', draft, 'submit', { version: draft.version, allowAdvisorEdit: true });
    expect(ticked.body.allowAdvisorEdit).toBe(true);
    expect((await detail(s, 'rad2', draft.id)).body.transitions).toEqual(['save', 'advise', 'lock']);
    const edited = await act(s, 'rad2', draft, 'save', { version: ticked.body.version, finding: '<p>顾问修改后的所见</p>' });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ status: 'advised', finding: '<p>顾问修改后的所见</p>', lastUpdater: { id: s.ids.accounts.rad2 } });
    // chief has report_approval as well as report_advice: he edits as the approver, never as an advisor.
    expect((await detail(s, 'chief', draft.id)).body.transitions).toContain('approve');
  });

  it('names the locker when someone else acts on a locked report, and changes nothing', async () => {
    const r = await reportIn(s, 'locked');
    const res = await act(s, 'chief', r, 'assign', { version: r.version, accountId: s.ids.accounts.rad2 });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      code: 'ReportLocked', message: 'The report has been locked by 李明, your edit is invalid',
      details: { lockedBy: s.ids.accounts.rad1, lockerName: '李明' },
    });
    expect((await detail(s, 'chief', r.id)).body.transitions).toEqual(['force-unlock']);
    const forced = await act(s, 'chief', r, 'force-unlock', { version: r.version });
    expect(forced.body).toMatchObject({ status: 'partial', lockedBy: null });
    expect((await act(s, 'chief', r, 'assign', { version: forced.body.version, accountId: s.ids.accounts.rad2 })).status).toBe(200);
  });

  it('hands a draft over on assign: the new assignee writes it, the old creator no longer does', async () => {
    const r = await reportIn(s, 'partial');
    const assigned = await act(s, 'chief', r, 'assign', { version: r.version, accountId: s.ids.accounts.rad2 });
    expect(assigned.body).toMatchObject({ assignee: { id: s.ids.accounts.rad2, name: '王芳' }, creator: { id: s.ids.accounts.rad2 } });
    expect((await detail(s, 'rad1', r.id)).body.transitions).toEqual([]);
    expect((await detail(s, 'rad2', r.id)).body.transitions).toContain('submit');
    expect((await examRow(s, r.examId)).assigneeId).toBe(s.ids.accounts.rad2);
  });

  it('lets only the assignee start an assigned report', async () => {
    const r = await reportIn(s, 'none');
    const assigned = await act(s, 'chief', r, 'assign', { version: r.version, accountId: s.ids.accounts.rad2 });
    expect((await act(s, 'rad1', r, 'save', { version: assigned.body.version, finding: FINDING })).status).toBe(403);
    const started = await act(s, 'rad2', r, 'save', { version: assigned.body.version, finding: FINDING });
    expect(started.body.creator).toEqual({ id: s.ids.accounts.rad2, name: '王芳' });
  });

  it('refuses an assignee who cannot write reports in the organisation', async () => {
    const r = await reportIn(s, 'partial');
    for (const who of [s.ids.accounts.registrar, s.ids.accounts.tech, s.ids.accounts.expert, 999_999]) {
      const res = await act(s, 'chief', r, 'assign', { version: r.version, accountId: who });
      expect({ who, status: res.status, code: res.body.code }).toEqual({ who, status: 400, code: 'ParamsError' });
    }
    expect((await reportRow(s, r.id)).assigneeId).toBeNull();
  });
});
