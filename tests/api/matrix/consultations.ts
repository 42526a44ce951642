import { consultationIn, type ConsultationFixture } from '../../support/consultations';
import { png } from '../../support/files';
import { insertExam } from '../../support/reports';
import type { TestServer } from '../../support/server';
import * as t from '../../../server/db/schema';
import { signedIn, type MatrixRow } from './types';

const inState = (status: 0 | 1 | 2 | 3 | 4) => (s: TestServer) => consultationIn(s, status);
const at = (suffix: string) => ({ fixture }: { fixture: ConsultationFixture }) => `/consultations/${fixture.id}${suffix}`;
const versioned = (extra: Record<string, unknown>) => ({ fixture }: { fixture: ConsultationFixture }) => ({ version: fixture.version, ...extra });
/** The applicant side's rights (consultation_update or _create at the hospital); registrar and tech read, the expert is on the other side. */
const applicant = (ok: number) => signedIn(403, { admin: ok, orgadmin: ok, rad1: ok, rad2: ok, chief: ok });
/** consultation_create at the hospital, where the exam is: the expert is outside the hospital (404). */
const asking = (ok: number) => signedIn(403, { admin: ok, orgadmin: ok, rad1: ok, rad2: ok, chief: ok, expert: 404 });
/** The target side's right: consultation_update at the expert centre (admin of both, and the expert). */
const target = (ok: number) => signedIn(403, { admin: ok, orgadmin: 403, expert: ok });

/** A pending consultation with a case holding one stored PNG (the parts' rows below act on them). */
async function withFile(s: TestServer) {
  const c = await consultationIn(s, 0);
  const [row] = await s.db.db.insert(t.consultationCases).values({ consultationId: c.id, name: '病历', type: 'history', createdBy: s.ids.accounts.rad1 }).returning();
  const key = `consultations/${s.ids.hospitalId}/${c.id}/matrix.png`;
  await s.storage.put(key, PNG, { contentType: 'image/png' });
  const [file] = await s.db.db.insert(t.consultationAttachments).values({
    consultationId: c.id, caseId: row!.id, name: 'ct.png', fileType: 'image/png', size: PNG.length, storageKey: key, status: 'completed', createdBy: s.ids.accounts.rad1,
  }).returning();
  return { ...c, caseId: row!.id, attachmentId: file!.id };
}
const PNG = new Uint8Array(png(4, 4));
function pngForm() {
  const form = new FormData();
  form.append('file', new Blob([PNG]), 'scan.png');
  return form;
}
/** Two pending consultations, the first linking the second (all demo accounts read both). */
async function linked(s: TestServer) {
  const a = await consultationIn(s, 0);
  const b = await consultationIn(s, 0);
  await s.db.db.insert(t.consultationLinks).values({ consultationId: a.id, linkedId: b.id, createdBy: s.ids.accounts.rad1 });
  return { ...a, linkedId: b.id };
}
/** A pending consultation with a second visit exam of the hospital. */
async function withVisit(s: TestServer) {
  const c = await consultationIn(s, 0);
  const visitId = await insertExam(s);
  await s.db.db.insert(t.consultationExams).values({ consultationId: c.id, examId: visitId, addedBy: s.ids.accounts.rad1 });
  return { ...c, visitId };
}
/** Cases, attachments, links, visit exams (helper B): either side with the right; registrar and tech read only. */
const anySide = (ok: number) => signedIn(ok, { registrar: 403, tech: 403 });

/**
 * Consultations (contract/consultations.ts). The demo group has consultations on; the list is read by membership of
 * the applicant or a joined organisation (the hospital asks, the expert centre joins), so every demo account lists.
 */
export const rows: MatrixRow[] = [
  {
    method: 'POST', route: '/consultations/query-page',
    body: () => ({ filters: [{ field: 'status', operator: 'equal', values: [0] }], skip: 0, limit: 5 }), expect: signedIn(200),
  },
  // The area's core (helper A): every demo account reads (hospital members and the expert centre's expert); the
  // applicant side (hospital: admin, orgadmin, rad1, rad2, chief) asks, approves, cancels and rates; the target side
  // (centre: admin, expert) schedules, concludes and sets payment; registrar and tech read only (403 on writes).
  {
    method: 'POST', route: '/consultations/query', body: () => ({ filters: [{ field: 'mine', operator: 'equal', values: [true] }] }), expect: signedIn(200),
  },
  { method: 'POST', route: '/consultations/count', body: () => ({ filters: [] }), expect: signedIn(200) },
  { method: 'POST', route: '/consultations/export', body: () => ({ filters: [{ field: 'status', operator: 'equal', values: [0] }] }), expect: signedIn(200) },
  {
    method: 'GET', route: '/consultations/targets', setup: (s) => insertExam(s), path: ({ fixture }) => `/consultations/targets?examId=${fixture}`,
    expect: asking(200),
  },
  {
    method: 'GET', route: '/consultations/people', path: ({ s }) => `/consultations/people?bucketId=${s.ids.expertCentreId}`, expect: signedIn(200),
  },
  {
    method: 'POST', route: '/consultations', setup: (s) => insertExam(s),
    body: ({ s, fixture }) => ({ examId: fixture, targetBucketId: s.ids.expertCentreId, reason: '矩阵测试' }), expect: asking(201),
  },
  { method: 'GET', route: '/consultations/:id', setup: inState(0), path: at(''), expect: signedIn(200) },
  { method: 'GET', route: '/consultations/:id/traces', setup: inState(0), path: at('/traces'), expect: signedIn(200) },
  { method: 'PATCH', route: '/consultations/:id', setup: inState(0), path: at(''), body: versioned({ reason: '改' }), expect: applicant(200) },
  {
    method: 'POST', route: '/consultations/:id/update-status', setup: inState(0), path: at('/update-status'),
    body: ({ s, fixture }) => ({ version: fixture.version, status: 1, scheduledTime: new Date(s.clock.now().getTime() + 86_400_000).toISOString() }),
    expect: target(200),
  },
  { method: 'POST', route: '/consultations/:id/cancel', setup: inState(1), path: at('/cancel'), body: versioned({ reason: '撤回' }), expect: applicant(200) },
  {
    method: 'PUT', route: '/consultations/:id/results', setup: inState(1), path: at('/results'), body: versioned({ conclusion: '<p>结论</p>' }),
    expect: target(200),
  },
  {
    method: 'POST', route: '/consultations/:id/suggestion', setup: inState(0), path: at('/suggestion'), body: () => ({ content: '<p>意见</p>' }),
    expect: signedIn(201, { registrar: 403, tech: 403 }),
  },
  { method: 'POST', route: '/consultations/:id/rating', setup: inState(3), path: at('/rating'), body: versioned({ rating: 5 }), expect: applicant(200) },
  {
    method: 'POST', route: '/consultations/:id/payment-status', setup: inState(4), path: at('/payment-status'), body: versioned({ paymentStatus: 3 }),
    expect: target(200),
  },
  {
    method: 'PUT', route: '/consultations/:id/members', setup: inState(2), path: at('/members'),
    body: ({ s }) => ({ members: [{ accountId: s.ids.accounts.rad1 }, { accountId: s.ids.accounts.expert, role: 'expert' }] }),
    expect: signedIn(200, { registrar: 403, tech: 403 }),
  },
  // The parts (helper B): cases and files by either side (clinicCase rights: the expert has them at the centre);
  // links by either side with consultation_update; visit exams by the applicant side only (the expert 403); every
  // reader reads files, related consultations, the print and the video token.
  { method: 'POST', route: '/consultations/:id/cases', setup: inState(0), path: at('/cases'), body: () => ({ name: '病历', type: 'history' }), expect: anySide(201) },
  { method: 'DELETE', route: '/consultations/:id/cases/:caseId', setup: withFile, path: ({ fixture }) => `/consultations/${fixture.id}/cases/${fixture.caseId}`, expect: anySide(204) },
  {
    method: 'POST', route: '/consultations/:id/cases/:caseId/attachments', setup: withFile,
    path: ({ fixture }) => `/consultations/${fixture.id}/cases/${fixture.caseId}/attachments`, body: pngForm, expect: anySide(201),
  },
  {
    method: 'GET', route: '/consultations/:id/attachments/:attachmentId', setup: withFile,
    path: ({ fixture }) => `/consultations/${fixture.id}/attachments/${fixture.attachmentId}`, expect: signedIn(200),
  },
  {
    method: 'DELETE', route: '/consultations/:id/attachments/:attachmentId', setup: withFile,
    path: ({ fixture }) => `/consultations/${fixture.id}/attachments/${fixture.attachmentId}`, expect: anySide(204),
  },
  {
    method: 'POST', route: '/consultations/:id/links', setup: async (s) => ({ ...(await consultationIn(s, 0)), other: (await consultationIn(s, 3)).id }),
    path: at('/links'), body: ({ fixture }) => ({ linkedId: fixture.other }), expect: anySide(201),
  },
  { method: 'DELETE', route: '/consultations/:id/links/:linkedId', setup: linked, path: ({ fixture }) => `/consultations/${fixture.id}/links/${fixture.linkedId}`, expect: anySide(204) },
  { method: 'GET', route: '/consultations/:id/related/:linkId', setup: linked, path: ({ fixture }) => `/consultations/${fixture.id}/related/${fixture.linkedId}`, expect: signedIn(200) },
  {
    method: 'POST', route: '/consultations/:id/visit-exams', setup: async (s) => ({ ...(await consultationIn(s, 0)), other: await insertExam(s) }),
    path: at('/visit-exams'), body: ({ fixture }) => ({ examId: fixture.other }), expect: applicant(201),
  },
  {
    method: 'DELETE', route: '/consultations/:id/visit-exams/:examId', setup: withVisit,
    path: ({ fixture }) => `/consultations/${fixture.id}/visit-exams/${fixture.visitId}`, expect: applicant(204),
  },
  { method: 'GET', route: '/consultations/:id/print-data', setup: inState(4), path: at('/print-data'), expect: signedIn(200) },
  {
    method: 'GET', route: '/consultations/rtc/access-token', setup: inState(2),
    path: ({ fixture }) => `/consultations/rtc/access-token?room=consultation-${fixture.id}`, expect: signedIn(200),
  },
];
