import { eq } from 'drizzle-orm';
import * as t from '../../../server/db/schema';
import { insertExam } from '../../support/reports';
import type { TestServer } from '../../support/server';
import { signedIn, type MatrixRow } from './types';

/**
 * Exams (core §7 "Exams") on an exam of the hospital. Demo rights there: every role but the registrar reads exams
 * (exam_get or report actions); only the admin holds exam_update, exam_delete and export_exams; the expert belongs
 * to the expert centre only, so the hospital's exams do not exist for them (404) but the expert may export the
 * centre's. Colour rules: every demo account is in the demo group, only admin administers it.
 */
const exam = (s: TestServer) => insertExam(s);
const examPath = (suffix = '') => ({ fixture }: { fixture: number }) => `/exams/${fixture}${suffix}`;
const readers = (ok: number) => signedIn(403, { admin: ok, rad1: ok, rad2: ok, chief: ok, tech: ok, expert: 404 });
const adminOnly = (ok: number) => signedIn(403, { admin: ok, expert: 404 });

async function deletedExam(s: TestServer) {
  const id = await insertExam(s);
  await s.db.db.update(t.exams).set({ deletedTime: s.clock.now() }).where(eq(t.exams.id, id));
  return id;
}

async function colourRule(s: TestServer) {
  const [row] = await s.db.db.insert(t.reportTableColourRules).values({
    groupId: s.ids.groupId, name: 'urgent', priority: 1, matchColumn: 'urgentFlag', value: 'true', backColor: '#fee2e2',
  }).returning();
  return row!;
}

const ruleBody = (_s: TestServer) => ({ name: '急诊', priority: 2, column: 'patientSource', value: 'E', backColor: '#fde68a' });

export const rows: MatrixRow[] = [
  { method: 'POST', route: '/exams/page-query', body: () => ({ limit: 5 }), expect: signedIn(200) },
  { method: 'POST', route: '/exams/query/count', body: () => ({}), expect: signedIn(200) },
  { method: 'POST', route: '/exams/newly', body: () => ({}), expect: signedIn(200) },
  { method: 'GET', route: '/exams/:id', setup: exam, path: examPath(), expect: readers(200) },
  { method: 'POST', route: '/exams/:id', setup: exam, path: examPath(), body: () => ({ urgentFlag: true }), expect: adminOnly(200) },
  { method: 'GET', route: '/exams/:id/detail', setup: exam, path: examPath('/detail'), expect: readers(200) },
  { method: 'DELETE', route: '/exams/:id/delete', setup: exam, path: examPath('/delete'), expect: adminOnly(204) },
  { method: 'POST', route: '/exams/:id/recover', setup: deletedExam, path: examPath('/recover'), expect: adminOnly(200) },
  { method: 'POST', route: '/exams/:id/past', setup: exam, path: examPath('/past'), body: () => ({}), expect: readers(200) },
  { method: 'POST', route: '/exams/:id/past/count', setup: exam, path: examPath('/past/count'), expect: readers(200) },
  { method: 'GET', route: '/exams/:id/co-exams', setup: exam, path: examPath('/co-exams'), expect: readers(200) },
  { method: 'POST', route: '/exports/exams', body: () => ({ filters: [{ field: 'id', operator: 'equal', values: [1] }] }), expect: signedIn(403, { admin: 200, expert: 200 }) },
  { method: 'GET', route: '/report-table-colour/find-by-group', path: ({ s }) => `/report-table-colour/find-by-group?groupId=${s.ids.groupId}`, expect: signedIn(200) },
  {
    method: 'POST', route: '/report-table-colour/create', body: ({ s }) => ({ groupId: s.ids.groupId, ...ruleBody(s) }),
    expect: signedIn(403, { admin: 201, orgadmin: 403 }),
  },
  {
    method: 'POST', route: '/report-table-colour/update', setup: colourRule, body: ({ s, fixture }) => ({ id: fixture.id, ...ruleBody(s) }),
    expect: signedIn(403, { admin: 200, orgadmin: 403 }),
  },
  {
    method: 'DELETE', route: '/report-table-colour/:id', setup: colourRule, path: ({ fixture }) => `/report-table-colour/${fixture.id}`,
    expect: signedIn(403, { admin: 204, orgadmin: 403 }),
  },
];
