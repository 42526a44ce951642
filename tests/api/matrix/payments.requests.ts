import { applyFor, restoreExpertCentre } from '../../support/money';
import { insertExam } from '../../support/reports';
import type { TestServer } from '../../support/server';
import { signedIn, type MatrixRow } from './types';

/**
 * The requests side of payments (/work/notes/payments.md "Who may do what"). Applying and withdrawing: the applying
 * action at the hospital (rad1, rad2, chief; admins hold every action); tech and registrar are members without it
 * (403); the expert is outside the hospital (404 for its exams). Reading an application: the hospital's members with an
 * order action or exam_get (tech too), and the target organisation's members (the expert).
 */
const applying = (ok: number) => signedIn(403, { admin: ok, orgadmin: ok, rad1: ok, rad2: ok, chief: ok, expert: 404 });
const readingExam = (ok: number) => signedIn(403, { admin: ok, orgadmin: ok, rad1: ok, rad2: ok, chief: ok, tech: ok, expert: 404 });
const readingOrder = (ok: number) => signedIn(403, { admin: ok, orgadmin: ok, rad1: ok, rad2: ok, chief: ok, tech: ok, expert: ok });

const freshExam = async (s: TestServer) => {
  await restoreExpertCentre(s);
  return { examId: await insertExam(s) };
};
const freshOrder = async (s: TestServer) => applyFor(s);

export const rows: MatrixRow[] = [
  {
    method: 'GET', route: '/report-requests/products', setup: freshExam,
    path: ({ fixture }) => `/report-requests/products?examId=${fixture.examId}&type=expert`, expect: applying(200),
  },
  {
    method: 'POST', route: '/report-requests/apply', setup: freshExam,
    body: ({ s, fixture }) => ({ examId: fixture.examId, type: 'expert', bucketIds: [s.ids.expertCentreId], agreeTerms: true }), expect: applying(201),
  },
  {
    method: 'POST', route: '/request/apply', setup: freshExam,
    body: ({ s, fixture }) => ({ examId: fixture.examId, type: 'expert', bucketIds: [s.ids.expertCentreId], agreeTerms: true }), expect: applying(201),
  },
  {
    method: 'POST', route: '/report-requests/apply-remote-report', setup: freshExam,
    body: ({ fixture }) => ({ examId: fixture.examId, agreeTerms: true }), expect: applying(201),
  },
  {
    method: 'GET', route: '/report-requests/remote-report', setup: freshExam,
    path: ({ fixture }) => `/report-requests/remote-report?examId=${fixture.examId}`, expect: readingExam(200),
  },
  { method: 'GET', route: '/report-requests/:id', setup: freshOrder, path: ({ fixture }) => `/report-requests/${fixture.id}`, expect: readingOrder(200) },
  {
    method: 'DELETE', route: '/report-requests/:id', setup: freshOrder, path: ({ fixture }) => `/report-requests/${fixture.id}`,
    // The expert reads the application (target side) but withdrawing is the applicant's.
    expect: { ...applying(200), expert: 403 },
  },
  { method: 'POST', route: '/payments/page-query', body: () => ({}), expect: signedIn(200) },
  { method: 'POST', route: '/orders/page-query', body: () => ({}), expect: signedIn(200) },
  { method: 'GET', route: '/orders/:id', setup: freshOrder, path: ({ fixture }) => `/orders/${fixture.id}`, expect: readingOrder(200) },
  { method: 'POST', route: '/payments/export-excel', body: () => ({ filters: [{ field: 'side', operator: 'equal', values: ['out'] }] }), expect: signedIn(200) },
];
