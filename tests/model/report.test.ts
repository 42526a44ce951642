import { afterAll, describe, expect, it } from 'vitest';
import { getInitialSnapshot } from 'xstate';
import { createTestModel } from 'xstate/graph';
import type { StatePath } from 'xstate/graph';
import { REPORT_ACTIONS, type ReportAction } from '../../contract/reports';
import { reportMachine, type ReportActor, type ReportEvent } from '../../machines/report';
import {
  applyEvent, eventFor, presentedStatus, refusalFor, transitionsFor, type ReportSnapshot, type ReportState,
} from '../../machines/reportTransitions';
import { ERROR_STATUS } from '../../contract/errors';
import { insertExam, tokenOf } from '../support/reports';
import { startServer } from '../support/server';

/**
 * Paths generated from machines/report.ts with createTestModel, each driven against the real server: rad1
 * writes, chief approves (and assigns, recalls, force-unlocks), expert belongs to another organisation. After
 * every step the server's status and `transitions` must be the machine's, for each of them; the first time a
 * state is reached, every action outside `transitions` must be refused with the machine's reason and change
 * nothing; expert gets 404 throughout.
 *
 * The model is abstracted (serializeState) to what the rules read: the status and lock, who holds the lock,
 * who wrote the report, whether it is assigned, whether synced content awaits confirmation. The paths are the
 * shortest path to each abstract state plus one more transition, so every state and every transition of the
 * abstract graph is executed.
 */
const s = await startServer({ exams: 5 });
afterAll(async () => {
  printCoverage();
  await s.close();
});

type Role = 'rad1' | 'chief' | 'expert';
const ROLES: Role[] = ['rad1', 'chief', 'expert'];

async function actionsOf(role: Role): Promise<string[]> {
  const res = await s.request('GET', 'accounts/me/permissions', { token: await tokenOf(s, role) });
  return res.body[String(s.ids.hospitalId)]?.actions ?? [];
}
const actors = {} as Record<Role, ReportActor>;
for (const role of ROLES) actors[role] = { id: s.ids.accounts[role], actions: await actionsOf(role) };
const roleOf = (id: number | null): Role | null => (id === null ? null : (ROLES.find((r) => actors[r].id === id) ?? null));

/** Chief is the approver here: he never starts writing a report (rad1 does), and work is assigned to rad1. */
const STARTS_WRITING = ['save', 'submit', 'lock', 'sync'];
const EVENTS: ReportEvent[] = ROLES.flatMap((role) => REPORT_ACTIONS.map((a) => eventFor(a, actors[role], { accountId: actors.rad1.id, reason: '模型测试理由' })));

const serializeState = (snap: ReportSnapshot) => JSON.stringify({
  v: snap.value, lock: roleOf(snap.context.lockedById), creator: roleOf(snap.context.creatorId),
  assigned: snap.context.assigneeId !== null, syncPending: snap.context.syncPending,
});
const serializeEvent = (e: ReportEvent) => `${e.type}:${'actor' in e ? roleOf(e.actor.id) : ''}`;

const model = createTestModel(reportMachine, {
  events: EVENTS,
  // Only the actions people send: the model also offers bare `{ type }` events, among them the machine's internal lock.* ones.
  filterEvents: (snap, e) => 'actor' in e && snap.can(e) && !(e.actor.id === actors.chief.id && snap.context.creatorId === null && STARTS_WRITING.includes(e.type)),
  serializeState: (snap) => serializeState(snap as ReportSnapshot),
  serializeEvent: (e) => serializeEvent(e as ReportEvent),
});
type Adjacency = Record<string, { state: ReportSnapshot; transitions: Record<string, { event: ReportEvent; state: ReportSnapshot }> }>;
const adjacency = model.getAdjacencyMap() as unknown as Adjacency;
const allStates = Object.keys(adjacency);
const INITIAL_KEY = serializeState(getInitialSnapshot(reportMachine, {}) as ReportSnapshot);
const allTransitions = Object.entries(adjacency).flatMap(([from, v]) => Object.keys(v.transitions).map((e) => `${from} --${e}`));

/** Edge-covering paths: the shortest path to each state, plus each transition out of it; prefixes of longer paths dropped. */
function edgePaths(): StatePath<ReportSnapshot, ReportEvent>[] {
  const shortest = new Map(model.getShortestPaths({ allowDuplicatePaths: true }).map((p) => [
    serializeState(p.state as ReportSnapshot),
    // The first step is the machine's own start (xstate.init), not an action.
    p.steps.map((st) => st.event as ReportEvent).filter((e) => 'actor' in e),
  ]));
  const sequences = Object.entries(adjacency).flatMap(([key, v]) =>
    Object.values(v.transitions).map((t) => [...(shortest.get(key) ?? []), t.event]));
  const label = (es: ReportEvent[]) => es.map(serializeEvent).join(' → ');
  const labels = sequences.map(label);
  const kept = sequences.filter((_, i) => !labels.some((other, j) => j !== i && other.startsWith(`${labels[i]} → `)));
  return kept.map((events) => {
    let key = INITIAL_KEY;
    const initial = adjacency[key]!.state;
    const steps = events.map((event) => {
      const next = adjacency[key]!.transitions[serializeEvent(event)]!.state;
      key = serializeState(next);
      return { event, state: next };
    });
    return { state: steps.at(-1)?.state ?? initial, steps, weight: steps.length };
  });
}

const covered = { states: new Set<string>(), transitions: new Set<string>(), refusalsChecked: 0, requests: 0 };
const machineStart: ReportState = {
  status: 'none', deleted: false, creatorId: null, assigneeId: null, lockedById: null, allowAdvisorEdit: false,
  syncPending: false, syncStopped: false, mutable: true, hasImage: true,
};
const stateKey = (st: ReportState) => serializeState(snapshotLike(st));
function snapshotLike(st: ReportState): ReportSnapshot {
  // The same key the model uses, from a stored state.
  const value = st.deleted ? 'deleted' : { listed: { status: st.status, lock: st.lockedById === null ? 'unlocked' : 'locked' } };
  return { value, context: { ...st, deletedFrom: null } } as unknown as ReportSnapshot;
}

function bodyFor(event: ReportEvent, version: number, step: number): Record<string, unknown> {
  const body: Record<string, unknown> = { version };
  if (['save', 'submit', 'approve', 'sync'].includes(event.type)) body.finding = `<p>第${step}步：双肺纹理清晰。</p>`;
  if (event.type === 'submit') body.diagnosis = '<p>未见明显异常。</p>';
  if ('reason' in event && event.reason) body.reason = event.reason;
  if (event.type === 'assign') body.accountId = event.accountId;
  return body;
}

/** The real report as one role sees it must be what the machine says for that role. */
async function expectSeenAsMachineSays(reportId: number, expected: ReportState, version: number) {
  for (const role of ['rad1', 'chief'] as const) {
    const res = await s.request('GET', `reports/${reportId}/detail`, { token: await tokenOf(s, role) });
    covered.requests += 1;
    expect(res.status).toBe(200);
    expect({ role, status: res.body.status, deleted: res.body.deleted, transitions: res.body.transitions, version: res.body.version })
      .toEqual({ role, status: presentedStatus(expected), deleted: expected.deleted, transitions: transitionsFor(expected, actors[role]), version });
  }
  const foreign = await s.request('GET', `reports/${reportId}/detail`, { token: await tokenOf(s, 'expert') });
  covered.requests += 1;
  expect(foreign.status).toBe(404);
}

/** First visit of a state: everything outside `transitions` is refused with the machine's reason, and nothing changes. */
async function expectRefusals(reportId: number, expected: ReportState, version: number) {
  for (const role of ['rad1', 'chief'] as const) {
    const allowed = transitionsFor(expected, actors[role]);
    for (const action of REPORT_ACTIONS.filter((a) => !allowed.includes(a))) {
      const res = await s.request('POST', `reports/${reportId}/${action}`, {
        token: await tokenOf(s, role), body: bodyFor(eventFor(action, actors[role], { accountId: actors.rad1.id, reason: '理由' }), version, 0),
      });
      covered.requests += 1;
      covered.refusalsChecked += 1;
      const reason = refusalFor(expected, actors[role], action as ReportAction);
      expect({ role, action, status: res.status, code: res.body.code }).toEqual({ role, action, status: ERROR_STATUS[reason], code: reason });
    }
  }
  const expert = await s.request('POST', `reports/${reportId}/save`, { token: await tokenOf(s, 'expert'), body: { version, finding: '<p>x</p>' } });
  expect(expert.status).toBe(404);
  await expectSeenAsMachineSays(reportId, expected, version);
}

const paths = edgePaths();

describe('report lifecycle: machine paths against the real API', () => {
  it.each(paths.map((p) => [p.steps.map((st) => serializeEvent(st.event)).join(' → '), p] as const))('%s', async (_label, path) => {
    const examId = await insertExam(s);
    const created = await s.request('POST', `exams/${examId}/reports`, { token: await tokenOf(s, 'rad1') });
    expect(created.status).toBe(201);
    const reportId: number = created.body.id;
    let version: number = created.body.version;
    let expected = machineStart;
    let step = 0;
    if (!covered.states.has(stateKey(expected))) {
      covered.states.add(stateKey(expected));
      await expectRefusals(reportId, expected, version);
    }

    const execute = async ({ event }: { event: ReportEvent }) => {
      step += 1;
      const role = roleOf('actor' in event ? event.actor.id : null)!;
      const from = stateKey(expected);
      const next = applyEvent(expected, event);
      expect(next, `${serializeEvent(event)} must be allowed by the machine`).not.toBeNull();
      const res = await s.request('POST', `reports/${reportId}/${event.type}`, { token: await tokenOf(s, role), body: bodyFor(event, version, step) });
      covered.requests += 1;
      expect({ action: event.type, role, status: res.status, code: res.body?.code }).toEqual({ action: event.type, role, status: 200, code: undefined });
      expected = next!;
      expect(res.body.version).toBe(version + 1);
      version = res.body.version;
      expect({ status: res.body.status, transitions: res.body.transitions })
        .toEqual({ status: presentedStatus(expected), transitions: transitionsFor(expected, actors[role]) });
      covered.transitions.add(`${from} --${serializeEvent(event)}`);
      await expectSeenAsMachineSays(reportId, expected, version);
      const key = stateKey(expected);
      if (!covered.states.has(key)) {
        covered.states.add(key);
        await expectRefusals(reportId, expected, version);
      }
    };
    await model.testPath(path, { events: Object.fromEntries(REPORT_ACTIONS.map((a) => [a, execute])) });
    expect(stateKey(expected)).toBe(serializeState(path.state));
  });
});

function printCoverage() {
  const values = new Set(allStates.map((k) => JSON.stringify((JSON.parse(k) as { v: unknown }).v)));
  const coveredValues = new Set([...covered.states].map((k) => JSON.stringify((JSON.parse(k) as { v: unknown }).v)));
  const byStatus = new Map<string, number>();
  for (const k of covered.states) {
    const v = (JSON.parse(k) as { v: unknown }).v;
    const label = v === 'deleted' ? 'deleted' : (() => { const l = (v as { listed: { status: string; lock: string } }).listed; return l.lock === 'locked' ? `${l.status}+locked` : l.status; })();
    byStatus.set(label, (byStatus.get(label) ?? 0) + 1);
  }
  console.log([
    'report model coverage',
    `  status/lock values: ${coveredValues.size}/${values.size} (${[...byStatus].map(([k, n]) => `${k}×${n}`).join(', ')})`,
    `  abstract states:    ${covered.states.size}/${allStates.length}`,
    `  transitions:        ${covered.transitions.size}/${allTransitions.length} (over ${paths.length} paths)`,
    `  refusals checked:   ${covered.refusalsChecked} (every action outside transitions, rad1 and chief, each state once)`,
    `  requests:           ${covered.requests}`,
    ...(covered.transitions.size < allTransitions.length ? [`  not covered: ${allTransitions.filter((t) => !covered.transitions.has(t)).join('\n    ')}`] : []),
  ].join('\n'));
}
