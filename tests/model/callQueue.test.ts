import { afterAll, describe, expect, it } from 'vitest';
import { createTestModel } from 'xstate/graph';
import type { QueueEntry, QueueType } from '../../contract/calling';
import { QUEUE_ACTIONS } from '../../contract/calling';
import { applyEvent, callQueueMachine, type QueueEvent, type QueueMachineState } from '../../machines/callQueue';
import { insertExam, tokenOf } from '../support/reports';
import { startServer, type TestServer } from '../support/server';

/**
 * Paths of machines/callQueue.ts (createTestModel), each driven against the real server on a fresh queue of the demo
 * hospital: the patient under test is checked in first, then a companion, so call-next picks the patient while it is
 * first in line, `resort` moves it before the companion's number (or to a number nobody has), and `back` puts it at
 * place 1. After every step the entry's status and call count are the machine's; in every state first reached, each
 * event the machine refuses there is refused by the server and changes nothing.
 *
 * The model is abstracted to the status and "was called" (serializeState), so recall — a loop on called that only
 * counts — is walked as its own step from every called state reached, not as an endless chain.
 */
const s: TestServer = await startServer({ exams: 5 });
afterAll(async () => s.close());
const registrar = await tokenOf(s, 'registrar');
const hospital = s.ids.hospitalId;

type Snapshot = ReturnType<typeof callQueueMachine.resolveState>;
const serializeState = (snap: Snapshot) => JSON.stringify({ v: snap.value, called: snap.context.calls > 0 });
const serializeEvent = (e: QueueEvent) => (e.type === 'resort' ? `resort:${e.targetWaiting ? 'waiting' : 'unknown'}` : e.type);
const EVENTS: QueueEvent[] = [
  { type: 'check-in' }, { type: 'call' }, { type: 'call-next' }, { type: 'recall' }, { type: 'pass' }, { type: 'back', position: 1 },
  { type: 'resort', targetWaiting: true }, { type: 'resort', targetWaiting: false }, { type: 'remove' }, { type: 'done' },
];
const model = createTestModel(callQueueMachine, {
  events: EVENTS,
  serializeState: (snap) => serializeState(snap as Snapshot),
  serializeEvent: (e) => serializeEvent(e as QueueEvent),
});
/**
 * Every transition once: the shortest path to each abstract state, then each event the machine takes there (the
 * loops — recall, resort — included).
 */
const shortest = model.getShortestPaths();
const sequences = new Map<string, QueueEvent[]>();
// The model leaves out paths that are the start of another, so every start of every path is one.
const prefixes = shortest.flatMap((path) => {
  const events = path.steps.map((st) => st.event as QueueEvent).filter((e) => !e.type.startsWith('xstate.'));
  return events.map((_, i) => events.slice(0, i)).concat([events]);
});
for (const events of prefixes) {
  let end: { status: QueueMachineState; calls: number } | null = { status: 'absent', calls: 0 };
  for (const e of events) end = end && applyEvent(end, e);
  for (const next of EVENTS) {
    if (!end || !applyEvent(end, next)) continue;
    const all = [...events, next];
    sequences.set(all.map(serializeEvent).join(' → '), all);
  }
}

interface Run {
  type: QueueType;
  examId: number;
  entry: QueueEntry | null;
  companion: QueueEntry | null;
}

async function newRun(): Promise<Run> {
  const res = await s.request('POST', `buckets/${hospital}/queue-types`, { token: registrar, body: { prefix: 'MQ', name: '模型', modality: 'MR', room: '1' } });
  expect(res.status).toBe(200);
  return { type: res.body as QueueType, examId: await insertExam(s, { bucketId: hospital }), entry: null, companion: null };
}

async function checkIn(run: Run, examId: number) {
  return s.request('POST', 'queue-exams/check-in', { token: registrar, body: { examId, queueTypeId: run.type.id } });
}

/** The patient's row as the server has it. */
async function read(run: Run): Promise<QueueEntry> {
  const res = await s.request('POST', `buckets/${hospital}/queue-exams/query`, {
    token: registrar, body: { filters: [{ field: 'queueTypeId', operator: 'equal', values: [run.type.id] }], limit: 100 },
  });
  return (res.body.items as QueueEntry[]).find((e) => e.examId === run.examId)!;
}

/** Sends `event` for the patient the way the desk does; the answer's status and code. */
async function send(run: Run, event: QueueEvent): Promise<{ status: number; code?: string }> {
  const answer = (res: { status: number; body: { code?: string } }) => ({ status: res.status, code: res.body?.code });
  switch (event.type) {
    case 'check-in': {
      const res = await checkIn(run, run.examId);
      if (res.status === 200 && !run.entry) {
        run.entry = res.body as QueueEntry;
        const companion = await checkIn(run, await insertExam(s, { bucketId: hospital }));
        expect(companion.status).toBe(200);
        run.companion = companion.body as QueueEntry;
      }
      return answer(res);
    }
    case 'call-next': return answer(await s.request('POST', `queue-types/${run.type.id}/call-next`, { token: registrar, body: {} }));
    case 'resort': {
      const targetNumber = event.targetWaiting ? run.companion!.queueNo : 'MQ999';
      return answer(await s.request('POST', `queue-exams/${run.entry!.id}/resort`, { token: registrar, body: { targetNumber } }));
    }
    default: {
      const body = event.type === 'back' ? { action: 'return', position: event.position } : { action: event.type };
      return answer(await s.request('POST', `queue-exams/${run.entry!.id}/action`, { token: registrar, body }));
    }
  }
}

/** What the server must answer for an event the machine refuses in `state`. */
function refusal(state: QueueMachineState, event: QueueEvent): { status: number; code: string } | null {
  if (state === 'absent') return null; // nothing to act on before the check-in
  if (event.type === 'resort' && !event.targetWaiting && state === 'waiting') return { status: 400, code: 'UnknownQueueNumber' };
  // Call-next is the queue's, not the patient's: with the patient out of line it calls the companion.
  if (event.type === 'call-next') return null;
  return { status: 409, code: 'InvalidTransition' };
}

describe('the call-queue machine against the API', () => {
  it('has paths through every state and every action', () => {
    const reached = new Set(shortest.flatMap((p) => p.steps.map((st) => String(st.state.value))));
    expect([...reached].sort()).toEqual(['absent', 'called', 'passed', 'removed', 'served', 'waiting']);
    const used = new Set([...sequences.values()].flat().map(serializeEvent));
    expect(QUEUE_ACTIONS.filter((a) => !used.has(a))).toEqual([]);
    expect(used.has('call-next') && used.has('resort:waiting') && used.has('check-in')).toBe(true);
  });

  const seen = new Set<string>();
  for (const [label, events] of sequences) {
    it(label, async () => {
      const run = await newRun();
      // The machine's own answer along the path (the graph's snapshots are abstracted, their counts any path's).
      let moment: { status: QueueMachineState; calls: number } = { status: 'absent', calls: 0 };
      for (const event of events) {
        moment = applyEvent(moment, event)!;
        const res = await send(run, event);
        expect(res.status, `${serializeEvent(event)}: ${JSON.stringify(res)}`).toBe(200);
        const state = moment.status;
        const row = await read(run);
        expect(row).toMatchObject({ status: state, callCount: moment.calls });
        const key = JSON.stringify({ v: state, called: moment.calls > 0 });
        if (seen.has(key)) continue;
        seen.add(key);
        for (const other of EVENTS) {
          if (applyEvent(moment, other)) continue;
          const expected = refusal(state, other);
          if (!expected) continue;
          const res = await send(run, other);
          expect(res, `${serializeEvent(other)} when ${state}`).toEqual(expected);
          expect(await read(run)).toMatchObject({ status: state, callCount: moment.calls, version: row.version });
        }
        // Recall: a loop the simple paths leave out: once more, one call more, still called.
        if (state === 'called' && event.type !== 'recall') {
          moment = applyEvent(moment, { type: 'recall' })!;
          expect(await send(run, { type: 'recall' })).toEqual({ status: 200, code: undefined });
          expect(await read(run)).toMatchObject({ status: 'called', callCount: moment.calls });
        }
      }
    });
  }
});
