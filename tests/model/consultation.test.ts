import { afterAll, describe, expect, it } from 'vitest';
import { createTestModel } from 'xstate/graph';
import { ERROR_STATUS } from '../../contract/errors';
import type { ConsultationAction, ConsultationDetail } from '../../contract/consultations';
import { consultationMachine, type ConsultationActor, type ConsultationEvent } from '../../machines/consultation';
import {
  eventFor, refusalFor, statusNumber, transitionsFor, type ConsultationSnapshot, type ConsultationState,
} from '../../machines/consultationTransitions';
import { insertExam, tokenOf } from '../support/reports';
import { startServer } from '../support/server';

/**
 * Paths of machines/consultation.ts (createTestModel), each replayed against the real server on a fresh consultation
 * rad1 (the hospital, applicant side) asks of the expert centre (the expert, target side). After every step, for
 * each of them, the server's status, payment, rating and `transitions` must be the machine's; the first time a state
 * is reached, every action of the area's row routes outside `transitions` must be refused with the machine's reason
 * (403, 409) and change nothing. Registrar reads (a hospital member without consultation rights) and may do nothing
 * but print.
 */
const s = await startServer({ exams: 5 });
afterAll(async () => s.close());

type Role = 'rad1' | 'expert' | 'registrar';
const ROLES: Role[] = ['rad1', 'expert', 'registrar'];

async function actorOf(role: Role): Promise<ConsultationActor> {
  const res = await s.request('GET', 'accounts/me/permissions', { token: await tokenOf(s, role) });
  const at = (bucketId: number): string[] => res.body[String(bucketId)]?.actions ?? [];
  return { id: s.ids.accounts[role], reader: true, sides: { applicant: at(s.ids.hospitalId), target: at(s.ids.expertCentreId), joined: [] } };
}
const actors = {} as Record<Role, ConsultationActor>;
for (const role of ROLES) actors[role] = await actorOf(role);
const roleOf = (id: number): Role => ROLES.find((r) => actors[r].id === id)!;

/** The status changes and the payment (set to paid once): the model's moves. Parts and remarks keep the state. */
const MOVES: ConsultationAction[] = ['schedule', 'writeResult', 'approve', 'cancel', 'rate', 'setPayment'];
const EVENTS: ConsultationEvent[] = ROLES.flatMap((role) => MOVES.map((a) => eventFor(a, actors[role], { paymentStatus: 1 })));
const serializeState = (snap: ConsultationSnapshot) => JSON.stringify({ v: snap.value, rated: snap.context.rated, pay: snap.context.paymentStatus });
const serializeEvent = (e: ConsultationEvent) => `${e.type}:${roleOf(e.actor.id)}`;

const model = createTestModel(consultationMachine, {
  events: EVENTS,
  filterEvents: (snap, e) => 'actor' in e && snap.can(e),
  serializeState: (snap) => serializeState(snap as ConsultationSnapshot),
  serializeEvent: (e) => serializeEvent(e as ConsultationEvent),
});
const paths = model.getSimplePaths();

/** The row routes of the area (helper A's), as a role sends each action; parts (cases, exams, links) are tested by their own. */
const ROW_ACTIONS: ConsultationAction[] = ['update', 'schedule', 'suggest', 'writeResult', 'approve', 'cancel', 'rate', 'setPayment', 'editMembers'];

function send(role: Role, id: number, action: ConsultationAction, version: number) {
  const token = tokenOf(s, role);
  const call = async (method: string, path: string, body: unknown) => s.request(method, `consultations/${id}${path}`, { token: await token, body });
  const soon = new Date(s.clock.now().getTime() + 86_400_000).toISOString();
  switch (action) {
    case 'update': return call('PATCH', '', { version, note: '模型测试' });
    case 'schedule': return call('POST', '/update-status', { version, status: 1, scheduledTime: soon });
    case 'approve': return call('POST', '/update-status', { version, status: 3 });
    case 'writeResult': return call('PUT', '/results', { version, conclusion: '<p>模型测试结论</p>' });
    case 'cancel': return call('POST', '/cancel', { version, reason: '模型测试' });
    case 'rate': return call('POST', '/rating', { version, rating: 4 });
    case 'setPayment': return call('POST', '/payment-status', { version, paymentStatus: 1 });
    case 'suggest': return call('POST', '/suggestion', { content: '<p>模型测试意见</p>' });
    case 'editMembers': return call('PUT', '/members', { members: [{ accountId: actors.rad1.id }, { accountId: actors.expert.id, role: 'expert' }] });
    default: throw new Error(`not sent by the model: ${action}`);
  }
}

async function fresh(): Promise<ConsultationDetail> {
  const examId = await insertExam(s);
  const res = await s.request('POST', 'consultations', { token: await tokenOf(s, 'rad1'), body: {
    examId, targetBucketId: s.ids.expertCentreId, reason: '模型测试', members: [{ accountId: actors.expert.id, role: 'expert' }],
  } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as ConsultationDetail;
}

const stateOf = (snap: ConsultationSnapshot): ConsultationState => ({ ...snap.context, status: snap.value as ConsultationState['status'] });

/** Each role sees what the machine says; returns the current version. */
async function agrees(id: number, expected: ConsultationState): Promise<number> {
  let version = 0;
  for (const role of ROLES) {
    const res = await s.request('GET', `consultations/${id}`, { token: await tokenOf(s, role) });
    expect(res.status).toBe(200);
    const d = res.body as ConsultationDetail;
    expect({ role, status: d.status, pay: d.paymentStatus, rated: d.rating !== null, transitions: d.transitions }).toEqual({
      role, status: statusNumber(expected.status), pay: expected.paymentStatus, rated: expected.rated, transitions: transitionsFor(expected, actors[role]),
    });
    version = d.version;
  }
  return version;
}

const refusalsChecked = new Set<string>();

async function refusesTheRest(id: number, expected: ConsultationState, version: number) {
  for (const role of ROLES) {
    const allowed = transitionsFor(expected, actors[role]);
    for (const action of ROW_ACTIONS.filter((a) => !allowed.includes(a))) {
      const res = await send(role, id, action, version);
      const reason = refusalFor(expected, actors[role], action);
      expect({ role, action, status: res.status, code: res.body.code }).toEqual({ role, action, status: ERROR_STATUS[reason], code: reason });
      refusalsChecked.add(`${expected.status}:${role}:${action}`);
    }
  }
  // Nothing changed.
  expect(await agrees(id, expected)).toBe(version);
}

describe('the consultation machine against the API', () => {
  it('has paths through every state, rated and paid included', () => {
    const reached = new Set(paths.flatMap((p) => p.steps.map((st) => serializeState(st.state as ConsultationSnapshot))));
    const statuses = new Set([...reached].map((k) => (JSON.parse(k) as { v: string }).v));
    expect([...statuses].sort()).toEqual(['canceled', 'completed', 'discussed', 'pending', 'scheduled']);
    expect(reached).toContain(JSON.stringify({ v: 'completed', rated: true, pay: 1 }));
    expect(paths.length).toBeGreaterThan(5);
    expect(paths.length).toBeLessThan(200);
  });

  const seen = new Set<string>();
  for (const path of paths) {
    const label = path.steps.map((st) => st.event).filter((e) => 'actor' in e).map((e) => serializeEvent(e as ConsultationEvent)).join(' → ');
    it(label || '(start)', async () => {
      const c = await fresh();
      let version = c.version;
      for (const step of path.steps) {
        const event = step.event as ConsultationEvent;
        if ('actor' in event) {
          const res = await send(roleOf(event.actor.id), c.id, event.type as ConsultationAction, version);
          expect(res.status, `${serializeEvent(event)}: ${JSON.stringify(res.body)}`).toBe(200);
        }
        const expected = stateOf(step.state as ConsultationSnapshot);
        version = await agrees(c.id, expected);
        const key = serializeState(step.state as ConsultationSnapshot);
        if (!seen.has(key)) {
          seen.add(key);
          await refusesTheRest(c.id, expected, version);
        }
      }
    });
  }

  it('checked refusals in every status', () => {
    const statuses = new Set([...refusalsChecked].map((k) => k.split(':')[0]));
    expect([...statuses].sort()).toEqual(['canceled', 'completed', 'discussed', 'pending', 'scheduled']);
  });
});
