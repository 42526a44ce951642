import { and, count, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOARD_WINDOW, type QueueBoard, type QueueEntry, type QueueType } from '../../contract/calling';
import { enqueueArrived, leaveQueue } from '../../server/calling/checkIn';
import * as t from '../../server/db/schema';
import { createAccount } from '../support/accounts';
import { insertExam, tokenOf } from '../support/reports';
import { startServer, type TestServer } from '../support/server';

/**
 * The call queue (areas §7 "Call queue"; issue 11): numbering per queue and day, never reused; ten operators calling
 * next at once get ten different patients; the machine refuses what it must; registry lines enter a queue once they
 * arrived. The waiting-room screen, its stream and speech: calling.screen.test.ts.
 */
let s: TestServer;
let registrar: string;
let hospital: number;
let queue: QueueType;

async function newQueue(prefix: string): Promise<QueueType> {
  const res = await s.request('POST', `buckets/${hospital}/queue-types`, { token: registrar, body: { prefix, name: `队列${prefix}`, modality: 'CT', room: `${prefix} 室` } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as QueueType;
}

async function checkIn(type: QueueType, name = '排队患者'): Promise<QueueEntry> {
  const examId = await insertExam(s, { bucketId: hospital });
  await s.db.db.update(t.exams).set({ patientName: name }).where(eq(t.exams.id, examId));
  const res = await s.request('POST', 'queue-exams/check-in', { token: registrar, body: { examId, queueTypeId: type.id } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as QueueEntry;
}

const action = (entry: { id: number }, body: Record<string, unknown>, token = registrar) => s.request('POST', `queue-exams/${entry.id}/action`, { token, body });

beforeAll(async () => {
  s = await startServer({ exams: 30 });
  registrar = await tokenOf(s, 'registrar');
  hospital = s.ids.hospitalId;
  queue = await newQueue('Q');
});
afterAll(async () => s?.close());

describe('the demo', () => {
  it('gives the hospital three queues with the arrived patients of today, the first called', async () => {
    const board = (await s.request('GET', `buckets/${hospital}/queue-exams`, { token: registrar })).body as QueueBoard;
    const demo = board.queueTypes.filter((q) => ['A', 'B', 'C'].includes(q.prefix));
    expect(demo.map((q) => [q.prefix, q.modality])).toEqual([['A', 'CT'], ['B', 'US'], ['C', 'DX']]);
    const mine = board.entries.filter((e) => e.queueTypeId === demo[0]!.id);
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.filter((e) => e.status === 'called').map((e) => e.queueNo)).toEqual(['A001']);
    expect(board.entries.filter((e) => e.status === 'waiting').every((e) => /^[ABC]\d{3}$/.test(e.queueNo))).toBe(true);
  });
});

describe('numbers', () => {
  it('issues A001, A002 … per queue and day, never reusing a removed number', async () => {
    const type = await newQueue('N');
    const a = await checkIn(type);
    const b = await checkIn(type);
    expect([a.queueNo, b.queueNo]).toEqual(['N001', 'N002']);
    expect((await action(b, { action: 'remove' })).status).toBe(200);
    const c = await checkIn(type);
    expect(c.queueNo).toBe('N003');
    expect(c.status).toBe('waiting');
  });
  it('gives ten check-ins into one queue at once ten numbers without a gap, each with its audit event', async () => {
    const type = await newQueue('K');
    const entries = await Promise.all(Array.from({ length: 10 }, (_, i) => checkIn(type, `同时${i}`)));
    expect(entries.map((e) => e.queueNo).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `K${String(i + 1).padStart(3, '0')}`));
    expect(entries.every((e) => e.position === Number(e.queueNo.slice(1)) && e.status === 'waiting')).toBe(true);
    const [event] = await s.db.db.select().from(t.auditEvents)
      .where(and(eq(t.auditEvents.objectType, 'queue-entry'), eq(t.auditEvents.objectId, String(entries[0]!.id)), eq(t.auditEvents.action, 'check-in')));
    expect(event?.after).toEqual({ queueNo: entries[0]!.queueNo, examId: entries[0]!.examId, queueTypeId: type.id });
  });
  it('refuses a number past the day\'s last (400) and rolls the counter back', async () => {
    const type = await newQueue('L');
    const first = await checkIn(type);
    await s.db.db.update(t.queueCounters).set({ lastSeq: 999 }).where(eq(t.queueCounters.queueTypeId, type.id));
    const examId = await insertExam(s, { bucketId: hospital });
    const res = await s.request('POST', 'queue-exams/check-in', { token: registrar, body: { examId, queueTypeId: type.id } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('ParamsError');
    const [counter] = await s.db.db.select().from(t.queueCounters).where(and(eq(t.queueCounters.queueTypeId, type.id), eq(t.queueCounters.day, first.day)));
    expect(counter?.lastSeq).toBe(999);
    const [{ n }] = await s.db.db.select({ n: count() }).from(t.queueEntries).where(eq(t.queueEntries.queueTypeId, type.id)) as [{ n: number }];
    expect(n).toBe(1);
  });
  it('takes one exam into one queue a day, and only exams of the organisation', async () => {
    const entry = await checkIn(queue);
    const again = await s.request('POST', 'queue-exams/check-in', { token: registrar, body: { examId: entry.examId, queueTypeId: queue.id } });
    expect(again.status).toBe(409);
    const other = await insertExam(s, { bucketId: s.ids.expertCentreId });
    const res = await s.request('POST', 'queue-exams/check-in', { token: registrar, body: { examId: other, queueTypeId: queue.id } });
    expect(res.status).toBe(404);
  });
});

describe('the board', () => {
  it('sends a window of each queue\'s waiting patients in order, and the whole counts', async () => {
    const type = await newQueue('W');
    const first = await checkIn(type);
    const day = first.day;
    // The rest of a long day in SQL (BOARD_WINDOW + 5 more waiting), then one served and one passed through the API.
    const examIds = await Promise.all(Array.from({ length: BOARD_WINDOW + 5 }, () => insertExam(s, { bucketId: hospital })));
    await s.db.db.insert(t.queueEntries).values(examIds.map((examId, i) => ({
      bucketId: hospital, queueTypeId: type.id, examId, day, seq: i + 2, queueNo: `W${String(i + 2).padStart(3, '0')}`, status: 'waiting', position: i + 2, checkInTime: s.clock.now(),
    })));
    await s.db.db.update(t.queueCounters).set({ lastSeq: BOARD_WINDOW + 6 }).where(eq(t.queueCounters.queueTypeId, type.id));
    const called = (await s.request('POST', `queue-types/${type.id}/call-next`, { token: registrar, body: {} })).body as QueueEntry;
    expect(called.id).toBe(first.id);
    const second = (await s.request('POST', `queue-types/${type.id}/call-next`, { token: registrar, body: {} })).body as QueueEntry;
    expect((await action(second, { action: 'pass' })).status).toBe(200);
    const board = (await s.request('GET', `buckets/${hospital}/queue-exams`, { token: registrar })).body as QueueBoard;
    const mine = board.entries.filter((e) => e.queueTypeId === type.id);
    const waiting = mine.filter((e) => e.status === 'waiting');
    expect(waiting).toHaveLength(BOARD_WINDOW);
    expect(waiting[0]!.queueNo).toBe('W003');
    expect(waiting.map((e) => e.position)).toEqual([...waiting.map((e) => e.position)].sort((a, b) => a - b));
    expect(mine.filter((e) => e.status === 'passed').map((e) => e.id)).toEqual([second.id]);
    expect(mine.filter((e) => e.status === 'served')).toEqual([]);
    expect(board.counts.find((c) => c.queueTypeId === type.id)).toEqual({ queueTypeId: type.id, waiting: BOARD_WINDOW + 4, passed: 1, served: 1 });
    expect(board.counts.map((c) => c.queueTypeId)).toEqual(board.queueTypes.map((q) => q.id));
  });
});

describe('calling', () => {
  it('gives ten operators calling next at once ten different patients; two more at once get QueueEmpty', async () => {
    const type = await newQueue('T');
    const patients = await Promise.all(Array.from({ length: 10 }, (_, i) => checkIn(type, `并发${i}`)));
    expect(new Set(patients.map((p) => p.queueNo)).size).toBe(10);
    const operators = await Promise.all(Array.from({ length: 12 }, async () => {
      const op = await createAccount(s, { groupId: s.ids.groupId, buckets: [{ bucketId: hospital, actions: ['calling_call'] }] });
      return s.login(op.username);
    }));
    const calls = await Promise.all(operators.map((token) => s.request('POST', 'queue-exams/call-next', { token, body: { bucketId: hospital, queueTypeId: type.id } })));
    const ok = calls.filter((c) => c.status === 200).map((c) => c.body as QueueEntry);
    expect(ok).toHaveLength(10);
    expect(new Set(ok.map((e) => e.examId))).toEqual(new Set(patients.map((p) => p.examId)));
    expect(calls.filter((c) => c.status !== 200).map((c) => [c.status, c.body.code])).toEqual([[409, 'QueueEmpty'], [409, 'QueueEmpty']]);
    const empty = await s.request('POST', `queue-types/${type.id}/call-next`, { token: operators[0], body: {} });
    expect(empty.status).toBe(409);
    expect(empty.body.code).toBe('QueueEmpty');
  });

  it('puts a missed patient back first, or last when the place is past the end of the list', async () => {
    const type = await newQueue('N');
    const [a, b, c] = [await checkIn(type), await checkIn(type), await checkIn(type)];
    const waiting = async () => ((await s.request('GET', `buckets/${hospital}/queue-exams`, { token: registrar })).body as QueueBoard)
      .entries.filter((e) => e.queueTypeId === type.id && e.status === 'waiting').map((e) => e.id);
    expect(((await s.request('POST', `queue-types/${type.id}/call-next`, { token: registrar, body: {} })).body as QueueEntry).id).toBe(a.id);
    await action(a, { action: 'pass' });
    await action(a, { action: 'back', position: 1 });
    expect(await waiting()).toEqual([a.id, b.id, c.id]);
    expect(((await s.request('POST', `queue-types/${type.id}/call-next`, { token: registrar, body: {} })).body as QueueEntry).id).toBe(a.id);
    await action(a, { action: 'pass' });
    await action(a, { action: 'back', position: 10 });
    expect(await waiting()).toEqual([b.id, c.id, a.id]);
    // Re-sorted before the first one waiting.
    expect((await s.request('POST', `queue-exams/${a.id}/resort`, { token: registrar, body: { targetNumber: b.queueNo } })).status).toBe(200);
    expect(await waiting()).toEqual([a.id, b.id, c.id]);
  });

  it('calls in order; recall counts; pass, back to a place, done; refuses what the machine refuses', async () => {
    const type = await newQueue('M');
    const [a, b, c] = [await checkIn(type), await checkIn(type), await checkIn(type)];
    const first = (await s.request('POST', `queue-types/${type.id}/call-next`, { token: registrar, body: {} })).body as QueueEntry;
    expect(first.id).toBe(a.id);
    expect(first.callCount).toBe(1);
    const again = await action(a, { action: 'recall' });
    expect(again.body).toMatchObject({ status: 'called', callCount: 2 });
    expect((await action(a, { action: 'pass' })).body.status).toBe('passed');
    const missed = await s.request('GET', `queue-types/${type.id}/missed`, { token: registrar });
    expect(missed.body.map((e: QueueEntry) => e.id)).toEqual([a.id]);
    // Back into the waiting list as the second one: b, a, c.
    expect((await action(a, { action: 'back', position: 2 })).body.status).toBe('waiting');
    const board = (await s.request('GET', `buckets/${hospital}/queue-exams`, { token: registrar })).body as QueueBoard;
    expect(board.entries.filter((e) => e.queueTypeId === type.id && e.status === 'waiting').map((e) => e.id)).toEqual([b.id, a.id, c.id]);
    // Re-sort c before b.
    const resorted = await s.request('POST', `queue-exams/${c.id}/resort`, { token: registrar, body: { targetNumber: b.queueNo } });
    expect(resorted.status, JSON.stringify(resorted.body)).toBe(200);
    const order = ((await s.request('GET', `buckets/${hospital}/queue-exams`, { token: registrar })).body as QueueBoard)
      .entries.filter((e) => e.queueTypeId === type.id && e.status === 'waiting').map((e) => e.id);
    expect(order).toEqual([c.id, b.id, a.id]);
    const unknown = await s.request('POST', `queue-exams/${c.id}/resort`, { token: registrar, body: { targetNumber: 'M999' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('UnknownQueueNumber');
    // A removed patient is not called; an unknown action is a ParamsError; a stale version a VersionConflict.
    await action(c, { action: 'remove' });
    const removedCall = await action(c, { action: 'call' });
    expect(removedCall.status).toBe(409);
    expect(removedCall.body.code).toBe('InvalidTransition');
    expect((await action(b, { action: 'teleport' })).status).toBe(400);
    const stale = await action(b, { action: 'call', version: 99 });
    expect(stale.body.code).toBe('VersionConflict');
    expect((await action(b, { action: 'call' })).body.status).toBe('called');
    expect((await action(b, { action: 'done' })).body.status).toBe('served');
    expect((await s.request('GET', `queue-types/${type.id}/calling`, { token: registrar })).body).toBeNull();
  });

  it('answers the page query on the shared engine', async () => {
    const res = await s.request('POST', `buckets/${hospital}/queue-exams/query`, { token: registrar, body: { filters: [{ field: 'status', operator: 'equal', values: ['waiting'] }] } });
    expect(res.status).toBe(200);
    expect(res.body.items.every((e: QueueEntry) => e.status === 'waiting')).toBe(true);
    const bad = await s.request('POST', `buckets/${hospital}/queue-exams/query`, { token: registrar, body: { filters: [{ field: 'status', operator: 'equal', values: ['lost'] }] } });
    expect(bad.status).toBe(400);
  });

  it('refuses accounts without calling rights and organisations of others', async () => {
    const entry = await checkIn(queue);
    expect((await action(entry, { action: 'call' }, await tokenOf(s, 'rad1'))).status).toBe(403);
    expect((await action(entry, { action: 'call' }, await tokenOf(s, 'expert'))).status).toBe(404);
    const [before] = await s.db.db.select({ n: count() }).from(t.auditEvents).where(eq(t.auditEvents.area, 'calling'));
    expect(before!.n).toBeGreaterThan(0);
  });
});

describe('bad input', () => {
  it('is a 400 ParamsError, never a 500', async () => {
    const entry = await checkIn(queue);
    const calls: [string, string, unknown][] = [
      ['POST', 'queue-exams/check-in', { examId: 'x', queueTypeId: queue.id }],
      ['POST', 'queue-exams/check-in', { examId: 2 ** 31, queueTypeId: queue.id }],
      ['POST', 'queue-exams/check-in', {}],
      ['POST', `queue-exams/${entry.id}/action`, { action: 'call', version: 2 ** 40 }],
      ['POST', `queue-exams/${entry.id}/action`, { action: 'back', position: 0 }],
      ['POST', `queue-exams/${entry.id}/resort`, { targetNumber: '' }],
      ['POST', `buckets/${hospital}/queue-types`, { prefix: 'a1', name: 'x' }],
      ['POST', `buckets/${hospital}/screen-tokens`, { name: '' }],
      ['PUT', `buckets/${hospital}/calling-settings`, { privacy: 'yes' }],
      ['POST', `buckets/${hospital}/queue-exams/query`, { filters: [{ field: 'day', operator: 'equal', values: ['today'] }] }],
      ['POST', `buckets/${hospital}/queue-exams/query`, { filters: [{ field: 'search', operator: 'like', values: [' '] }] }],
    ];
    for (const [method, path, body] of calls) {
      const res = await s.request(method, path, { token: registrar, body });
      expect([res.status, res.body.code], `${method} ${path} ${JSON.stringify(body)}`).toEqual([400, 'ParamsError']);
    }
    expect((await s.request('POST', 'queue-exams/99999999999/action', { token: registrar, body: { action: 'call' } })).status).toBe(400);
  });

  it('finds entries by name, patient id or number (search)', async () => {
    const type = await newQueue('F');
    const entry = await checkIn(type, '搜索患者');
    for (const q of ['搜索', entry.queueNo.toLowerCase()]) {
      const res = await s.request('POST', `buckets/${hospital}/queue-exams/query`, { token: registrar, body: { filters: [{ field: 'search', operator: 'like', values: [q] }] } });
      expect(res.body.items.map((e: QueueEntry) => e.id), q).toContain(entry.id);
    }
  });
});

describe('registry lines', () => {
  const lineIn = async (status: string) => {
    const [line] = await s.db.db.select().from(t.exams)
      .where(and(eq(t.exams.bucketId, hospital), isNotNull(t.exams.registrationId), eq(t.exams.examStatus, status))).limit(1);
    expect(line, `a demo registry line ${status}`).toBeDefined();
    return line!;
  };

  it('checks in a line that arrived, not one that is only registered', async () => {
    const type = await newQueue('R');
    const registered = await lineIn('Registered');
    const refused = await s.request('POST', 'queue-exams/check-in', { token: registrar, body: { examId: registered.id, queueTypeId: type.id } });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('InvalidTransition');
    await s.db.db.update(t.exams).set({ examStatus: 'Arrived', arrivedTime: s.clock.now() }).where(eq(t.exams.id, registered.id));
    const ok = await s.request('POST', 'queue-exams/check-in', { token: registrar, body: { examId: registered.id, queueTypeId: type.id } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toMatchObject({ registrationId: registered.registrationId, status: 'waiting', queueNo: 'R001', actions: ['call', 'remove'] });
  });

  it('enqueueArrived puts an arrived line into the queue of its modality, once, and nothing else', async () => {
    const line = await lineIn('Registered');
    const modality = line.modality;
    const [type] = await s.db.db.insert(t.queueTypes).values({ bucketId: hospital, prefix: 'K', name: '自动', modality: `${modality}`, room: 'K 室' }).returning();
    // Still Registered: not queued.
    expect(await s.db.db.transaction((tx) => enqueueArrived(tx, line, { now: s.clock.now() }))).toBeNull();
    await s.db.db.update(t.exams).set({ examStatus: 'Arrived', arrivedTime: s.clock.now() }).where(eq(t.exams.id, line.id));
    const id = await s.db.db.transaction((tx) => enqueueArrived(tx, line, { now: s.clock.now() }));
    expect(id).not.toBeNull();
    const [entry] = await s.db.db.select().from(t.queueEntries).where(eq(t.queueEntries.id, id!));
    // The demo's own queue of that modality (seeded first) takes it when there is one; else the new one.
    const [first] = await s.db.db.select().from(t.queueTypes).where(and(eq(t.queueTypes.bucketId, hospital), eq(t.queueTypes.modality, modality))).orderBy(t.queueTypes.id).limit(1);
    expect(entry).toMatchObject({ examId: line.id, status: 'waiting', queueTypeId: first!.id });
    expect(first!.id === type!.id || entry!.queueTypeId !== type!.id).toBe(true);
    // Twice the same day: nothing more.
    expect(await s.db.db.transaction((tx) => enqueueArrived(tx, line, { now: s.clock.now() }))).toBeNull();
    // No queue of the modality: nothing.
    const other = await insertExam(s, { bucketId: hospital });
    await s.db.db.update(t.exams).set({ modality: 'XA', examStatus: 'Arrived', registrationId: line.registrationId }).where(eq(t.exams.id, other));
    expect(await s.db.db.transaction((tx) => enqueueArrived(tx, { id: other }, { now: s.clock.now() }))).toBeNull();
    // The registry revokes the check-in: the entry leaves the queue, once.
    expect(await s.db.db.transaction((tx) => leaveQueue(tx, line, { now: s.clock.now() }))).toBe(true);
    const [gone] = await s.db.db.select().from(t.queueEntries).where(eq(t.queueEntries.id, id!));
    expect(gone!.status).toBe('removed');
    expect(await s.db.db.transaction((tx) => leaveQueue(tx, line, { now: s.clock.now() }))).toBe(false);
  });
});
