import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSULTATION_STATUS, type ConsultationPage, type ConsultationPageQuery, type ConsultationStatus } from '../../contract/consultations';
import * as t from '../../server/db/schema';
import { createAccount, createGroup, unique } from '../support/accounts';
import { tokenOf } from '../support/reports';
import { startServer, type TestServer } from '../support/server';

/**
 * POST consultations/query-page: the list the pending-consultation notification polls (core §7: status equal 0,
 * limit 5, skip 0). Its fields, filters and sorts checked against the stored rows; the refusals; the scope (the
 * applicant's and the joined organisations' members, in groups with consultations on).
 */
let s: TestServer;
let rad1: string;
const DAY = 86_400_000;
const status0 = { field: 'status', operator: 'equal' as const, values: [0] };

interface Row {
  id: number;
  status: number;
  created: Date;
  appliedBucketId: number;
}

async function query(token: string | undefined, body: unknown) {
  return s.request('POST', 'consultations/query-page', { token, body });
}

async function page(token: string, body: ConsultationPageQuery = {}): Promise<ConsultationPage> {
  const res = await query(token, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as ConsultationPage;
}

/** Every consultation the hospital's members see: the hospital applied for all of them (seed and beforeAll). */
async function hospitalRows(): Promise<Row[]> {
  return s.db.db.select({ id: t.consultations.id, status: t.consultations.status, created: t.consultations.created, appliedBucketId: t.consultations.appliedBucketId })
    .from(t.consultations).where(eq(t.consultations.appliedBucketId, s.ids.hospitalId));
}

const newestIdFirst = (rows: Row[]) => rows.map((r) => r.id).sort((a, b) => b - a);

async function insertConsultation(o: { applied: number; joined: number[]; status?: ConsultationStatus; created?: Date; patientName?: string }): Promise<number> {
  const [row] = await s.db.db.insert(t.consultations).values({
    appliedBucketId: o.applied, targetBucketId: o.joined[0] ?? o.applied, patientName: o.patientName ?? '测试患者', reason: '测试会诊',
    status: o.status ?? CONSULTATION_STATUS.completed, createdBy: s.ids.accounts.rad1, created: o.created ?? s.clock.now(),
  }).returning();
  if (o.joined.length) await s.db.db.insert(t.consultationBuckets).values(o.joined.map((bucketId) => ({ consultationId: row!.id, bucketId })));
  return row!.id;
}

beforeAll(async () => {
  s = await startServer({ exams: 5 });
  rad1 = await tokenOf(s, 'rad1');
  // More than a default page: 40 older, completed consultations added after the seed (higher ids, older times).
  for (let i = 0; i < 40; i++) {
    await insertConsultation({ applied: s.ids.hospitalId, joined: [s.ids.expertCentreId], created: new Date(s.clock.now().getTime() - (70 + i) * DAY) });
  }
});
afterAll(async () => { await s.close(); });

describe('the demo consultations', () => {
  it('are 25 from the hospital to the expert centre over the last 60 days, 5 of them pending, every status present', async () => {
    const seeded = (await s.db.db.select().from(t.consultations)).filter((c) => c.created.getTime() > s.clock.now().getTime() - 61 * DAY);
    expect(seeded).toHaveLength(25);
    expect(seeded.every((c) => c.appliedBucketId === s.ids.hospitalId && c.targetBucketId === s.ids.expertCentreId)).toBe(true);
    expect(seeded.filter((c) => c.status === CONSULTATION_STATUS.pending)).toHaveLength(5);
    expect(new Set(seeded.map((c) => c.status))).toEqual(new Set(Object.values(CONSULTATION_STATUS)));
    expect(seeded.every((c) => /[\u4e00-\u9fff]/.test(c.reason))).toBe(true);
  });

  it('belong to a group whose consultation notification sound is set, like its exam sound', async () => {
    const [group] = await s.db.db.select().from(t.groups).where(eq(t.groups.id, s.ids.groupId));
    expect(group!.enableConsultation).toBe(true);
    expect(group!.autoConsulNotifyAudio).toBe('/sounds/notify.wav');
    expect(group!.autoNotifyAudio).toBe('/sounds/notify.wav');
  });
});

describe('consultations/query-page', () => {
  it('lists newest id first, 50 by default, with the total of all matches', async () => {
    const all = await hospitalRows();
    expect(all.length).toBeGreaterThan(50);
    const first = await page(rad1, {});
    expect(first.total).toBe(all.length);
    expect(first.items.map((c) => c.id)).toEqual(newestIdFirst(all).slice(0, 50));
  });

  it('pages with skip and limit, up to 100 a page', async () => {
    const all = newestIdFirst(await hospitalRows());
    expect((await page(rad1, { skip: 50, limit: 10 })).items.map((c) => c.id)).toEqual(all.slice(50, 60));
    expect((await page(rad1, { limit: 100 })).items.map((c) => c.id)).toEqual(all.slice(0, 100));
  });

  it('answers each item with the list fields: patient, time, reason, status, applicant and joined organisations, scheduled time', async () => {
    const [stored] = await s.db.db.select().from(t.consultations).where(eq(t.consultations.status, CONSULTATION_STATUS.scheduled)).limit(1);
    const { items } = await page(rad1, { filters: [{ field: 'id', operator: 'equal', values: [stored!.id] }] });
    expect(items).toEqual([{
      id: stored!.id,
      patientName: stored!.patientName,
      created: stored!.created.toISOString(),
      reason: stored!.reason,
      status: CONSULTATION_STATUS.scheduled,
      appliedBucketName: '市第一人民医院放射科',
      joinedBuckets: [{ id: s.ids.expertCentreId, name: '远程影像专家中心' }],
      scheduledTime: stored!.scheduledTime!.toISOString(),
      targetBucketName: '远程影像专家中心',
      paymentStatus: stored!.paymentStatus,
      ratingScore: stored!.rating,
    }]);
  });

  it('answers the notification poll: status equal 0, five at a time, the pending count as total', async () => {
    const pending = (await hospitalRows()).filter((c) => c.status === CONSULTATION_STATUS.pending);
    const poll = await page(rad1, { filters: [status0], skip: 0, limit: 5 });
    expect(poll.total).toBe(pending.length);
    expect(poll.items.map((c) => c.id)).toEqual(newestIdFirst(pending).slice(0, 5));
    expect(poll.items.every((c) => c.status === 0 && c.scheduledTime === null)).toBe(true);
  });

  it('filters by status in a set, by created range and by id, all of them together', async () => {
    const all = await hospitalRows();
    const statusIn = await page(rad1, { filters: [{ field: 'status', operator: 'in', values: [1, 2] }], limit: 100 });
    expect(statusIn.items.map((c) => c.id)).toEqual(newestIdFirst(all.filter((c) => c.status === 1 || c.status === 2)));

    const from = new Date(s.clock.now().getTime() - 30 * DAY);
    const to = new Date(s.clock.now().getTime() - 10 * DAY);
    const range = await page(rad1, {
      filters: [{ field: 'created', operator: 'gte', values: [from.toISOString()] }, { field: 'created', operator: 'lte', values: [to.toISOString()] }], limit: 100,
    });
    const inRange = all.filter((c) => c.created >= from && c.created <= to);
    expect(inRange.length).toBeGreaterThan(0);
    expect(range.items.map((c) => c.id)).toEqual(newestIdFirst(inRange));

    const pivot = newestIdFirst(all)[30]!;
    const above = await page(rad1, { filters: [{ field: 'id', operator: 'gt', values: [pivot] }, { field: 'status', operator: 'equal', values: [3] }], limit: 100 });
    expect(above.items.map((c) => c.id)).toEqual(newestIdFirst(all.filter((c) => c.id > pivot && c.status === 3)));
    expect(above.total).toBe(above.items.length);
  });

  it('sorts by created when asked, the id breaking ties', async () => {
    const all = await hospitalRows();
    const byCreated = [...all].sort((a, b) => b.created.getTime() - a.created.getTime() || b.id - a.id).map((c) => c.id);
    expect((await page(rad1, { sorts: [{ field: 'created', direction: 'desc' }], limit: 100 })).items.map((c) => c.id)).toEqual(byCreated.slice(0, 100));
    expect((await page(rad1, { sorts: [{ field: 'id', direction: 'asc' }], limit: 3 })).items.map((c) => c.id)).toEqual(newestIdFirst(all).reverse().slice(0, 3));
  });

  it.each<[string, unknown, string]>([
    ['a field outside the whitelist', { filters: [{ field: 'patientId', operator: 'equal', values: ['张三'] }] }, 'filters.0.field'],
    ['an operator the field does not take', { filters: [{ field: 'status', operator: 'gte', values: [0] }] }, 'filters.0.operator'],
    ['an operator outside the language', { filters: [{ field: 'status', operator: 'between', values: [0, 1] }] }, 'filters.0.operator'],
    ['a like on status', { filters: [status0, { field: 'status', operator: 'like', values: ['0'] }] }, 'filters.1.operator'],
    ['a status that does not exist', { filters: [{ field: 'status', operator: 'equal', values: [5] }] }, 'filters.0.values'],
    ['a status as a string', { filters: [{ field: 'status', operator: 'equal', values: ['0'] }] }, 'filters.0.values'],
    ['two values for equal', { filters: [{ field: 'status', operator: 'equal', values: [0, 1] }] }, 'filters.0.values'],
    ['no values', { filters: [{ field: 'status', operator: 'in', values: [] }] }, 'filters.0.values'],
    ['a time that is not ISO', { filters: [{ field: 'created', operator: 'gte', values: ['yesterday'] }] }, 'filters.0.values'],
    ['a time without an offset', { filters: [{ field: 'created', operator: 'gte', values: ['2026-01-01T00:00:00'] }] }, 'filters.0.values'],
    ['a day the calendar does not have', { filters: [{ field: 'created', operator: 'gte', values: ['2026-02-30T00:00:00Z'] }] }, 'filters.0.values'],
    ['a negative id', { filters: [{ field: 'id', operator: 'gt', values: [-1] }] }, 'filters.0.values'],
    ['a sort outside the whitelist', { sorts: [{ field: 'reason', direction: 'asc' }] }, 'sorts.0.field'],
    ['a limit above 100', { limit: 101 }, 'limit'],
    ['a limit of 0', { limit: 0 }, 'limit'],
    ['a negative skip', { skip: -1 }, 'skip'],
    ['filters that are not a list', { filters: 'status=0' }, 'filters'],
  ])('refuses %s with 400 ParamsError naming it', async (_what, body, path) => {
    const res = await query(rad1, body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'ParamsError' });
    expect(res.body.details.fields.map((f: { path: string }) => f.path)).toContain(path);
  });

  it('refuses anonymous callers with 401', async () => {
    expect((await query(undefined, {})).status).toBe(401);
  });
});

describe('consultation scope', () => {
  it('lets the joined organisation (the expert centre) see what the applicant (the hospital) sees', async () => {
    const all = await hospitalRows();
    const expert = await page(await tokenOf(s, 'expert'), { limit: 100 });
    expect(expert.total).toBe(all.length);
    expect(expert.items.map((c) => c.id)).toEqual(newestIdFirst(all).slice(0, 100));
  });

  it('shows an account of another organisation of the same group none of them', async () => {
    const [clinic] = await s.db.db.insert(t.buckets).values({ groupId: s.ids.groupId, name: '社区卫生服务中心', code: unique('CLINIC') }).returning();
    const outsider = await createAccount(s, { groupId: s.ids.groupId, buckets: [{ bucketId: clinic!.id, accessLevel: 'admin' }] });
    expect(await page(await s.login(outsider.username), { limit: 100 })).toEqual({ items: [], total: 0 });
    expect((await page(await s.login(outsider.username), { filters: [status0] })).total).toBe(0);
  });

  it('shows each side its own: applicant or joined, never a third organisation', async () => {
    const other = await createGroup(s);
    await s.db.db.update(t.groups).set({ enableConsultation: true }).where(eq(t.groups.id, other.groupId));
    const theirs = await insertConsultation({ applied: other.bucketId, joined: [other.bucketId], status: CONSULTATION_STATUS.pending });
    const askingHospital = await insertConsultation({ applied: other.bucketId, joined: [s.ids.hospitalId], status: CONSULTATION_STATUS.pending });
    const member = await createAccount(s, { groupId: other.groupId, buckets: [{ bucketId: other.bucketId }] });
    const mine = await page(await s.login(member.username), {});
    expect(mine.items.map((c) => c.id)).toEqual([askingHospital, theirs]);

    const hospital = await page(rad1, { filters: [status0], limit: 5 });
    expect(hospital.items[0]).toMatchObject({ id: askingHospital, appliedBucketName: await bucketName(other.bucketId) });
    expect(hospital.items.map((c) => c.id)).not.toContain(theirs);
    const expert = await page(await tokenOf(s, 'expert'), { filters: [{ field: 'id', operator: 'in', values: [theirs, askingHospital] }] });
    expect(expert).toEqual({ items: [], total: 0 });
  });

  it('refuses, with 403 Forbidden, the members of a group without consultations, until the group switches them on', async () => {
    const other = await createGroup(s);
    await insertConsultation({ applied: other.bucketId, joined: [other.bucketId] });
    const member = await createAccount(s, { groupId: other.groupId, buckets: [{ bucketId: other.bucketId, accessLevel: 'admin' }] });
    const token = await s.login(member.username);
    const refused = await query(token, { filters: [status0], limit: 5 });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'Forbidden' });

    await s.db.db.update(t.groups).set({ enableConsultation: true }).where(eq(t.groups.id, other.groupId));
    expect((await page(token, {})).total).toBe(1);
  });

  it('refuses an account in no group at all', async () => {
    const loner = await createAccount(s);
    const res = await query(await s.login(loner.username), {});
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'Forbidden' });
  });

  it('lists only the organisations of the groups that have consultations on, for an account in two groups', async () => {
    const off = await createGroup(s);
    const offId = await insertConsultation({ applied: off.bucketId, joined: [off.bucketId], status: CONSULTATION_STATUS.pending });
    const both = await createAccount(s, {
      groupId: s.ids.groupId,
      buckets: [{ bucketId: s.ids.hospitalId }, { bucketId: off.bucketId, accessLevel: 'admin' }],
    });
    await s.db.db.insert(t.groupMembers).values({ groupId: off.groupId, accountId: both.id });
    const listed = await page(await s.login(both.username), { limit: 100 });
    expect(listed.items.map((c) => c.id)).not.toContain(offId);
    expect(listed.total).toBe((await page(rad1, {})).total);
  });
});

async function bucketName(bucketId: number): Promise<string> {
  const [b] = await s.db.db.select().from(t.buckets).where(eq(t.buckets.id, bucketId));
  return b!.name;
}
