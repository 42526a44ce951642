import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestModel } from 'xstate/graph';
import { ERROR_STATUS } from '../../contract/errors';
import * as t from '../../server/db/schema';
import type { ReportOrderDetail } from '../../contract/payments';
import { expertRequestMachine, type ChosenTarget, type ExpertRequestEvent } from '../../machines/expertRequest';
import { progressOf, submitRefusal, type ExpertRequestSnapshot } from '../../machines/expertRequestTransitions';
import { payByCredit } from '../support/money';
import { DIAGNOSIS, FINDING, reportIn, tokenOf } from '../support/reports';
import { examWithImages, expertBucket } from '../support/requests';
import { startServer } from '../support/server';

/**
 * Simple paths through machines/expertRequest.ts (createTestModel), each replayed against the real server:
 * rad1 chooses organisations and agrees on the apply page (the machine's first two states live in the client), submits
 * (report-requests/apply), pays by credit, the expert writes on the copies and the centre's admin approves, rad1
 * withdraws, chief refunds. After every step the request detail's progress and whether it offers `withdraw` must be the
 * machine's; in every choosing/agreed state the submission the machine refuses must be refused by the server with the
 * code of the rule that fails, and the remote rules (once, before writing) likewise.
 */
const s = await startServer({ exams: 5 });
afterAll(async () => s.close());
// The model's approveAll is the centre's admin approving: the demo centre's issue on submit is off here (the journey
// test, tests/api/payments.journey.test.ts, walks it).
await s.db.db.update(t.buckets).set({ reportFinalOnSubmit: false }).where(eq(t.buckets.id, s.ids.expertCentreId));

const second = await expertBucket(s, { free: false, priceFen: 2500 });
// The second expert organisation's people: the expert writes there too, the admin approves.
await s.db.db.insert(t.bucketMembers).values([
  { bucketId: second, accountId: s.ids.accounts.expert, accessLevel: 'contentManager' },
  { bucketId: second, accountId: s.ids.accounts.admin, accessLevel: 'admin' },
]);
const free = await expertBucket(s, { free: true });
const foreign = 2_000_000_000;

/** The choices of the apply page the model walks: one paid organisation, two, paid and free mixed, none, one not offered. */
const CHOICES: Record<string, { bucketIds: number[]; targets: ChosenTarget[]; valid: boolean }> = {
  one: { bucketIds: [s.ids.expertCentreId], targets: [{ bucketId: s.ids.expertCentreId, free: false }], valid: true },
  two: { bucketIds: [s.ids.expertCentreId, second], targets: [{ bucketId: s.ids.expertCentreId, free: false }, { bucketId: second, free: false }], valid: true },
  mixed: { bucketIds: [s.ids.expertCentreId, free], targets: [{ bucketId: s.ids.expertCentreId, free: false }, { bucketId: free, free: true }], valid: true },
  none: { bucketIds: [], targets: [], valid: true },
  foreign: { bucketIds: [foreign], targets: [{ bucketId: foreign, free: false }], valid: false },
};
const choiceOf = (targets: readonly ChosenTarget[], valid: boolean): string =>
  Object.entries(CHOICES).find(([, c]) => c.valid === valid && JSON.stringify(c.targets) === JSON.stringify(targets))?.[0] ?? 'initial';

const EVENTS: ExpertRequestEvent[] = [
  ...Object.values(CHOICES).map((c): ExpertRequestEvent => ({ type: 'choose', targets: c.targets, targetsValid: c.valid })),
  { type: 'agree', agreed: true }, { type: 'submit' }, { type: 'pay' }, { type: 'write' }, { type: 'approveAll' }, { type: 'withdraw' }, { type: 'refund' },
];
const key = (snap: ExpertRequestSnapshot) => JSON.stringify({ v: snap.value, c: choiceOf(snap.context.targets, snap.context.targetsValid), w: snap.context.copiesWritten });
const eventKey = (e: ExpertRequestEvent) => (e.type === 'choose' ? `choose:${choiceOf(e.targets, e.targetsValid)}` : e.type);

const model = createTestModel(expertRequestMachine, {
  events: EVENTS,
  // The page's choice is made once before agreeing (changing it again walks the same rules): every simple path
  // after it stays small, and every transition of the machine is replayed, paid → withdraw included.
  filterEvents: (snap, e) => snap.can(e) && (e.type !== 'choose' || (snap.value === 'choosing' && snap.context.targets.length === 0 && snap.context.targetsValid)),
  serializeState: (snap) => key(snap as ExpertRequestSnapshot),
  serializeEvent: (e) => eventKey(e as ExpertRequestEvent),
});
const paths = model.getSimplePaths();

const token = (role: string) => tokenOf(s, role);
const detailOf = async (id: number): Promise<ReportOrderDetail> => (await s.request('GET', `report-requests/${id}`, { token: await token('rad1') })).body;

/** The expert writes (save, submit) on a copy; returns the report's id and version. */
async function write(copyId: number): Promise<{ id: number; version: number }> {
  const created = await s.request('POST', `exams/${copyId}/reports`, { token: await token('expert') });
  let version = created.body.version as number;
  for (const [action, body] of [['save', { finding: FINDING, diagnosis: DIAGNOSIS }], ['submit', {}]] as const) {
    const res = await s.request('POST', `reports/${created.body.id}/${action}`, { token: await token('expert'), body: { version, ...body } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    version = res.body.version;
  }
  return { id: created.body.id, version };
}

/** The server's side of one event; choosing and agreeing happen on the page (nothing sent). */
async function send(e: ExpertRequestEvent, r: { examId: number; choice: string; orderId: number | null; written: Map<number, { id: number; version: number }> }) {
  switch (e.type) {
    case 'choose': r.choice = choiceOf(e.targets, e.targetsValid); return;
    case 'agree': return;
    case 'submit': {
      const res = await s.request('POST', 'report-requests/apply', { token: await token('rad1'), body: { examId: r.examId, bucketIds: CHOICES[r.choice]!.bucketIds, agreeTerms: true } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      r.orderId = res.body.id;
      return;
    }
    case 'pay': expect((await payByCredit(s, r.orderId!)).status).toBe(200); return;
    case 'write': {
      const copy = (await detailOf(r.orderId!)).targets[0]!.expertExamId!;
      r.written.set(copy, await write(copy));
      return;
    }
    case 'approveAll': {
      for (const target of (await detailOf(r.orderId!)).targets) {
        const report = r.written.get(target.expertExamId!) ?? await write(target.expertExamId!);
        const res = await s.request('POST', `reports/${report.id}/approve`, { token: await token('admin'), body: { version: report.version } });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
      }
      return;
    }
    case 'withdraw': {
      const res = await s.request('DELETE', `report-requests/${r.orderId}`, { token: await token('rad1') });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return;
    }
    case 'refund': {
      const d = await detailOf(r.orderId!);
      const res = await s.request('POST', `payments/${r.orderId}/refund`, { token: await token('chief'), body: { reason: '模型测试', version: d.version } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return;
    }
  }
}

describe('the expert request machine against the API', () => {
  it('reaches every state', () => {
    const states = new Set(paths.flatMap((p) => p.steps.map((st) => (JSON.parse(key(st.state as ExpertRequestSnapshot)) as { v: string }).v)));
    expect([...states].sort()).toEqual(['agreed', 'choosing', 'paid', 'refunded', 'reported', 'reporting', 'submitted', 'withdrawn']);
  });

  for (const path of paths) {
    const label = path.steps.map((st) => eventKey(st.event as ExpertRequestEvent)).filter((e) => e !== 'xstate.init').join(' → ');
    it(label || '(start)', async () => {
      const r = { examId: await examWithImages(s), choice: 'initial', orderId: null as number | null, written: new Map<number, { id: number; version: number }>() };
      for (const step of path.steps) {
        const event = step.event as ExpertRequestEvent;
        if (EVENTS.some((e) => e.type === event.type)) await send(event, r);
        const snap = step.state as ExpertRequestSnapshot;
        if (r.orderId === null) {
          // Still on the page: what the server says to a submission now is what the machine says.
          const refusal = submitRefusal({ ...snap.context, termsAgreed: snap.value === 'agreed' });
          if (refusal) {
            const res = await s.request('POST', 'report-requests/apply', { token: await token('rad1'), body: { examId: r.examId, bucketIds: CHOICES[r.choice]?.bucketIds ?? [], agreeTerms: snap.value === 'agreed' } });
            expect({ status: res.status, code: res.body.code }).toEqual({ status: ERROR_STATUS[refusal], code: refusal });
          }
          continue;
        }
        const d = await detailOf(r.orderId);
        expect({ event: event.type, progress: d.progress, withdraw: d.transitions.includes('withdraw') })
          .toEqual({ event: event.type, progress: progressOf(snap.value as never), withdraw: snap.can({ type: 'withdraw' }) });
      }
    });
  }

  it('a remote report: once per exam, and only before writing has begun (the same rules, refused by the server)', async () => {
    const examId = await examWithImages(s);
    const send1 = async (id: number) => s.request('POST', 'report-requests/apply-remote-report', { token: await token('rad1'), body: { examId: id, agreeTerms: true } });
    const target = [{ bucketId: s.ids.expertCentreId, free: false }];
    expect(submitRefusal({ type: 'remote', targets: target, targetsValid: true, termsAgreed: true, examWritingBegun: false, remoteRequested: false, copiesWritten: false })).toBeNull();
    expect((await send1(examId)).status).toBe(201);
    const again = submitRefusal({ type: 'remote', targets: target, targetsValid: true, termsAgreed: true, examWritingBegun: false, remoteRequested: true, copiesWritten: false });
    expect((await send1(examId)).body.code).toBe(again);
    const written = await reportIn(s, 'partial');
    const begun = submitRefusal({ type: 'remote', targets: target, targetsValid: true, termsAgreed: true, examWritingBegun: true, remoteRequested: false, copiesWritten: false });
    const res = await send1(written.examId);
    expect({ status: res.status, code: res.body.code }).toEqual({ status: ERROR_STATUS[begun!], code: begun });
  });
});
