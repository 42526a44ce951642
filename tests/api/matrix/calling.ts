import { eq } from 'drizzle-orm';
import { dayIn } from '../../../contract/days';
import * as t from '../../../server/db/schema';
import { insertExam } from '../../support/reports';
import type { TestServer } from '../../support/server';
import { signedIn, type MatrixRow, type Role } from './types';

/**
 * Call queue (contract/calling.ts), at the demo hospital (its group has calling on). Rights there: registrar holds
 * calling_manage_queue and calling_call; admin every action; rad1, rad2, chief and tech are members without them
 * (403); expert belongs to the expert centre only (404). Each role acts on a fresh queue and entry.
 */
const desk = (ok: number, roles: Role[] = ['admin', 'registrar']) =>
  signedIn(403, { expert: 404, ...Object.fromEntries(roles.map((r) => [r, ok])) });

let serial = 0;
const letters = () => {
  serial += 1;
  return String.fromCharCode(65 + (serial % 26)) + String.fromCharCode(65 + (Math.floor(serial / 26) % 26));
};

/** A queue of the hospital with one waiting (or `status`) entry for a new exam. */
async function entry(s: TestServer, status = 'waiting') {
  const [type] = await s.db.db.insert(t.queueTypes).values({ bucketId: s.ids.hospitalId, prefix: letters(), name: '矩阵队列', modality: 'CT', room: '1 室' }).returning();
  const examId = await insertExam(s, { bucketId: s.ids.hospitalId });
  const day = dayIn(s.clock.now(), 'Asia/Shanghai');
  const [row] = await s.db.db.insert(t.queueEntries).values({
    bucketId: s.ids.hospitalId, queueTypeId: type!.id, examId, day, seq: 1, queueNo: `${type!.prefix}001`, status, position: 1, checkInTime: s.clock.now(),
    ...(status === 'called' ? { calledTime: s.clock.now(), callCount: 1 } : {}),
  }).returning();
  await s.db.db.insert(t.queueCounters).values({ queueTypeId: type!.id, day, lastSeq: 1 });
  return { typeId: type!.id, entryId: row!.id, examId, queueNo: row!.queueNo };
}

async function token(s: TestServer) {
  const [row] = await s.db.db.insert(t.screenTokens).values({ bucketId: s.ids.hospitalId, name: '矩阵', tokenHash: `matrix-${Math.random()}` }).returning();
  return { tokenId: row!.id };
}

const hospital = ({ s }: { s: TestServer }) => s.ids.hospitalId;
const qt = { prefix: 'Z', name: '矩阵', modality: 'CT', room: '9 室' };

export const rows: MatrixRow[] = [
  { method: 'GET', route: '/buckets/:id/queue-types', path: (c) => `/buckets/${hospital(c)}/queue-types`, expect: desk(200) },
  { method: 'POST', route: '/buckets/:id/queue-types', path: (c) => `/buckets/${hospital(c)}/queue-types`, body: () => qt, expect: desk(200) },
  { method: 'PUT', route: '/buckets/:id/queue-types/:typeId', setup: (s) => entry(s), path: (c) => `/buckets/${hospital(c)}/queue-types/${c.fixture.typeId}`, body: () => qt, expect: desk(200) },
  { method: 'DELETE', route: '/buckets/:id/queue-types/:typeId', setup: (s) => entry(s), path: (c) => `/buckets/${hospital(c)}/queue-types/${c.fixture.typeId}`, expect: desk(200) },
  {
    method: 'POST', route: '/buckets/:id/queue-types/resort', path: (c) => `/buckets/${hospital(c)}/queue-types/resort`,
    setup: async (s) => ({ ids: (await s.db.db.select({ id: t.queueTypes.id }).from(t.queueTypes).where(eq(t.queueTypes.bucketId, s.ids.hospitalId))).map((r) => r.id).reverse() }),
    body: ({ fixture }) => ({ ids: fixture.ids }), expect: desk(200),
  },
  { method: 'GET', route: '/buckets/:id/queue-exams', path: (c) => `/buckets/${hospital(c)}/queue-exams`, expect: desk(200) },
  { method: 'POST', route: '/buckets/:id/queue-exams/query', path: (c) => `/buckets/${hospital(c)}/queue-exams/query`, body: () => ({}), expect: desk(200) },
  { method: 'GET', route: '/buckets/:id/queue-exams/candidates', path: (c) => `/buckets/${hospital(c)}/queue-exams/candidates?q=`, expect: desk(200) },
  {
    method: 'POST', route: '/queue-exams/check-in', setup: async (s) => ({ ...(await entry(s)), newExam: await insertExam(s, { bucketId: s.ids.hospitalId }) }),
    body: ({ fixture }) => ({ examId: fixture.newExam, queueTypeId: fixture.typeId }), expect: desk(200),
  },
  { method: 'POST', route: '/queue-exams/call-next', setup: (s) => entry(s), body: ({ s, fixture }) => ({ bucketId: s.ids.hospitalId, queueTypeId: fixture.typeId }), expect: desk(200) },
  { method: 'POST', route: '/queue-types/:id/call-next', setup: (s) => entry(s), path: ({ fixture }) => `/queue-types/${fixture.typeId}/call-next`, body: () => ({}), expect: desk(200) },
  { method: 'POST', route: '/queue-exams/:id/action', setup: (s) => entry(s), path: ({ fixture }) => `/queue-exams/${fixture.entryId}/action`, body: () => ({ action: 'call' }), expect: desk(200) },
  {
    method: 'POST', route: '/queue-exams/:id/resort', setup: (s) => entry(s), path: ({ fixture }) => `/queue-exams/${fixture.entryId}/resort`,
    body: ({ fixture }) => ({ targetNumber: fixture.queueNo }), expect: desk(200),
  },
  { method: 'GET', route: '/queue-types/:id/calling', setup: (s) => entry(s, 'called'), path: ({ fixture }) => `/queue-types/${fixture.typeId}/calling`, expect: desk(200) },
  { method: 'GET', route: '/queue-types/:id/missed', setup: (s) => entry(s, 'passed'), path: ({ fixture }) => `/queue-types/${fixture.typeId}/missed`, expect: desk(200) },
  { method: 'GET', route: '/buckets/:id/calling-settings', path: (c) => `/buckets/${hospital(c)}/calling-settings`, expect: desk(200) },
  { method: 'PUT', route: '/buckets/:id/calling-settings', path: (c) => `/buckets/${hospital(c)}/calling-settings`, body: () => ({ privacy: false }), expect: desk(200) },
  { method: 'GET', route: '/buckets/:id/screen-tokens', path: (c) => `/buckets/${hospital(c)}/screen-tokens`, expect: desk(200) },
  { method: 'POST', route: '/buckets/:id/screen-tokens', path: (c) => `/buckets/${hospital(c)}/screen-tokens`, body: () => ({ name: '矩阵屏' }), expect: desk(200) },
  { method: 'DELETE', route: '/buckets/:id/screen-tokens/:tokenId', setup: (s) => token(s), path: (c) => `/buckets/${hospital(c)}/screen-tokens/${c.fixture.tokenId}`, expect: desk(200) },
  // The screen's own calls: a screen token (tests/api/calling.test.ts), or a signed-in member with a calling right.
  { method: 'GET', route: '/buckets/:id/screen/state', path: (c) => `/buckets/${hospital(c)}/screen/state`, expect: desk(200) },
  { method: 'GET', route: '/buckets/:id/screen/stream', path: (c) => `/buckets/${hospital(c)}/screen/stream?once=1`, expect: desk(200) },
  { method: 'GET', route: '/calling/:id/screen/state', path: (c) => `/calling/${hospital(c)}/screen/state`, expect: desk(200) },
  { method: 'GET', route: '/calling/:id/screen/stream', path: (c) => `/calling/${hospital(c)}/screen/stream?once=1`, expect: desk(200) },
  { method: 'GET', route: '/calling/:id/tts', path: (c) => `/calling/${hospital(c)}/tts?text=A001&lang=tib`, expect: desk(503) },
  { method: 'GET', route: '/tts', path: () => '/tts?text=A001&lang=tib', expect: signedIn(403, { admin: 503, registrar: 503 }) },
  { method: 'POST', route: '/tts', path: () => '/tts', body: () => ({ text: 'A001', lang: 'tib' }), expect: signedIn(403, { admin: 503, registrar: 503 }) },
];
