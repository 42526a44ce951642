import { and, eq, isNotNull } from 'drizzle-orm';
import { REGISTRATION_STATUSES } from '../../contract/registry';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../server/db/schema';
import { abnormalTexts } from '../../server/seed/clinical';
import { startServer, type TestServer } from '../support/server';

/** The demo data looks like a hospital's (issue 8 §4): every time in the past, reports that fit their exams, patients who come back. */
let s: TestServer;
beforeAll(async () => { s = await startServer({ exams: 400 }); });
afterAll(async () => { await s.close(); });

describe('demo data', () => {
  it('has no exam, report or trace time after the moment it was seeded', async () => {
    const now = s.clock.now().getTime();
    const exams = await s.db.db.select().from(t.exams);
    for (const e of exams) {
      expect(e.created.getTime()).toBeLessThanOrEqual(now);
      // A registered exam nobody has seen yet is at its appointment, which may be later today or on a later day.
      if (e.registrationId !== null && e.arrivedTime === null) continue;
      expect(e.examTime.getTime()).toBeLessThanOrEqual(now);
      if (e.registrationId === null) expect(e.examTime.getTime()).toBeLessThanOrEqual(e.created.getTime());
    }
    const reports = await s.db.db.select().from(t.reports);
    expect(reports.length).toBeGreaterThan(100);
    for (const r of reports) {
      for (const time of [r.savedTime, r.submittedTime, r.approvedTime, r.printedTime, r.created]) if (time) expect(time.getTime()).toBeLessThanOrEqual(now);
      if (r.submittedTime && r.savedTime) expect(r.submittedTime.getTime()).toBeGreaterThanOrEqual(r.savedTime.getTime());
      if (r.approvedTime && r.submittedTime) expect(r.approvedTime.getTime()).toBeGreaterThanOrEqual(r.submittedTime.getTime());
    }
  });

  it("writes each report from its exam's modality and body part: the template's words, or an abnormal finding of that part", async () => {
    const rows = await s.db.db.select({ exam: t.exams, report: t.reports }).from(t.reports).innerJoin(t.exams, eq(t.exams.id, t.reports.examId));
    const templates = await s.db.db.select().from(t.reportTemplates).where(eq(t.reportTemplates.isFolder, false));
    const templateOf = (bucketId: number, modality: string, bodyPart: string) =>
      templates.find((tp) => tp.bucketId === bucketId && tp.modality === modality && tp.bodyPart === bodyPart);
    for (const { exam, report } of rows) {
      const bodyPart = exam.bodyPart ?? '';
      if (report.positive) {
        expect(abnormalTexts(bodyPart).map(([finding]) => finding), `${exam.modality} ${bodyPart}`).toContain(report.finding);
      } else {
        const template = templateOf(exam.bucketId, exam.modality, bodyPart);
        expect(template, `${exam.modality} ${bodyPart}`).toBeDefined();
        expect(report.finding).toBe(template!.finding);
        expect(report.diagnosis).toBe(template!.diagnosis);
      }
    }
  });

  it('has patients with several exams over time', async () => {
    const exams = await s.db.db.select({ patientId: t.exams.patientId, bucketId: t.exams.bucketId }).from(t.exams);
    const visits = new Map<string, number>();
    for (const e of exams) visits.set(`${e.bucketId}|${e.patientId}`, (visits.get(`${e.bucketId}|${e.patientId}`) ?? 0) + 1);
    const returning = [...visits.values()].filter((n) => n >= 2).length;
    expect(returning).toBeGreaterThan(20);
  });
});

/** The organisation's calendar day of an instant (the demo hospital keeps the default zone). */
const dayIn = (date: Date, timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(date);

describe('registry demo (issue 10)', () => {
  const registryLines = () => s.db.db.select().from(t.exams).where(and(isNotNull(t.exams.registrationId), eq(t.exams.bucketId, s.ids.hospitalId)));
  const zoneOf = async () => (await s.db.db.select().from(t.buckets).where(eq(t.buckets.id, s.ids.hospitalId)))[0]!.timeZone;

  it('makes the hospital a registry organisation of the demo group, with its procedure steps', async () => {
    const [group] = await s.db.db.select().from(t.groups).where(eq(t.groups.id, s.ids.groupId));
    expect(group!.enableRegistry).toBe(true);
    const desks = await s.db.db.select().from(t.groupRegistryBuckets).where(eq(t.groupRegistryBuckets.groupId, s.ids.groupId));
    expect(desks.map((d) => d.bucketId)).toEqual([s.ids.hospitalId]);
    expect(await zoneOf()).toBe('Asia/Shanghai');

    const steps = await s.db.db.select().from(t.procedureSteps).where(eq(t.procedureSteps.bucketId, s.ids.hospitalId));
    expect(steps.length).toBeGreaterThanOrEqual(8);
    for (const step of steps) {
      expect(step.modality).toMatch(/^[A-Z0-9]{1,8}$/);
      expect(step.bodyPart).toBeTruthy();
    }
    expect(new Set(steps.map((step) => step.modality))).toEqual(new Set(['CT', 'MR', 'DX', 'US', 'ECG', 'MG']));
    // The ECG is read while it is recorded: arrival makes it Performed.
    expect(steps.filter((step) => step.reportDuringExam).map((step) => step.modality)).toEqual(['ECG']);
  });

  it("has today's registrations with lines in every state, as the registration machine leaves them", async () => {
    const now = s.clock.now();
    const zone = await zoneOf();
    const today = dayIn(now, zone);
    const lines = (await registryLines()).filter((e) => dayIn(e.created, zone) === today);
    const byState = Object.fromEntries(REGISTRATION_STATUSES.map((status) => [status, lines.filter((e) => e.examStatus === status).length]));
    expect(byState).toEqual({ Registered: 10, Scheduled: 6, Arrived: 3, Performed: 4, Cancelled: 3 });
    const registrations = new Set(lines.map((e) => e.registrationId));
    expect(registrations.size).toBe(15);
    expect(new Set(lines.map((e) => e.patientId)).size).toBe(15);
    const perRegistration = [...registrations].map((id) => lines.filter((e) => e.registrationId === id).length);
    expect(Math.min(...perRegistration)).toBe(1);
    expect(Math.max(...perRegistration)).toBe(3);

    const steps = new Map((await s.db.db.select().from(t.procedureSteps)).map((step) => [step.id, step]));
    for (const e of lines) {
      const where = `${e.patientName} ${e.modality} ${e.examStatus}`;
      // Made earlier today, never in the future; arrivals between the registration and now.
      expect(e.created.getTime(), where).toBeLessThanOrEqual(now.getTime());
      if (e.arrivedTime) {
        expect(e.arrivedTime.getTime(), where).toBeGreaterThanOrEqual(e.created.getTime());
        expect(e.arrivedTime.getTime(), where).toBeLessThanOrEqual(now.getTime());
      }
      const step = steps.get(e.procedureStepId!);
      expect(step, where).toBeDefined();
      expect([e.modality, e.bodyPart]).toEqual([step!.modality, step!.bodyPart]);
      expect(e.accessionNumber, where).toMatch(/^A\d{8}\d{2}\d{7}$/);
      expect(e.patientPhone, where).toMatch(/^1\d{10}$/);
      expect(e.hasImage, where).toBe(false);
      expect(e.examTime.getTime(), where).toBe((e.arrivedTime ?? e.scheduledTime!).getTime());
      const day = dayIn(e.scheduledTime!, zone);
      if (e.examStatus === 'Scheduled') expect(day > today, where).toBe(true);
      else expect(day, where).toBe(today);
      switch (e.examStatus) {
        case 'Registered': case 'Scheduled':
          expect([e.arrivedTime, e.prevExamStatus, e.prevArrivedTime, e.cancelReason], where).toEqual([null, null, null, null]);
          break;
        case 'Arrived':
          expect(e.arrivedTime, where).not.toBeNull();
          expect([e.prevExamStatus, e.prevArrivedTime], where).toEqual(['Registered', null]);
          break;
        case 'Performed':
          expect(e.arrivedTime, where).not.toBeNull();
          if (step!.reportDuringExam) expect([e.prevExamStatus, e.prevArrivedTime], where).toEqual(['Registered', null]);
          else expect([e.prevExamStatus, e.prevArrivedTime], where).toEqual(['Arrived', e.arrivedTime]);
          break;
        case 'Cancelled':
          expect(e.cancelReason, where).toBeTruthy();
          expect(['Registered', 'Arrived'], where).toContain(e.prevExamStatus);
          expect(e.prevArrivedTime, where).toEqual(e.prevExamStatus === 'Arrived' ? e.arrivedTime : null);
          break;
        default: throw new Error(`unknown status ${e.examStatus}`);
      }
    }
    // An ECG performed on arrival, and a cancellation after arrival.
    expect(lines.some((e) => e.examStatus === 'Performed' && steps.get(e.procedureStepId!)!.reportDuringExam)).toBe(true);
    expect(lines.some((e) => e.examStatus === 'Cancelled' && e.prevExamStatus === 'Arrived')).toBe(true);
  });

  it('gives every patient source its ids (core §3), and a couple of outside orders', async () => {
    const zone = await zoneOf();
    const today = dayIn(s.clock.now(), zone);
    const lines = (await registryLines()).filter((e) => dayIn(e.created, zone) === today);
    for (const e of lines) {
      if (e.patientSource === 'I') expect([e.inpatientId, e.bedNum].every(Boolean), e.patientName).toBe(true);
      if (e.patientSource === 'O' || e.patientSource === 'NO') expect(e.outpatientId, e.patientName).toBeTruthy();
      if (e.patientSource === 'P') expect(e.physicalExamId, e.patientName).toBeTruthy();
      if (e.patientSource === 'E') expect(e.urgentFlag).toBe(true);
    }
    const patients = (source: string) => new Set(lines.filter((e) => e.patientSource === source).map((e) => e.patientId)).size;
    expect(patients('I')).toBeGreaterThanOrEqual(3);
    expect(patients('O')).toBeGreaterThanOrEqual(3);
    expect(patients('P')).toBeGreaterThanOrEqual(2);
    expect(patients('E')).toBe(2);
    const registrations = await s.db.db.select().from(t.registrations).where(eq(t.registrations.bucketId, s.ids.hospitalId));
    expect(registrations.filter((reg) => reg.orderId !== null && dayIn(reg.created, zone) === today)).toHaveLength(2);
    expect(registrations.every((reg) => reg.createdBy === s.ids.accounts.registrar)).toBe(true);
  });

  it('keeps accession numbers unique across every exam', async () => {
    // An expert's copy of an exam (payments: a paid request sent to the centre) carries its original's number.
    const copies = new Set((await s.db.db.select({ id: t.reportOrderTargets.expertExamId }).from(t.reportOrderTargets)).map((row) => row.id));
    const exams = (await s.db.db.select({ id: t.exams.id, accessionNumber: t.exams.accessionNumber }).from(t.exams)).filter((e) => !copies.has(e.id));
    const numbers = exams.map((e) => e.accessionNumber);
    expect(new Set(numbers).size).toBe(numbers.length);
  });

  it("gives several of today's patients earlier, reported exams (the desk's patient history)", async () => {
    const zone = await zoneOf();
    const today = dayIn(s.clock.now(), zone);
    const all = await registryLines();
    const todays = new Set(all.filter((e) => dayIn(e.created, zone) === today).map((e) => e.patientId));
    // Today's patients' earlier lines (the other past lines are the statistics' registrar history, below).
    const earlier = all.filter((e) => dayIn(e.created, zone) < today && todays.has(e.patientId));
    expect(new Set(earlier.map((e) => e.patientId)).size).toBeGreaterThanOrEqual(5);
    for (const e of earlier) {
      expect(e.examStatus).toBe('Performed');
      expect(e.reportStatus).toBe('corrected');
      expect(e.hasImage).toBe(true);
    }
  });

  it('shows the registered lines in the worklist like uploaded exams', async () => {
    const zone = await zoneOf();
    const today = dayIn(s.clock.now(), zone);
    const lines = (await registryLines()).filter((e) => dayIn(e.created, zone) === today);
    const token = await s.login('rad1');
    const res = await s.request('POST', 'exams/page-query', {
      token, body: { filters: [{ field: 'accessionNumber', operator: 'in', values: lines.map((e) => e.accessionNumber) }], skip: 0, limit: 100 },
    });
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(lines.length);
    expect(res.body.items.map((row: { reportStatus: string }) => row.reportStatus)).toEqual(lines.map(() => 'none'));
  });
});

describe('payments demo (issue 13)', () => {
  it('lets the group ask the expert centre, which sells reports per modality; packages of every kind', async () => {
    const experts = await s.db.db.select().from(t.groupExpertBuckets).where(eq(t.groupExpertBuckets.groupId, s.ids.groupId));
    expect(experts.map((e) => [e.bucketId, e.free])).toEqual([[s.ids.expertCentreId, false]]);
    const products = await s.db.db.select().from(t.expertProducts).where(eq(t.expertProducts.bucketId, s.ids.expertCentreId));
    expect(Object.fromEntries(products.map((p) => [p.modality ?? 'default', p.priceFen]))).toEqual({ default: 8000, CT: 12000, MR: 20000, DX: 5000, CR: 5000, US: 6000 });
    const packages = await s.db.db.select().from(t.chargePackages);
    expect(packages.map((p) => [p.kind, p.priceFen, p.bonusFen, p.reports, p.days, p.groupId])).toEqual([
      ['single', 0, 0, 0, 0, null], ['plan', 90_000, 0, 10, 30, null], ['plan', 400_000, 0, 50, 90, null],
      ['credit', 50_000, 0, 0, 0, null], ['credit', 100_000, 5_000, 0, 0, null], ['credit', 200_000, 15_000, 0, 0, null],
    ]);
  });

  it('has a credit balance its append-only ledger proves, with a recharge, charges and a refund', async () => {
    const ledger = await s.db.db.select().from(t.creditLedger).where(eq(t.creditLedger.groupId, s.ids.groupId)).orderBy(t.creditLedger.id);
    let balance = 0;
    for (const row of ledger) {
      balance += row.amountFen;
      expect(row.balanceAfterFen).toBe(balance);
      expect(Number.isInteger(row.amountFen)).toBe(true);
    }
    expect(new Set(ledger.map((row) => row.kind))).toEqual(new Set(['recharge', 'charge', 'refund']));
    const [credit] = await s.db.db.select().from(t.groupCredits).where(eq(t.groupCredits.groupId, s.ids.groupId));
    expect(credit!.balanceFen).toBe(balance);
    // Each credit-paid application has its charge; a refunded one its refund of the same amount.
    const orders = await s.db.db.select().from(t.reportOrders).where(eq(t.reportOrders.channel, 'credit'));
    for (const order of orders) {
      expect(ledger.filter((row) => row.orderId === order.id && row.kind === 'charge').map((row) => row.amountFen)).toEqual([-order.amountFen]);
      expect(ledger.filter((row) => row.orderId === order.id && row.kind === 'refund').map((row) => row.amountFen)).toEqual(order.paymentStatus === 3 ? [order.amountFen] : []);
    }
  });

  it('has applications in every state, the paid ones copied to the centre, the refunded ones with their refund', async () => {
    const orders = await s.db.db.select().from(t.reportOrders).orderBy(t.reportOrders.id);
    expect(orders).toHaveLength(13);
    const targets = await s.db.db.select().from(t.reportOrderTargets);
    const now = s.clock.now().getTime();
    const states = new Set<string>();
    for (const order of orders) {
      const where = `${order.requestNo} ${order.channel} ${order.paymentStatus}`;
      expect(order.requestNo, where).toMatch(new RegExp(`^R\\d{8}${String(order.id).padStart(6, '0')}$`));
      expect(order.created.getTime(), where).toBeLessThanOrEqual(now);
      const target = targets.find((tg) => tg.orderId === order.id)!;
      expect(target.priceFen, where).toBe(order.amountFen);
      states.add(order.paymentStatus === 1 ? `paid:${order.channel}` : String(order.paymentStatus));
      if (order.paymentStatus === 1) {
        expect(order.paidAt!.getTime(), where).toBeLessThanOrEqual(now);
        const [copy] = await s.db.db.select().from(t.exams).where(eq(t.exams.id, target.expertExamId!));
        expect(copy!.bucketId, where).toBe(s.ids.expertCentreId);
        expect(copy!.created.getTime(), where).toBeLessThanOrEqual(now);
        if (copy!.reportStatus === 'partial') states.add('reporting');
        if (copy!.reportStatus === 'corrected') states.add('reported');
      } else {
        expect(target.expertExamId, where).toBeNull();
      }
      if (order.paymentStatus === 3) {
        expect([order.refundNo, order.refundAt, order.refundReason, order.refundOperatorId].every((v) => v !== null), where).toBe(true);
      }
      if (order.progress === 'withdrawn') states.add('withdrawn');
    }
    expect(states).toEqual(new Set(['0', '3', 'paid:weixin', 'paid:credit', 'paid:plan', 'reporting', 'reported', 'withdrawn']));
    const [subscription] = await s.db.db.select().from(t.planSubscriptions);
    expect(subscription!.reportsUsed).toBe(orders.filter((o) => o.channel === 'plan' && o.paymentStatus === 1).length);
  });
});

describe('statistics demo (issue 16)', () => {
  it("records the scanner of the hospital's exams (two CTs), leaving about 5 % not recorded", async () => {
    const devices = await s.db.db.select().from(t.devices).where(eq(t.devices.bucketId, s.ids.hospitalId));
    const modalities = new Set(devices.map((d) => d.modality));
    const exams = (await s.db.db.select().from(t.exams).where(eq(t.exams.bucketId, s.ids.hospitalId)))
      .filter((e) => modalities.has(e.modality) && (e.examStatus ?? 'Performed') === 'Performed');
    for (const e of exams.filter((x) => x.deviceId !== null)) expect(devices.find((d) => d.id === e.deviceId)!.modality).toBe(e.modality);
    const missing = exams.filter((e) => e.deviceId === null).length / exams.length;
    expect(missing).toBeGreaterThan(0.01);
    expect(missing).toBeLessThan(0.12);
    const cts = devices.filter((d) => d.modality === 'CT').map((d) => d.id);
    expect(cts).toHaveLength(2);
    for (const id of cts) expect(exams.some((e) => e.deviceId === id)).toBe(true);
    // No other organisation's exam names the hospital's devices.
    expect((await s.db.db.select().from(t.exams).where(eq(t.exams.bucketId, s.ids.expertCentreId))).every((e) => e.deviceId === null)).toBe(true);
  });

  it('has a note-taker (the registrar or the technician) on about a third of the approved hospital reports', async () => {
    const approved = (await s.db.db.select().from(t.reports).where(and(eq(t.reports.bucketId, s.ids.hospitalId), isNotNull(t.reports.approvedTime))));
    const taken = approved.filter((r) => r.noteTakerId !== null);
    expect(taken.length / approved.length).toBeGreaterThan(0.2);
    expect(taken.length / approved.length).toBeLessThan(0.4);
    expect(new Set(taken.map((r) => r.noteTakerId))).toEqual(new Set([s.ids.accounts.registrar, s.ids.accounts.tech]));
  });

  it("gives the registrar a history of performed lines before today, which the desk's day does not show", async () => {
    const zone = 'Asia/Shanghai';
    const today = dayIn(s.clock.now(), zone);
    const registrations = await s.db.db.select().from(t.registrations).where(eq(t.registrations.bucketId, s.ids.hospitalId));
    const lines = await s.db.db.select().from(t.exams).where(and(isNotNull(t.exams.registrationId), eq(t.exams.bucketId, s.ids.hospitalId)));
    // Not the patient history of today's desk patients (the registry demo's own earlier lines).
    const todays = new Set(lines.filter((e) => dayIn(e.created, zone) === today).map((e) => e.patientId));
    const history = lines.filter((e) => !todays.has(e.patientId));
    expect(history.length).toBeGreaterThan(50);
    for (const e of history) {
      const reg = registrations.find((x) => x.id === e.registrationId)!;
      expect(reg.createdBy).toBe(s.ids.accounts.registrar);
      expect(reg.created.getTime()).toBeLessThan(e.examTime.getTime());
      expect(dayIn(e.examTime, zone) < today).toBe(true);
      expect([e.examStatus, e.arrivedTime, e.prevExamStatus]).toEqual(['Performed', e.examTime, 'Arrived']);
      expect(e.scheduledTime!.getTime()).toBeLessThanOrEqual(e.examTime.getTime());
      expect(lines.filter((x) => x.registrationId === e.registrationId)).toHaveLength(1);
    }
    // The desk's default view (today's scheduled lines) holds none of them.
    const token = await s.login('registrar');
    const start = new Date(`${today}T00:00:00+08:00`);
    const res = await s.request('POST', `buckets/${s.ids.hospitalId}/registry/query`, { token, body: { filters: [
      { field: 'scheduledTime', operator: 'gte', values: [start.toISOString()] },
      { field: 'scheduledTime', operator: 'lt', values: [new Date(start.getTime() + 86_400_000).toISOString()] },
      { field: 'sourceScope', operator: 'equal', values: ['all'] },
    ], limit: 100 } });
    expect(res.status).toBe(200);
    const shown = new Set((res.body.items as { examId: number }[]).map((row) => row.examId));
    expect(shown.size).toBeGreaterThan(0);
    expect(history.some((e) => shown.has(e.id))).toBe(false);
  });
});
