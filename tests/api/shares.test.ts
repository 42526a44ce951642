import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicationStateSchema } from '../../contract/shares';
import { exams, reportPublications, reportTraces, reports } from '../../server/db/schema';
import { startServer, type TestServer } from '../support/server';

let s: TestServer;
let rad1: string;
let registrar: string;
let expert: string;
let admin: string;

type Pick = { reportId: number; examId: number; patientId: string; serviceRequestId: string; patientName: string; patientDob: string | null };

/** Live reports of the hospital in a status, with their exam's identifiers. */
async function reportsIn(status: string): Promise<Pick[]> {
  return s.db.db.select({
    reportId: reports.id, examId: exams.id, patientId: exams.patientId, serviceRequestId: exams.serviceRequestId,
    patientName: exams.patientName, patientDob: exams.patientDob,
  }).from(reports).innerJoin(exams, eq(exams.id, reports.examId))
    .where(and(eq(reports.bucketId, s.ids.hospitalId), eq(reports.status, status), isNull(reports.deletedTime), isNull(exams.deletedTime), isNotNull(exams.serviceRequestId), isNotNull(exams.patientDob)))
    .orderBy(reports.id) as Promise<Pick[]>;
}

const share = (reportId: number, token = rad1, ttlDays?: number) =>
  s.request('POST', `reports/${reportId}/share`, { token, body: ttlDays ? { ttlDays } : {} });
const view = (link: string) => s.request('GET', `share/report?link=${encodeURIComponent(link)}`);
/** Each block of public calls starts a fresh minute, so the per-address limit is tested only where meant. */
const freshMinute = () => s.clock.advance(61_000);

beforeAll(async () => {
  s = await startServer({ exams: 150 });
  [rad1, registrar, expert, admin] = await Promise.all(['rad1', 'registrar', 'expert', 'admin'].map((u) => s.login(u)));
});
afterAll(async () => { await s.close(); });

describe('report share links', () => {
  it('makes an unguessable link that shows the approved report and the exam without internal ids', async () => {
    const [a] = await reportsIn('corrected');
    const made = await share(a!.reportId);
    expect(made.status).toBe(201);
    expect(made.body.link).toMatch(/^[A-Za-z0-9_-]{32}$/); // 192 random bits
    expect(made.body.path).toBe(`/reports/s?link=${made.body.link}`);
    const res = await view(made.body.link);
    expect(res.status).toBe(200);
    const [row] = await s.db.db.select().from(reports).where(eq(reports.id, a!.reportId));
    expect(res.body).toMatchObject({ state: 'final', changedSinceShared: false, report: { finding: row!.finding, diagnosis: row!.diagnosis } });
    expect(Object.keys(res.body.exam).sort()).toEqual(['bodyPart', 'examTime', 'modality', 'organisation', 'patientGender', 'patientName', 'studyDescription', 'visitAge']);
    expect(JSON.stringify(res.body)).not.toMatch(/"(id|examId|reportId|bucketId|creatorId|issuerId)"/);
  });

  it('grants only its own report', async () => {
    const [a, b] = await reportsIn('corrected');
    const linkA = (await share(a!.reportId)).body.link;
    const linkB = (await share(b!.reportId)).body.link;
    const [rowA] = await s.db.db.select().from(reports).where(eq(reports.id, a!.reportId));
    const seen = await view(linkA);
    expect(seen.body.report).toMatchObject({ finding: rowA!.finding, diagnosis: rowA!.diagnosis });
    expect(seen.body.exam.patientName).toBe(a!.patientName);
    expect((await view(linkB)).body.exam.patientName).toBe(b!.patientName);
    // Any other string is no link at all.
    expect((await view(linkA.slice(0, -1) + (linkA.endsWith('A') ? 'B' : 'A'))).status).toBe(404);
    expect((await view('short')).status).toBe(404);
    expect((await s.request('GET', 'share/report')).status).toBe(400);
  });

  it('says a report not yet approved is pending and shows nothing of it', async () => {
    const [draft] = await reportsIn('partial');
    const res = await view((await share(draft!.reportId)).body.link);
    expect(res.body).toMatchObject({ state: 'pending', report: null, changedSinceShared: false });
  });

  it('shows nothing while the report is recalled, and the corrected version flagged once approved again', async () => {
    freshMinute();
    const [, , c] = await reportsIn('corrected');
    const link = (await share(c!.reportId)).body.link;
    // What the report lifecycle writes when the approver recalls it and then approves a corrected text.
    s.clock.advance(60_000);
    await s.db.db.update(reports).set({ status: 'cancelled', recallReason: '测量值有误' }).where(eq(reports.id, c!.reportId));
    await s.db.db.insert(reportTraces).values({ reportId: c!.reportId, accountId: s.ids.accounts.chief, action: 'recall', fromStatus: 'corrected', toStatus: 'cancelled', created: s.clock.now() });
    const recalled = await view(link);
    expect(recalled.body).toMatchObject({ state: 'recalled', report: null, changedSinceShared: true });

    s.clock.advance(60_000);
    await s.db.db.update(reports).set({ status: 'corrected', diagnosis: '<p>更正后的结论</p>', approvedTime: s.clock.now() }).where(eq(reports.id, c!.reportId));
    const corrected = await view(link);
    expect(corrected.body).toMatchObject({ state: 'final', changedSinceShared: true, report: { diagnosis: '<p>更正后的结论</p>' } });
  });

  it('answers 410 for an expired or revoked link', async () => {
    freshMinute();
    const [a] = await reportsIn('corrected');
    const short = (await share(a!.reportId, rad1, 1)).body.link;
    const revoked = (await share(a!.reportId)).body.link;
    expect((await s.request('POST', `reports/${a!.reportId}/shares/${revoked}/revoke`, { token: registrar })).status).toBe(403);
    expect((await s.request('POST', `reports/${a!.reportId}/shares/${revoked}/revoke`, { token: rad1 })).status).toBe(204);
    expect((await view(revoked)).body).toMatchObject({ code: 'LinkExpired', details: { reason: 'revoked' } });
    s.clock.advance(86_400_000 + 1000);
    [rad1, registrar, expert, admin] = await Promise.all(['rad1', 'registrar', 'expert', 'admin'].map((u) => s.login(u)));
    const expired = await view(short);
    expect([expired.status, expired.body.details.reason]).toEqual([410, 'expired']);
    const listed = await s.request('GET', `reports/${a!.reportId}/shares`, { token: rad1 });
    expect(listed.body.find((l: { link: string }) => l.link === revoked).revoked).toBe(true);
  });

  it('lets only report_print in the report organisation make links', async () => {
    const [a] = await reportsIn('corrected');
    expect((await share(a!.reportId, registrar)).status).toBe(403);
    expect((await share(a!.reportId, expert)).status).toBe(404);
    expect((await s.request('POST', `reports/${a!.reportId}/share`, { body: {} })).status).toBe(401);
    expect((await s.request('POST', `reports/${a!.reportId}/share`, { token: rad1, body: { ttlDays: 0 } })).status).toBe(400);
  });

  it('limits the lookups of one address', async () => {
    freshMinute();
    const [a] = await reportsIn('corrected');
    const link = (await share(a!.reportId)).body.link;
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) statuses.push((await view(link)).status);
    expect(statuses.slice(0, 60).every((st) => st === 200)).toBe(true);
    const last = await view(link);
    expect([last.status, last.body.code]).toEqual([429, 'TooManyAttempts']);
    expect(last.body.details.retryAfter).toBeGreaterThan(0);
  });
});

describe('report view by patient ID and service request ID (/web-report)', () => {
  it('answers the patient approved reports when both ids name one exam, by GET and by POST', async () => {
    freshMinute();
    const [a] = await reportsIn('corrected');
    const q = `patientId=${encodeURIComponent(a!.patientId)}&serviceRequestId=${encodeURIComponent(a!.serviceRequestId)}`;
    const got = await s.request('GET', `yyp/report-view?${q}`);
    expect(got.status).toBe(200);
    expect(got.body.items.length).toBeGreaterThan(0);
    expect(got.body.items.every((i: { exam: { patientName: string } }) => i.exam.patientName === a!.patientName)).toBe(true);
    const posted = await s.request('POST', 'yyp/report-view', { body: { patientId: a!.patientId, serviceRequestId: a!.serviceRequestId } });
    expect(posted.body).toEqual(got.body);
  });

  it('says nothing when the ids do not belong together, and blocks an address that keeps guessing', async () => {
    freshMinute();
    const [a, b] = await reportsIn('corrected');
    const mismatched = await s.request('POST', 'yyp/report-view', { body: { patientId: a!.patientId, serviceRequestId: b!.serviceRequestId } });
    expect([mismatched.status, mismatched.body.code]).toEqual([404, 'NotFound']);
    for (let i = 0; i < 9; i++) await s.request('POST', 'yyp/report-view', { body: { patientId: 'P0', serviceRequestId: `SR${i}` } });
    const blocked = await s.request('POST', 'yyp/report-view', { body: { patientId: a!.patientId, serviceRequestId: a!.serviceRequestId } });
    expect([blocked.status, blocked.body.code]).toEqual([429, 'TooManyAttempts']);
    s.clock.advance(15 * 60_000);
    expect((await s.request('POST', 'yyp/report-view', { body: { patientId: a!.patientId, serviceRequestId: a!.serviceRequestId } })).status).toBe(200);
  });
});

describe('report publishing and the organisation list (/reports/{orgCode}/list)', () => {
  it('lists to a verified patient only the reports published and approved', async () => {
    freshMinute();
    [admin, rad1] = await Promise.all([s.login('admin'), s.login('rad1')]);
    const [a] = await reportsIn('printed');
    const config = await s.request('GET', 'integration/org-verify-configs/CITY1-RAD');
    expect(config.body).toEqual({ orgCode: 'CITY1-RAD', organisation: '市第一人民医院放射科', fields: ['patientId', 'patientName', 'patientDob'] });
    const verifies = encodeURIComponent(JSON.stringify({ patientId: a!.patientId, patientName: ` ${a!.patientName} `, patientDob: a!.patientDob }));
    const list = () => s.request('GET', `integration/exam-reports?orgCode=CITY1-RAD&verifies=${verifies}`);
    expect((await list()).body.items).toEqual([]);

    expect((await s.request('POST', `reports/${a!.reportId}/publish`, { token: rad1 })).status).toBe(403);
    expect((await s.request('POST', `reports/${a!.reportId}/publish`, { token: admin })).status).toBe(200);
    const published = await list();
    expect(published.body.items).toHaveLength(1);
    expect(published.body.items[0].exam.patientName).toBe(a!.patientName);
    const board = await s.request('GET', `report-publish/list?bucketId=${s.ids.hospitalId}`, { token: admin });
    expect(board.body.items.map((p: { reportId: number }) => p.reportId)).toContain(a!.reportId);

    // Recalled after publishing: off the list until approved again.
    await s.db.db.update(reports).set({ status: 'cancelled' }).where(eq(reports.id, a!.reportId));
    expect((await list()).body.items).toEqual([]);
    await s.db.db.update(reports).set({ status: 'printed' }).where(eq(reports.id, a!.reportId));
    expect((await s.request('DELETE', `reports/${a!.reportId}/publish`, { token: admin })).status).toBe(204);
    expect((await list()).body.items).toEqual([]);
  });

  it('refuses to publish a report that is not approved', async () => {
    const [draft] = await reportsIn('partial');
    expect((await s.request('POST', `reports/${draft!.reportId}/publish`, { token: admin })).body.code).toBe('InvalidTransition');
  });

  it('says nothing to a wrong birth date, an unknown organisation or bad verifies', async () => {
    freshMinute();
    const [a] = await reportsIn('printed');
    const wrong = encodeURIComponent(JSON.stringify({ patientId: a!.patientId, patientName: a!.patientName, patientDob: '1900-01-01' }));
    expect((await s.request('GET', `integration/exam-reports?orgCode=CITY1-RAD&verifies=${wrong}`)).status).toBe(404);
    const right = encodeURIComponent(JSON.stringify({ patientId: a!.patientId, patientName: a!.patientName, patientDob: a!.patientDob }));
    expect((await s.request('GET', `integration/exam-reports?orgCode=NOPE&verifies=${right}`)).status).toBe(404);
    expect((await s.request('GET', `integration/exam-reports?orgCode=CITY1-RAD&verifies=${encodeURIComponent('{not json')}`)).status).toBe(400);
    expect((await s.request('GET', 'integration/org-verify-configs/NOPE')).status).toBe(404);
  });
});

describe('the publishing desk (/report-publish and /report-publish/detail)', () => {
  type Row = { reportId: number; status: string; publishedAt: string; publishedByName: string | null };
  const state = (reportId: number, token?: string) => s.request('GET', `reports/${reportId}/publish`, { token });
  const board = async (query = '') => (await s.request('GET', `report-publish/list?bucketId=${s.ids.hospitalId}${query}`, { token: admin })).body as { items: Row[]; total: number };
  /** An approved report of the hospital that nothing has published yet. */
  async function unpublished(): Promise<Pick> {
    const taken = new Set((await s.db.db.select({ id: reportPublications.reportId }).from(reportPublications)).map((r) => r.id));
    const found = (await reportsIn('corrected')).reverse().find((r) => !taken.has(r.reportId));
    if (!found) throw new Error('no unpublished approved report left');
    return found;
  }

  it('says whether a report is published, by whom and when, and follows publishing and unpublishing', async () => {
    [admin, rad1, expert] = await Promise.all(['admin', 'rad1', 'expert'].map((u) => s.login(u)));
    const a = await unpublished();
    const before = await state(a.reportId, admin);
    expect(before.status).toBe(200);
    expect(publicationStateSchema.parse(before.body)).toEqual({ reportId: a.reportId, published: false, publishedAt: null, publishedByName: null });

    s.clock.advance(1000);
    const made = await s.request('POST', `reports/${a.reportId}/publish`, { token: admin });
    expect(made.status).toBe(200);
    const after = await state(a.reportId, admin);
    expect(publicationStateSchema.parse(after.body)).toEqual({ reportId: a.reportId, published: true, publishedAt: made.body.publishedAt, publishedByName: '系统管理员' });
    expect(new Date(after.body.publishedAt).getTime()).toBe(s.clock.now().getTime());

    // Recalled after publishing: still on the desk's list (so it can be taken off), not shown to patients.
    await s.db.db.update(reports).set({ status: 'cancelled' }).where(eq(reports.id, a.reportId));
    expect((await state(a.reportId, admin)).body.published).toBe(true);
    expect((await board()).items.find((r) => r.reportId === a.reportId)?.status).toBe('cancelled');
    await s.db.db.update(reports).set({ status: 'corrected' }).where(eq(reports.id, a.reportId));

    expect((await s.request('DELETE', `reports/${a.reportId}/publish`, { token: admin })).status).toBe(204);
    expect((await state(a.reportId, admin)).body).toEqual({ reportId: a.reportId, published: false, publishedAt: null, publishedByName: null });
  });

  it('answers only order_report_publish in the report organisation', async () => {
    const a = await unpublished();
    expect((await state(a.reportId, rad1)).status).toBe(403);
    expect((await state(a.reportId, registrar)).body.code).toBe('Forbidden');
    const outside = await state(a.reportId, expert);
    expect([outside.status, outside.body.code]).toEqual([404, 'NotFound']);
    expect((await state(a.reportId)).status).toBe(401);
    expect((await state(2_000_000_000, admin)).status).toBe(404);
    expect((await s.request('GET', 'reports/abc/publish', { token: admin })).status).toBe(400);
    // A report of a deleted exam is gone for the desk too.
    const b = await unpublished();
    await s.db.db.update(exams).set({ deletedTime: s.clock.now() }).where(eq(exams.id, b.examId));
    expect((await state(b.reportId, admin)).status).toBe(404);
    await s.db.db.update(exams).set({ deletedTime: null }).where(eq(exams.id, b.examId));
  });

  it('lists the organisation publications newest first with the publisher name, a page at a time', async () => {
    [admin, rad1, registrar] = await Promise.all(['admin', 'rad1', 'registrar'].map((u) => s.login(u)));
    const picked: number[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await unpublished();
      expect((await s.request('POST', `reports/${r.reportId}/publish`, { token: admin })).status).toBe(200);
      picked.push(r.reportId);
    }
    const all = await board('&limit=200');
    expect(all.total).toBeGreaterThanOrEqual(3);
    expect(all.items.slice(0, 3).map((r) => r.reportId).sort()).toEqual([...picked].sort());
    expect(all.items.every((r) => r.publishedByName === '系统管理员')).toBe(true);
    const times = all.items.map((r) => r.publishedAt);
    expect([...times].sort().reverse()).toEqual(times);
    // Pages neither overlap nor skip, also within one instant.
    const first = await board('&skip=0&limit=2');
    const second = await board('&skip=2&limit=2');
    expect(first.total).toBe(all.total);
    expect([...first.items, ...second.items].map((r) => r.reportId)).toEqual(all.items.slice(0, 4).map((r) => r.reportId));
    expect((await s.request('GET', `report-publish/list?bucketId=${s.ids.hospitalId}&limit=201`, { token: admin })).status).toBe(400);
    expect((await s.request('GET', `report-publish/list?bucketId=${s.ids.hospitalId}`, { token: rad1 })).status).toBe(403);
    for (const id of picked) await s.request('DELETE', `reports/${id}/publish`, { token: admin });
  });
});

describe('electronic film', () => {
  it('opens the exam images and its approved report with the link and the code, and with the patient ID and the code', async () => {
    freshMinute();
    [rad1] = await Promise.all([s.login('rad1')]);
    const [a] = await reportsIn('corrected');
    const made = await s.request('POST', 'film-share/share', { token: rad1, body: { examId: a!.examId } });
    expect(made.status).toBe(201);
    expect(made.body.code).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
    expect(made.body.path).toBe(`/sf/${made.body.link}`);
    const byLink = await s.request('POST', 'film-share/find-and-verify', { body: { link: made.body.link, code: made.body.code.toLowerCase() } });
    expect(byLink.status).toBe(200);
    expect(byLink.body).toMatchObject({ state: 'final', exam: { patientName: a!.patientName }, report: { diagnosis: expect.any(String) } });
    const series = await s.request('GET', `${byLink.body.viewer.seriesPath}?token=${byLink.body.viewer.token}`);
    expect(series.status).toBe(200);
    const byPatient = await s.request('POST', 'film-share/find-and-verify', { body: { patientId: a!.patientId, code: made.body.code } });
    expect(byPatient.body.exam).toEqual(byLink.body.exam);
  });

  it('locks a film after five wrong codes and answers 410 once revoked or expired', async () => {
    freshMinute();
    const [a] = await reportsIn('corrected');
    const made = await s.request('POST', 'film-share/share', { token: rad1, body: { examId: a!.examId, ttlDays: 1 } });
    for (let i = 0; i < 5; i++) {
      expect((await s.request('POST', 'film-share/find-and-verify', { body: { link: made.body.link, code: 'AAAAAAAA' } })).status).toBe(404);
    }
    const locked = await s.request('POST', 'film-share/find-and-verify', { body: { link: made.body.link, code: made.body.code } });
    expect([locked.status, locked.body.code]).toEqual([429, 'TooManyAttempts']);
    s.clock.advance(15 * 60_000);
    [rad1] = await Promise.all([s.login('rad1')]);
    expect((await s.request('POST', 'film-share/find-and-verify', { body: { link: made.body.link, code: made.body.code } })).status).toBe(200);
    s.clock.advance(86_400_000);
    expect((await s.request('POST', 'film-share/find-and-verify', { body: { link: made.body.link, code: made.body.code } })).body.details.reason).toBe('expired');
    [rad1, registrar, expert] = await Promise.all(['rad1', 'registrar', 'expert'].map((u) => s.login(u)));
    const other = await s.request('POST', 'film-share/share', { token: rad1, body: { examId: a!.examId } });
    expect((await s.request('POST', `film-share/${other.body.link}/revoke`, { token: registrar })).status).toBe(403);
    expect((await s.request('POST', `film-share/${other.body.link}/revoke`, { token: rad1 })).status).toBe(204);
    expect((await s.request('POST', 'film-share/find-and-verify', { body: { link: other.body.link, code: other.body.code } })).status).toBe(410);
    expect((await s.request('POST', 'film-share/share', { token: expert, body: { examId: a!.examId } })).status).toBe(404);
    expect((await s.request('POST', 'film-share/share', { token: registrar, body: { examId: a!.examId } })).status).toBe(403);
  });
});
