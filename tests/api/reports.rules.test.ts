import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../server/db/schema';
import { act, detail, examRow, insertExam, reportIn, reportRow, tokenOf, tracesOf, DIAGNOSIS, FINDING } from '../support/reports';
import { startServer, type TestServer } from '../support/server';

/** Core §4 and §5 rules of the report lifecycle as the API applies them. */
let s: TestServer;
// Tokens outlive the clock moves of the time tests.
beforeAll(async () => { s = await startServer({ exams: 5, tokenTtlSeconds: 30 * 86_400 }); });
afterAll(async () => { await s.close(); });

describe('the report of an exam', () => {
  it('creates the draft report once, so the workspace URL always has an id', async () => {
    const examId = await insertExam(s);
    const token = await tokenOf(s, 'rad1');
    const first = await s.request('POST', `exams/${examId}/reports`, { token });
    const again = await s.request('POST', `exams/${examId}/reports`, { token });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ status: 'none', examId, creator: null, version: 1 });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    expect(await examRow(s, examId)).toMatchObject({ reportId: first.body.id, reportStatus: 'none', reportCreatorId: null });
    const list = await s.request('GET', `exams/${examId}/reports`, { token });
    expect(list.body.items.map((r: { id: number }) => r.id)).toEqual([first.body.id]);
  });

  it('creates one report when two people open a new exam at once', async () => {
    const examId = await insertExam(s);
    const answers = await Promise.all(['rad1', 'rad2', 'chief', 'rad1'].map(async (u) => s.request('POST', `exams/${examId}/reports`, { token: await tokenOf(s, u) })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 201]);
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
  });

  it('keeps the exam\'s copy of status and creator in step with every change, including lock and delete', async () => {
    const r = await reportIn(s, 'partial');
    expect(await examRow(s, r.examId)).toMatchObject({ reportId: r.id, reportStatus: 'partial', reportCreatorId: s.ids.accounts.rad1 });
    const locked = await act(s, 'rad1', r, 'lock', { version: r.version });
    expect((await examRow(s, r.examId)).reportStatus).toBe('locked');
    const deleted = await act(s, 'rad1', r, 'delete', { version: locked.body.version });
    expect(deleted.body).toMatchObject({ deleted: true, status: 'partial', transitions: ['recovery'] });
    expect(await examRow(s, r.examId)).toMatchObject({ reportId: null, reportStatus: null, reportCreatorId: null });
    expect((await s.request('GET', `exams/${r.examId}/reports`, { token: await tokenOf(s, 'rad1') })).body.total).toBe(0);
    expect((await s.request('GET', `exams/${r.examId}/reports?deleted=true`, { token: await tokenOf(s, 'rad1') })).body.total).toBe(1);
    const recovered = await act(s, 'chief', r, 'recovery', { version: deleted.body.version });
    expect(recovered.body).toMatchObject({ deleted: false, status: 'partial', lockedBy: null });
    expect(await examRow(s, r.examId)).toMatchObject({ reportId: r.id, reportStatus: 'partial' });
  });
});

describe('validation (core §5)', () => {
  it('refuses submit when findings and conclusion are both empty, markup or not, and changes nothing', async () => {
    const r = await reportIn(s, 'none');
    const saved = await act(s, 'rad1', r, 'save', { version: r.version, finding: '<p> </p><p><br></p>', diagnosis: '' });
    expect(saved.status).toBe(200);
    const res = await act(s, 'rad1', r, 'submit', { version: saved.body.version, diagnosis: '<p>&nbsp;　</p>' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'ReportEmpty', message: 'Findings or conclusion must not be empty' });
    expect(await reportRow(s, r.id)).toMatchObject({ status: 'partial', version: saved.body.version, diagnosis: '' });
    expect((await act(s, 'rad1', r, 'submit', { version: saved.body.version, diagnosis: DIAGNOSIS })).body.status).toBe('final');
  });

  it.each([
    ['a note over 256 characters', { note: 'x'.repeat(257) }],
    ['a bodypart count below 1', { bodypartCount: 0 }],
    ['a fractional bodypart count', { bodypartCount: 1.5 }],
    ['positive as text', { positive: 'yes' }],
    ['a missing version', { version: undefined }],
    ['a version of 0', { version: 0 }],
    ['finding as a number', { finding: 5 }],
  ])('answers 400 ParamsError for %s, and changes nothing', async (_label, patch) => {
    const r = await reportIn(s, 'partial');
    const res = await act(s, 'rad1', r, 'save', { version: r.version, ...patch });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('ParamsError');
    expect((await reportRow(s, r.id)).version).toBe(r.version);
  });

  it('accepts a note of exactly 256 characters and bodypart count 1', async () => {
    const r = await reportIn(s, 'partial');
    const res = await act(s, 'rad1', r, 'save', { version: r.version, note: '注'.repeat(256), bodypartCount: 1, positive: null });
    expect(res.status).toBe(200);
    expect(res.body.note).toHaveLength(256);
  });

  it.each(['reject', 'recall'] as const)('needs a reason to %s (core §4)', async (action) => {
    const r = await reportIn(s, action === 'reject' ? 'final' : 'corrected');
    for (const reason of [undefined, '', '   ']) {
      const res = await act(s, 'chief', r, action, { version: r.version, reason });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('ParamsError');
    }
    const ok = await act(s, 'chief', r, action, { version: r.version, reason: '  原因  ' });
    expect(ok.body[action === 'reject' ? 'rejectReason' : 'recallReason']).toBe('原因');
  });

  it('answers 404 for an unknown action and ParamsError for a bad id', async () => {
    const r = await reportIn(s, 'partial');
    expect((await act(s, 'rad1', r, 'frobnicate', { version: r.version })).status).toBe(404);
    const bad = await s.request('POST', 'reports/abc/save', { token: await tokenOf(s, 'rad1'), body: { version: 1 } });
    expect(bad.body.code).toBe('ParamsError');
  });
});

describe('versions', () => {
  it('refuses a stale version with VersionConflict and keeps the newer text', async () => {
    const r = await reportIn(s, 'partial');
    const first = await act(s, 'rad1', r, 'save', { version: r.version, finding: '<p>第一版</p>' });
    const stale = await act(s, 'rad1', r, 'save', { version: r.version, finding: '<p>旧页面的版本</p>' });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: 'VersionConflict', details: { version: first.body.version } });
    expect(await reportRow(s, r.id)).toMatchObject({ finding: '<p>第一版</p>', version: first.body.version });
  });
});

describe('times', () => {
  it('gives a recalled-then-reapproved report the time of the last approval', async () => {
    const r = await reportIn(s, 'corrected');
    const firstApproval = (await reportRow(s, r.id)).approvedTime!;
    s.clock.advance(3_600_000);
    const recalled = await act(s, 'chief', r, 'recall', { version: r.version, reason: '更正' });
    const resubmitted = await act(s, 'rad1', r, 'submit', { version: recalled.body.version, finding: '<p>更正后的所见</p>' });
    s.clock.advance(60_000);
    const reapproved = await act(s, 'chief', r, 'approve', { version: resubmitted.body.version });
    const now = s.clock.now().toISOString();
    expect(reapproved.body).toMatchObject({ approvedTime: now, printApprovedAt: now, lastOperationTime: now, recallReason: null });
    expect(new Date(reapproved.body.approvedTime).getTime()).toBeGreaterThan(firstApproval.getTime());
  });
});

describe('externally synced reports (core §4)', () => {
  it('are read-only until confirmed by a save, and then stop syncing', async () => {
    const r = await reportIn(s, 'none');
    const synced = await act(s, 'rad1', r, 'sync', { version: r.version, finding: '<p>外部系统的所见</p>', diagnosis: '<p>外部结论</p>' });
    expect(synced.body).toMatchObject({ syncPending: true, status: 'none', finding: '<p>外部系统的所见</p>' });
    // Read-only: confirm (save), discard (reset, delete), or take a newer external version (sync).
    expect(synced.body.transitions).toEqual(['save', 'reset', 'sync', 'delete']);
    expect((await act(s, 'rad1', r, 'submit', { version: synced.body.version })).status).toBe(409);
    const confirmed = await act(s, 'rad1', r, 'save', { version: synced.body.version });
    expect(confirmed.body).toMatchObject({ syncPending: false, syncStopped: true, status: 'partial', creator: { id: s.ids.accounts.rad1 } });
    expect(confirmed.body.transitions).not.toContain('sync');
    const again = await act(s, 'rad1', r, 'sync', { version: confirmed.body.version, finding: '<p>再次同步</p>' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('InvalidTransition');
  });

  it('can be discarded before confirmation', async () => {
    const r = await reportIn(s, 'none');
    const synced = await act(s, 'rad1', r, 'sync', { version: r.version, finding: '<p>外部系统的所见</p>' });
    const reset = await act(s, 'rad1', r, 'reset', { version: synced.body.version });
    expect(reset.body).toMatchObject({ syncPending: false, finding: '', status: 'none' });
  });
});

describe('mutability (core §4)', () => {
  it('makes a report read-only once its exam is uploaded to another organisation, but still printable', async () => {
    const r = await reportIn(s, 'corrected');
    await s.db.db.update(t.exams).set({ targetBucketId: s.ids.expertCentreId }).where(eq(t.exams.id, r.examId));
    const seen = await detail(s, 'chief', r.id);
    expect(seen.body).toMatchObject({ mutable: false, transitions: ['print'] });
    expect((await act(s, 'chief', r, 'recall', { version: r.version, reason: '更正' })).body.code).toBe('InvalidTransition');
    expect((await act(s, 'rad1', r, 'print', { version: r.version })).status).toBe(200);

    const draft = await reportIn(s, 'partial');
    await s.db.db.update(t.exams).set({ targetBucketId: s.ids.hospitalId }).where(eq(t.exams.id, draft.examId));
    expect((await detail(s, 'rad1', draft.id)).body).toMatchObject({ mutable: true });
  });
});

describe('note takers (core §4)', () => {
  it('counts a report of an exam without images as note-taker origin and records who typed it', async () => {
    const examId = await insertExam(s, { hasImage: false });
    const r = await reportIn(s, 'none', { examId });
    expect((await detail(s, 'rad1', r.id)).body.noteTakerOrigin).toBe(true);
    const saved = await act(s, 'rad2', r, 'save', { version: r.version, finding: FINDING });
    expect(saved.body).toMatchObject({ noteTakerOrigin: true, noteTaker: { id: s.ids.accounts.rad2 } });
    const withImages = await reportIn(s, 'partial');
    expect((await detail(s, 'rad1', withImages.id)).body).toMatchObject({ noteTakerOrigin: false, noteTaker: null });
  });
});

describe('joint exams (core §5)', () => {
  async function visit() {
    const patientId = `J${Math.random().toString(36).slice(2, 10)}`;
    const examTime = s.clock.now();
    const main = await insertExam(s, { patientId, examTime });
    const second = await insertExam(s, { patientId, examTime: new Date(examTime.getTime() + 20 * 60_000) });
    const third = await insertExam(s, { patientId, examTime: new Date(examTime.getTime() + 40 * 60_000) });
    const otherModality = await insertExam(s, { patientId, examTime, modality: 'MR' });
    const nextWeek = await insertExam(s, { patientId, examTime: new Date(examTime.getTime() + 7 * 86_400_000) });
    return { main, second, third, otherModality, nextWeek };
  }

  it('holds the submit until each joint exam is confirmed or discarded, then reports the confirmed ones too', async () => {
    const v = await visit();
    const r = await reportIn(s, 'partial', { examId: v.main });
    const asked = await act(s, 'rad1', r, 'submit', { version: r.version });
    expect(asked.status).toBe(409);
    expect(asked.body.code).toBe('JointExamsPending');
    expect(asked.body.details.exams.map((e: { id: number }) => e.id)).toEqual([v.second, v.third]);
    expect((await reportRow(s, r.id)).status).toBe('partial');

    const partly = await act(s, 'rad1', r, 'submit', { version: r.version, jointExams: { confirm: [v.second] } });
    expect(partly.body.details.exams.map((e: { id: number }) => e.id)).toEqual([v.third]);
    const stray = await act(s, 'rad1', r, 'submit', { version: r.version, jointExams: { confirm: [v.nextWeek], discard: [v.second, v.third] } });
    expect(stray.body.code).toBe('ParamsError');

    const done = await act(s, 'rad1', r, 'submit', { version: r.version, jointExams: { confirm: [v.second], discard: [v.third] } });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ status: 'final', jointExamIds: [v.second] });
    expect(await examRow(s, v.second)).toMatchObject({ reportId: r.id, reportStatus: 'final', reportCreatorId: s.ids.accounts.rad1 });
    expect((await examRow(s, v.third)).reportId).toBeNull();
    const listed = await s.request('GET', `exams/${v.second}/reports`, { token: await tokenOf(s, 'rad1') });
    expect(listed.body.items.map((x: { id: number }) => x.id)).toEqual([r.id]);

    // Decided once: a recall and a new submit do not ask again.
    const approved = await act(s, 'chief', r, 'approve', { version: done.body.version });
    const recalled = await act(s, 'chief', r, 'recall', { version: approved.body.version, reason: '更正' });
    expect((await act(s, 'rad1', r, 'submit', { version: recalled.body.version })).status).toBe(200);
  });
});

describe('traces', () => {
  it('writes one trace per action with who, statuses, reason and the text after it', async () => {
    const r = await reportIn(s, 'hold');
    const traces = await tracesOf(s, r.id);
    expect(traces.map((x) => [x.action, x.fromStatus, x.toStatus, x.accountId])).toEqual([
      ['create', null, 'none', s.ids.accounts.rad1],
      ['save', 'none', 'partial', s.ids.accounts.rad1],
      ['submit', 'partial', 'final', s.ids.accounts.rad1],
      ['reject', 'final', 'hold', s.ids.accounts.chief],
    ]);
    expect(traces[3]!.reason).toBe('结论不完整');
    expect(traces[3]!.snapshot).toMatchObject({ finding: FINDING, diagnosis: DIAGNOSIS, version: r.version });
  });

  it('diffs two snapshots word by word, Chinese included', async () => {
    const r = await reportIn(s, 'partial');
    await act(s, 'rad1', r, 'save', { version: r.version, finding: '<p>右肺下叶见两个结节影，大小约12mm。</p>' });
    const token = await tokenOf(s, 'chief');
    const list = (await s.request('GET', `reports/${r.id}/report-trace`, { token })).body.items;
    const from = list.find((x: { action: string }) => x.action === 'save').id;
    const to = list.at(-1).id;
    await s.db.db.update(t.reportTraces).set({ snapshot: { finding: '<p>右肺上叶见一结节影，大小约8mm。</p>', diagnosis: DIAGNOSIS } }).where(eq(t.reportTraces.id, from));
    const diff = await s.request('GET', `reports/${r.id}/diff-trace?fromId=${from}&toId=${to}`, { token });
    const finding = diff.body.fields.find((f: { field: string }) => f.field === 'finding');
    expect(finding.changed).toBe(true);
    expect(finding.parts.filter((p: { removed: boolean }) => p.removed).map((p: { value: string }) => p.value)).toEqual(['上', '一', '8mm']);
    expect(finding.parts.filter((p: { added: boolean }) => p.added).map((p: { value: string }) => p.value)).toEqual(['下', '两个', '12mm']);
    expect(diff.body.fields.find((f: { field: string }) => f.field === 'diagnosis').changed).toBe(false);
    const foreign = await s.request('GET', `reports/${r.id}/traces/999999`, { token });
    expect(foreign.status).toBe(404);
  });
});

describe('quality records', () => {
  it('are rated on approved reports by someone other than the writer, and read by the report\'s readers', async () => {
    const draft = await reportIn(s, 'final');
    const admin = await tokenOf(s, 'admin');
    expect((await s.request('POST', `reports/${draft.id}/quality/upsert`, { token: admin, body: { grade: 'A' } })).body.code).toBe('InvalidTransition');
    const r = await reportIn(s, 'corrected');
    expect((await s.request('GET', `reports/${r.id}/quality`, { token: await tokenOf(s, 'tech') })).body).toBeNull();
    const rated = await s.request('POST', `reports/${r.id}/quality/upsert`, { token: admin, body: { grade: 'B', score: 82, comment: '描述略简', items: { 规范性: 4 } } });
    expect(rated.body).toMatchObject({ grade: 'B', score: 82, comment: '描述略简', items: { 规范性: 4 }, reviewer: { id: s.ids.accounts.admin } });
    const again = await s.request('POST', `reports/${r.id}/quality/upsert`, { token: admin, body: { grade: 'A' } });
    expect(again.body).toMatchObject({ grade: 'A', score: null });
    expect((await s.request('GET', `reports/${r.id}/quality`, { token: await tokenOf(s, 'rad2') })).body.grade).toBe('A');
    expect((await s.request('POST', `reports/${r.id}/quality/upsert`, { token: admin, body: { grade: 'E' } })).body.code).toBe('ParamsError');
  });
});

describe('bad input anywhere in the report area', () => {
  it('is a 400 ParamsError, never a 500, and changes nothing', async () => {
    const r = await reportIn(s, 'corrected');
    const admin = await tokenOf(s, 'admin');
    const before = await reportRow(s, r.id);
    const calls: [string, string, unknown][] = [
      ['POST', `reports/${r.id}/recall`, ['not', 'an', 'object']],
      ['POST', `reports/${r.id}/recall`, 'text'],
      ['POST', `reports/${r.id}/recall`, { version: '1', reason: '理由' }],
      ['POST', `reports/${r.id}/recall`, { version: r.version, reason: 'x'.repeat(513) }],
      ['POST', `reports/${r.id}/recall`, { version: r.version, reason: 'a\u0000b' }],
      ['POST', `reports/${r.id}/submit`, { version: r.version, jointExams: { confirm: ['x'] } }],
      ['POST', `reports/${r.id}/save`, { version: r.version, extensions: { k: { nested: true } } }],
      ['POST', `reports/${r.id}/quality/upsert`, { grade: 'A', score: 101 }],
      ['POST', `reports/${r.id}/quality/upsert`, { grade: 'A', items: { k: [1] } }],
      ['POST', 'report-templates/upsert', { bucketId: s.ids.hospitalId }],
      ['POST', 'report-templates/upsert', { bucketId: s.ids.hospitalId, name: '   ' }],
      ['POST', 'report-templates/upsert', { bucketId: s.ids.hospitalId, name: 'x', parentId: 999_999 }],
      ['GET', `reports/${r.id}/diff-trace?fromId=1`, undefined],
      ['GET', `reports/${r.id}/diff-trace?fromId=a&toId=b`, undefined],
      ['GET', 'reports/0/detail', undefined],
      ['GET', 'reports/99999999999/detail', undefined],
      ['GET', 'exams/x/reports', undefined],
      ['GET', `exams/${r.examId}/reports?deleted=maybe`, undefined],
      ['GET', 'report-templates', undefined],
      ['GET', `report-templates/search?bucketId=${s.ids.hospitalId}`, undefined],
      ['DELETE', 'report-templates/abc', undefined],
    ];
    const wrong: string[] = [];
    for (const [method, path, body] of calls) {
      const res = await s.request(method, path, { token: admin, body });
      if (res.status !== 400 || res.body.code !== 'ParamsError') wrong.push(`${method} ${path} ${JSON.stringify(body)} → ${res.status} ${res.body?.code}`);
    }
    expect(wrong).toEqual([]);
    expect(await reportRow(s, r.id)).toEqual(before);
  });
});
