import { insertExam } from '../../support/reports';
import type { TestServer } from '../../support/server';
import { signedIn, type MatrixRow, type Role } from './types';
import { api, examReaders, permitFor, tokenQuery, uploadedExam } from './uploads';

/**
 * The viewer and study packages (core §2 exam detail and report workspace), on an exam of the hospital with one
 * uploaded instance. Its images are seen by whoever reads the exam or reports on it (admin, the radiologists, chief,
 * tech); the registrar has no exam right; the expert is not in the hospital (404). An anonymous caller brings the
 * view token of a viewer path (what /viewer?token and an electronic film carry). Study packages need study_package,
 * which in the hospital only admin holds (the expert holds it in the expert centre).
 */
const viewToken = async (s: TestServer, examId: number) => (await api(s, 'rad1', 'POST', `viewers/${examId}/path`)).token as string;
const withView = async (s: TestServer, role: Role) => {
  const exam = await uploadedExam(s);
  return { ...exam, permit: await permitFor(role, () => viewToken(s, exam.examId)) };
};
const exam = (s: TestServer) => insertExam(s);

export const rows: MatrixRow[] = [
  {
    method: 'GET', route: '/exams/:id/series', setup: withView,
    path: ({ fixture }) => `/exams/${fixture.examId}/series${tokenQuery(fixture.permit)}`, expect: { ...examReaders(200), anonymous: 200 },
  },
  {
    method: 'GET', route: '/instances/:id/file', setup: withView,
    path: ({ fixture }) => `/instances/${fixture.instanceId}/file${tokenQuery(fixture.permit)}`, expect: { ...examReaders(200), anonymous: 200 },
  },
  {
    // The first frame as a PNG: the same readers as the file (a view token too: share pages and films).
    method: 'GET', route: '/instances/:id/preview', setup: withView,
    path: ({ fixture }) => `/instances/${fixture.instanceId}/preview${tokenQuery(fixture.permit)}`, expect: { ...examReaders(200), anonymous: 200 },
  },
  { method: 'POST', route: '/viewers/:id/path', setup: exam, path: ({ fixture }) => `/viewers/${fixture}/path`, expect: examReaders(200) },
  {
    // Handing the images out: exam_get (held by admin, the radiologists, chief and tech).
    method: 'POST', route: '/viewers/:id/share-path', setup: exam, path: ({ fixture }) => `/viewers/${fixture}/share-path`,
    body: () => ({ ttlHours: 24 }), expect: examReaders(200),
  },
  {
    method: 'GET', route: '/exams/:id/study-package', setup: (s) => uploadedExam(s),
    path: ({ fixture }) => `/exams/${fixture.examId}/study-package`, expect: signedIn(403, { admin: 200, expert: 404 }),
  },
];
