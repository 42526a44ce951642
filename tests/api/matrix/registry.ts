import * as t from '../../../server/db/schema';
import type { TestServer } from '../../support/server';
import { signedIn, type MatrixRow, type Role } from './types';

/**
 * Registry (contract/registry.ts), at the demo hospital's desk. Rights there: registrar holds registry_create,
 * update and delete; admin every action; rad1, rad2, chief and tech are members without registry rights (403);
 * expert belongs to the expert centre only, so the hospital's desk does not exist for them (404). Each role acts on
 * a fresh registration made straight in the database.
 */
const desk = (ok: number, roles: Role[] = ['admin', 'registrar']) =>
  signedIn(403, { expert: 404, ...Object.fromEntries(roles.map((r) => [r, ok])) });

let serial = 0;
interface Line { examId: number; version: number; registrationId: number; orderId: string; patientId: string }

/** A registration with one Registered line for later today (and, when `done`, a completed exam of the same patient). */
async function line(s: TestServer, status = 'Registered'): Promise<Line> {
  serial += 1;
  const now = s.clock.now();
  const orderId = `MATRIX-${serial}-${Math.random().toString(36).slice(2, 7)}`;
  const patientId = `MX${serial}${Math.random().toString(36).slice(2, 6)}`;
  const [reg] = await s.db.db.insert(t.registrations).values({ bucketId: s.ids.hospitalId, orderId, created: now }).returning();
  const at = new Date(now.getTime() + 3_600_000);
  const [exam] = await s.db.db.insert(t.exams).values({
    bucketId: s.ids.hospitalId, registrationId: reg!.id, patientName: '矩阵', patientId, modality: 'CT', examTime: at, scheduledTime: at,
    examStatus: status, accessionNumber: `RMX${serial}`, created: now, patientSource: 'E',
    ...(status === 'Arrived' ? { arrivedTime: now, prevExamStatus: 'Registered' } : {}),
  }).returning();
  return { examId: exam!.id, version: reg!.version, registrationId: reg!.id, orderId, patientId };
}

async function withCompleted(s: TestServer) {
  const fixture = await line(s);
  const [done] = await s.db.db.insert(t.exams).values({
    bucketId: s.ids.hospitalId, patientName: '矩阵', patientId: fixture.patientId, modality: 'CT', examTime: s.clock.now(), hasImage: true, created: s.clock.now(),
  }).returning();
  return { ...fixture, completedId: done!.id };
}

const hospital = ({ s }: { s: TestServer }) => s.ids.hospitalId;
const soon = (s: TestServer) => new Date(s.clock.now().getTime() + 3_600_000).toISOString();

export const rows: MatrixRow[] = [
  { method: 'GET', route: '/buckets/:id/registry/setup', path: (c) => `/buckets/${hospital(c)}/registry/setup`, expect: desk(200) },
  // Not one of the caller's registry organisations is areas §5's 'params error' (400), not 404.
  { method: 'POST', route: '/buckets/:id/registry/query', path: (c) => `/buckets/${hospital(c)}/registry/query`, body: () => ({}), expect: { ...desk(200), expert: 400 } },
  { method: 'POST', route: '/buckets/:id/registry/patients', path: (c) => `/buckets/${hospital(c)}/registry/patients`, body: () => ({ q: '张' }), expect: desk(200) },
  {
    method: 'POST', route: '/registry',
    body: ({ s }) => ({ bucketId: s.ids.hospitalId, patient: { patientName: '矩阵', patientGender: 'M', patientSource: 'E' }, exams: [{ modality: 'CT', scheduledTime: soon(s) }] }),
    expect: desk(200),
  },
  {
    method: 'PUT', route: '/registry', setup: (s) => line(s),
    body: ({ s, fixture }) => ({
      registrationId: fixture.registrationId, version: fixture.version, patient: { patientName: '矩阵改', patientGender: 'M', patientSource: 'E' },
      exams: [{ examId: fixture.examId, modality: 'MR', scheduledTime: soon(s) }],
    }),
    expect: desk(200),
  },
  {
    method: 'GET', route: '/registry/findbyorderid', setup: (s) => line(s),
    path: ({ s, fixture }) => `/registry/findbyorderid?bucketId=${s.ids.hospitalId}&orderId=${fixture.orderId}`, expect: desk(200),
  },
  {
    method: 'POST', route: '/exam/status', setup: (s) => line(s),
    body: ({ fixture }) => ({ examId: fixture.examId, status: 'Arrived', version: fixture.version }), expect: desk(200),
  },
  {
    method: 'POST', route: '/scheduled-exams/:id/revoke', setup: (s) => line(s, 'Arrived'),
    path: ({ fixture }) => `/scheduled-exams/${fixture.examId}/revoke`, body: ({ fixture }) => ({ version: fixture.version }), expect: desk(200),
  },
  {
    method: 'POST', route: '/scheduled-exams/:id/cancel', setup: (s) => line(s),
    path: ({ fixture }) => `/scheduled-exams/${fixture.examId}/cancel`, body: ({ fixture }) => ({ version: fixture.version, reason: '患者未到' }), expect: desk(200),
  },
  {
    method: 'POST', route: '/scheduled-exams/:id/extension', setup: (s) => line(s),
    path: ({ fixture }) => `/scheduled-exams/${fixture.examId}/extension`, body: ({ fixture }) => ({ version: fixture.version, extension: { a: 1 } }), expect: desk(200),
  },
  {
    method: 'DELETE', route: '/scheduled-exams/:id', setup: (s) => line(s),
    path: ({ fixture }) => `/scheduled-exams/${fixture.examId}?version=${fixture.version}`, expect: desk(200),
  },
  { method: 'GET', route: '/exams/:id/schedules', setup: (s) => line(s), path: ({ fixture }) => `/exams/${fixture.examId}/schedules`, expect: desk(200) },
  {
    method: 'POST', route: '/exams/:id/schedules', setup: (s) => line(s), path: ({ fixture }) => `/exams/${fixture.examId}/schedules`,
    body: ({ s }) => ({ exams: [{ modality: 'DX', scheduledTime: soon(s) }] }), expect: desk(200),
  },
  {
    method: 'POST', route: '/exams/:id/match/:scheduledId', setup: (s) => withCompleted(s),
    path: ({ fixture }) => `/exams/${fixture.completedId}/match/${fixture.examId}`, body: ({ fixture }) => ({ version: fixture.version }), expect: desk(200),
  },
  { method: 'POST', route: '/exports/schedules', body: ({ s }) => ({ bucketId: s.ids.hospitalId, filters: [] }), expect: desk(200) },
];
