import { afterAll, describe, expect, it } from 'vitest';
import { createTestModel } from 'xstate/graph';
import type { Registration, RegistryAction, RegistryPage, RegistryRow } from '../../contract/registry';
import { REGISTRY_ACTIONS } from '../../contract/registry';
import { allowedActions, registrationMachine, type RegistrationContext, type RegistrationEvent, type RegistrationSnapshot } from '../../machines/registration';
import * as t from '../../server/db/schema';
import { tokenOf } from '../support/reports';
import { startServer } from '../support/server';

/**
 * Paths of machines/registration.ts (createTestModel), each driven against the real server on a fresh registration
 * of the demo hospital: after every step the line's status, arrival and `transitions` must be the machine's, and
 * every action the machine refuses there must be refused by the server (409 InvalidTransition) and change nothing.
 * The line's step needs images (the step read during the exam is the API test's); editing is PUT registry's test.
 */
const s = await startServer({ exams: 5 });
afterAll(async () => s.close());
const registrar = await tokenOf(s, 'registrar');
const hospital = s.ids.hospitalId;

const START: RegistrationContext = { status: 'Registered', arrivedTime: null, previous: null, cancelReason: null };
const EVENTS: RegistrationEvent[] = [
  { type: 'check-in', now: 1, needsImages: true }, { type: 'perform', now: 2 }, { type: 'match', now: 3 },
  { type: 'revoke' }, { type: 'cancel', reason: '模型测试' }, { type: 'delete' },
];
const serialize = (snap: RegistrationSnapshot) => JSON.stringify({ v: snap.value, prev: snap.context.previous?.status ?? null, arrived: snap.context.arrivedTime !== null });

const model = createTestModel(registrationMachine, {
  input: START,
  events: EVENTS,
  filterEvents: (snap, e) => EVENTS.some((x) => x.type === e.type) && snap.can(e),
  serializeState: (snap) => serialize(snap as RegistrationSnapshot),
  serializeEvent: (e) => e.type,
});
const paths = model.getSimplePaths();

interface Line { examId: number; completedId: number; version: number }

async function freshLine(): Promise<Line> {
  const res = await s.request('POST', 'registry', { token: registrar, body: {
    bucketId: hospital, patient: { patientName: '模型', patientGender: 'M', patientSource: 'E' },
    // Now, not in an hour: from 23:00 in the organisation's zone an hour later is tomorrow, a Scheduled line, and the
    // machine starts at Registered (today's line). CI met it at 23:15 in Shanghai.
    exams: [{ modality: 'CT', scheduledTime: s.clock.now().toISOString() }],
  } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const reg = res.body as Registration;
  const line = reg.lines[0]!;
  // The exam the modality sent, for `match`.
  const [done] = await s.db.db.insert(t.exams).values({
    bucketId: hospital, patientName: '模型', patientId: line.patientId, modality: 'CT', examTime: s.clock.now(), hasImage: true, created: s.clock.now(),
  }).returning();
  return { examId: line.examId, completedId: done!.id, version: reg.version };
}

function send(line: Line, type: RegistryAction) {
  const body = { version: line.version };
  switch (type) {
    case 'check-in': return s.request('POST', 'exam/status', { token: registrar, body: { examId: line.examId, status: 'Arrived', version: line.version } });
    case 'perform': return s.request('POST', 'exam/status', { token: registrar, body: { examId: line.examId, status: 'Performed', version: line.version } });
    case 'match': return s.request('POST', `exams/${line.completedId}/match/${line.examId}`, { token: registrar, body });
    case 'revoke': return s.request('POST', `scheduled-exams/${line.examId}/revoke`, { token: registrar, body });
    case 'cancel': return s.request('POST', `scheduled-exams/${line.examId}/cancel`, { token: registrar, body: { ...body, reason: '模型测试' } });
    case 'delete': return s.request('DELETE', `scheduled-exams/${line.examId}?version=${line.version}`, { token: registrar });
    default: throw new Error(`not sent by the model: ${type}`);
  }
}

async function rowOf(line: Line): Promise<RegistryRow | null> {
  const res = await s.request('POST', `buckets/${hospital}/registry/query`, { token: registrar, body: {
    filters: [{ field: 'examId', operator: 'equal', values: [line.examId] }, { field: 'sourceScope', operator: 'equal', values: ['all'] }],
  } });
  expect(res.status).toBe(200);
  return (res.body as RegistryPage).items[0] ?? null;
}

/** The server's line against the machine's state; the refused actions refused, with nothing changed. */
async function agrees(line: Line, snap: RegistrationSnapshot, checkRefusals: boolean) {
  const row = await rowOf(line);
  if (snap.value === 'deleted') {
    expect(row).toBeNull();
    return;
  }
  expect(row).not.toBeNull();
  expect(row!.status).toBe(snap.value);
  expect(row!.arrivedTime !== null).toBe(snap.context.arrivedTime !== null);
  expect([...row!.transitions].sort()).toEqual([...allowedActions(snap.context)].sort());
  line.version = row!.version;
  if (!checkRefusals) return;
  const refused = REGISTRY_ACTIONS.filter((a) => a !== 'edit' && !row!.transitions.includes(a));
  for (const action of refused) {
    const res = await send(line, action);
    expect([409, 400], `${action} in ${String(snap.value)}: ${JSON.stringify(res.body)}`).toContain(res.status);
    if (res.status === 409) expect(res.body.code).toBe('InvalidTransition');
    const after = await rowOf(line);
    expect(after).toEqual(row);
  }
}

describe('the registration machine against the API', () => {
  it('has paths through every state', () => {
    const reached = new Set(paths.flatMap((p) => p.steps.map((st) => String((st.state as RegistrationSnapshot).value))));
    expect([...reached].sort()).toEqual(['Arrived', 'Cancelled', 'Performed', 'Registered', 'deleted']);
    expect(paths.length).toBeLessThan(200);
  });

  const seen = new Set<string>();
  for (const path of paths) {
    const label = path.steps.map((st) => st.event.type).filter((e) => !e.startsWith('xstate.')).join(' → ');
    it(label || '(start)', async () => {
      const line = await freshLine();
      for (const step of path.steps) {
        const snap = step.state as RegistrationSnapshot;
        if (!step.event.type.startsWith('xstate.')) {
          const res = await send(line, step.event.type as RegistryAction);
          expect(res.status, `${step.event.type}: ${JSON.stringify(res.body)}`).toBe(200);
        }
        const key = serialize(snap);
        await agrees(line, snap, !seen.has(key));
        seen.add(key);
      }
    });
  }
});
