import { eq } from 'drizzle-orm';
import * as t from '../../../server/db/schema';
import { insertExam, reportIn } from '../../support/reports';
import type { TestServer } from '../../support/server';
import { signedIn, statuses, type MatrixRow } from './types';
import { api, examReaders, once } from './uploads';

/**
 * What leaves the building (contract/shares.ts), from the hospital. Electronic film is handed out and revoked with
 * exam_get (admin, the radiologists, chief, tech); report share links with report_print (admin, the radiologists,
 * chief); publishing with order_report_publish, which only admin holds. The expert is not in the hospital (404).
 * The public pages (a share link, a film's link and code, the patient's ids) answer whoever holds the right key.
 */
const approved = (s: TestServer) => reportIn(s, 'corrected');
const approvedOnce = once(approved);
const printers = (ok: number) => signedIn(403, { admin: ok, rad1: ok, rad2: ok, chief: ok, expert: 404 });
const publisher = (ok: number) => signedIn(403, { admin: ok, expert: 404 });

/** An electronic film of an exam with an approved report, made by rad1. */
async function film(s: TestServer) {
  const { examId } = await approved(s);
  return api(s, 'rad1', 'POST', 'film-share/share', { examId }) as Promise<{ link: string; code: string }>;
}

const shareLink = async (s: TestServer, reportId: number) => (await api(s, 'rad1', 'POST', `reports/${reportId}/share`, {})).link as string;

async function freshLink(s: TestServer) {
  const report = await approvedOnce(s);
  return { id: report.id, link: await shareLink(s, report.id) };
}

async function published(s: TestServer) {
  const report = await approved(s);
  await api(s, 'admin', 'POST', `reports/${report.id}/publish`);
  return report;
}

/** A patient of the hospital with the ids the public pages ask for, and an approved report that is published. */
const patient = once(async (s: TestServer) => {
  const examId = await insertExam(s);
  const serviceRequestId = `SR-M-${examId}`;
  await s.db.db.update(t.exams).set({ serviceRequestId, patientDob: '1961-07-15' }).where(eq(t.exams.id, examId));
  const report = await reportIn(s, 'corrected', { examId });
  await api(s, 'admin', 'POST', `reports/${report.id}/publish`);
  const [exam] = await s.db.db.select().from(t.exams).where(eq(t.exams.id, examId));
  return { patientId: exam!.patientId, serviceRequestId, patientName: exam!.patientName, patientDob: '1961-07-15' };
});

const ORG_CODE = 'CITY1-RAD';

export const rows: MatrixRow[] = [
  // Electronic film (/sf/{link}, /efilm/query).
  {
    method: 'POST', route: '/film-share/share', setup: (s) => insertExam(s),
    body: ({ fixture }) => ({ examId: fixture, ttlDays: 7 }), expect: examReaders(201),
  },
  { method: 'POST', route: '/film-share/:link/revoke', setup: film, path: ({ fixture }) => `/film-share/${fixture.link}/revoke`, expect: examReaders(204) },
  { method: 'GET', route: '/exams/:id/film-shares', setup: (s) => insertExam(s), path: ({ fixture }) => `/exams/${fixture}/film-shares`, expect: examReaders(200) },
  { method: 'POST', route: '/film-share/find-and-verify', setup: film, body: ({ fixture }) => ({ link: fixture.link, code: fixture.code }), expect: statuses(200) },
  // Report share links (/reports/s?link).
  { method: 'POST', route: '/reports/:id/share', setup: approvedOnce, path: ({ fixture }) => `/reports/${fixture.id}/share`, body: () => ({ ttlDays: 7 }), expect: printers(201) },
  { method: 'GET', route: '/reports/:id/shares', setup: approvedOnce, path: ({ fixture }) => `/reports/${fixture.id}/shares`, expect: printers(200) },
  {
    method: 'POST', route: '/reports/:id/shares/:link/revoke', setup: freshLink,
    path: ({ fixture }) => `/reports/${fixture.id}/shares/${fixture.link}/revoke`, expect: printers(204),
  },
  {
    method: 'GET', route: '/share/report', setup: async (s) => shareLink(s, (await approvedOnce(s)).id),
    path: ({ fixture }) => `/share/report?link=${encodeURIComponent(fixture)}`, expect: statuses(200),
  },
  // Publishing (/report-publish) and the organisation's list (/reports/{orgCode}/list).
  { method: 'POST', route: '/reports/:id/publish', setup: approved, path: ({ fixture }) => `/reports/${fixture.id}/publish`, expect: publisher(200) },
  { method: 'DELETE', route: '/reports/:id/publish', setup: published, path: ({ fixture }) => `/reports/${fixture.id}/publish`, expect: publisher(204) },
  // Whether a report is published now: the same rule as publishing it (the expert's organisation is another one: 404).
  { method: 'GET', route: '/reports/:id/publish', setup: approvedOnce, path: ({ fixture }) => `/reports/${fixture.id}/publish`, expect: publisher(200) },
  { method: 'GET', route: '/report-publish/list', path: ({ s }) => `/report-publish/list?bucketId=${s.ids.hospitalId}`, expect: publisher(200) },
  { method: 'GET', route: '/integration/org-verify-configs/:orgCode', path: () => `/integration/org-verify-configs/${ORG_CODE}`, expect: statuses(200) },
  {
    method: 'GET', route: '/integration/exam-reports', setup: patient,
    path: ({ fixture }) => {
      const verifies = JSON.stringify({ patientId: fixture.patientId, patientName: fixture.patientName, patientDob: fixture.patientDob });
      return `/integration/exam-reports?orgCode=${ORG_CODE}&verifies=${encodeURIComponent(verifies)}`;
    },
    expect: statuses(200),
  },
  // The patient's report view (/web-report): both ids must name one exam.
  {
    method: 'GET', route: '/yyp/report-view', setup: patient,
    path: ({ fixture }) => `/yyp/report-view?patientId=${encodeURIComponent(fixture.patientId)}&serviceRequestId=${encodeURIComponent(fixture.serviceRequestId)}`,
    expect: statuses(200),
  },
  {
    method: 'POST', route: '/yyp/report-view', setup: patient,
    body: ({ fixture }) => ({ patientId: fixture.patientId, serviceRequestId: fixture.serviceRequestId }), expect: statuses(200),
  },
];
