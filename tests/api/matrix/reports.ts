import * as t from '../../../server/db/schema';
import { insertExam, reportIn, tracesOf, type Fixture } from '../../support/reports';
import type { TestServer } from '../../support/server';
import { signedIn, type MatrixRow, type Role } from './types';

/**
 * Reports (core §7 "Reports"), on a report of the hospital written by rad1. Demo rights there: rad1 and rad2
 * write, advise, print and read traces; chief also approves, recalls and assigns; admin holds every action;
 * tech only reads exams; registrar has no exam or report right; expert belongs to the expert centre only, so
 * the hospital's reports do not exist for them (404). Each role acts on a fresh report in the named state.
 */
const fresh = (status: Fixture) => (s: TestServer) => reportIn(s, status);
const reportPath = (suffix: string) => ({ fixture }: { fixture: { id: number } }) => `/reports/${fixture.id}/${suffix}`;
const versioned = (extra: Record<string, unknown> = {}) => ({ fixture }: { fixture: { version: number } }) => ({ version: fixture.version, ...extra });
/** Readers of a report: exam or report rights in its organisation. */
const readers = (ok: number) => signedIn(403, { admin: ok, rad1: ok, rad2: ok, chief: ok, tech: ok, expert: 404 });
/** Only the roles named get `ok`; the other hospital roles 403, expert 404. */
const only = (ok: number, roles: Role[]) => signedIn(403, { expert: 404, ...Object.fromEntries(roles.map((r) => [r, ok])) });

const action = (name: string, status: Fixture, roles: Role[], extra: Record<string, unknown> = {}): MatrixRow => ({
  method: 'POST', route: `/reports/:id/${name}`, setup: fresh(status), path: reportPath(name), body: versioned(extra), expect: only(200, roles),
});

async function traceIds(s: TestServer) {
  const ref = await reportIn(s, 'final');
  const traces = await tracesOf(s, ref.id);
  return { ...ref, first: traces[0]!.id, last: traces.at(-1)!.id };
}

async function templateOf(s: TestServer) {
  const [row] = await s.db.db.insert(t.reportTemplates)
    .values({ bucketId: s.ids.hospitalId, name: `matrix-${Date.now()}-${Math.random()}`, finding: '<p>x</p>' }).returning();
  return row!;
}

export const rows: MatrixRow[] = [
  // Lifecycle actions (core §4).
  action('save', 'partial', ['rad1'], { finding: '<p>改</p>' }),
  action('submit', 'partial', ['rad1']),
  action('approve', 'final', ['admin', 'chief']),
  action('reject', 'final', ['admin', 'chief'], { reason: '请补充' }),
  action('advise', 'final', ['admin', 'rad2', 'chief'], { reason: '建议' }),
  action('recall', 'corrected', ['admin', 'chief'], { reason: '信息有误' }),
  action('cancelSubmit', 'final', ['rad1']),
  action('print', 'corrected', ['admin', 'rad1', 'rad2', 'chief']),
  action('update-print-time', 'printed', ['admin', 'rad1', 'rad2', 'chief']),
  // Housekeeping (core §4 "can also be locked, unlocked, ...").
  action('lock', 'partial', ['rad1']),
  action('unlock', 'locked', ['rad1']),
  action('force-unlock', 'locked', ['admin', 'chief']),
  action('reset', 'partial', ['admin', 'rad1', 'chief']),
  action('sync', 'none', ['admin', 'rad1', 'rad2', 'chief'], { finding: '<p>外部系统报告</p>' }),
  action('delete', 'partial', ['admin', 'rad1', 'chief']),
  action('recovery', 'deleted', ['admin', 'rad1', 'chief']),
  {
    method: 'POST', route: '/reports/:id/assign', setup: fresh('partial'), path: reportPath('assign'),
    body: ({ s, fixture }) => ({ version: fixture.version, accountId: s.ids.accounts.rad2 }), expect: only(200, ['admin', 'chief']),
  },
  action('assign-remove', 'assigned', ['admin', 'chief']),
  // Reading.
  { method: 'GET', route: '/reports/:id/detail', setup: fresh('partial'), path: reportPath('detail'), expect: readers(200) },
  {
    method: 'GET', route: '/exams/:id/reports', setup: fresh('partial'),
    path: ({ fixture }) => `/exams/${fixture.examId}/reports`, expect: readers(200),
  },
  {
    method: 'POST', route: '/exams/:id/reports', setup: (s) => insertExam(s),
    path: ({ fixture }) => `/exams/${fixture}/reports`, expect: only(201, ['admin', 'rad1', 'rad2', 'chief']),
  },
  { method: 'GET', route: '/reports/:id/report-trace', setup: fresh('final'), path: reportPath('report-trace'), expect: only(200, ['admin', 'rad1', 'rad2', 'chief']) },
  {
    method: 'GET', route: '/reports/:id/traces/:traceId', setup: traceIds,
    path: ({ fixture }) => `/reports/${fixture.id}/traces/${fixture.last}`, expect: only(200, ['admin', 'rad1', 'rad2', 'chief']),
  },
  {
    method: 'GET', route: '/reports/:id/diff-trace', setup: traceIds,
    path: ({ fixture }) => `/reports/${fixture.id}/diff-trace?fromId=${fixture.first}&toId=${fixture.last}`, expect: only(200, ['admin', 'rad1', 'rad2', 'chief']),
  },
  { method: 'GET', route: '/reports/:id/quality', setup: fresh('corrected'), path: reportPath('quality'), expect: readers(200) },
  {
    method: 'POST', route: '/reports/:id/quality/upsert', setup: fresh('corrected'), path: reportPath('quality/upsert'),
    body: () => ({ grade: 'A', score: 95 }), expect: only(200, ['admin']),
  },
  { method: 'GET', route: '/reports/:id/print-data', setup: fresh('corrected'), path: reportPath('print-data'), expect: only(200, ['admin', 'rad1', 'rad2', 'chief']) },
  // Writing templates.
  {
    method: 'GET', route: '/report-templates', path: ({ s }) => `/report-templates?bucketId=${s.ids.hospitalId}`,
    expect: only(200, ['admin', 'rad1', 'rad2', 'chief']),
  },
  {
    method: 'GET', route: '/report-templates/search', path: ({ s }) => `/report-templates/search?bucketId=${s.ids.hospitalId}&q=${encodeURIComponent('胸部')}`,
    expect: only(200, ['admin', 'rad1', 'rad2', 'chief']),
  },
  {
    method: 'POST', route: '/report-templates/upsert',
    body: ({ s, role }) => ({ bucketId: s.ids.hospitalId, name: `新模板-${role}-${Math.random()}`, finding: '<p>所见</p>', diagnosis: '<p>结论</p>' }),
    expect: only(200, ['admin']),
  },
  {
    method: 'DELETE', route: '/report-templates/:id', setup: templateOf, path: ({ fixture }) => `/report-templates/${fixture.id}`,
    expect: only(204, ['admin']),
  },
];
