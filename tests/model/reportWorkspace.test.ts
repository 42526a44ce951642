import { afterAll, describe, expect, it } from 'vitest';
import { createActor, type AnyMachineSnapshot, type SnapshotFrom } from 'xstate';
import { createTestModel } from 'xstate/graph';
import type { ReportAction, ReportView } from '../../contract/reports';
import { currentFields, reportWorkspaceMachine, type CallFailure, type WorkspaceEvent } from '../../machines/reportWorkspace';
import { createDraftStore, type DraftStorage } from '../../src/features/report/model/draftStore';
import { fieldsOf, sameFields } from '../../machines/reportModel/fields';
import { reportView } from '../unit/reportWorkspace.fixtures';

/**
 * Paths generated from machines/reportWorkspace.ts with createTestModel, each driven against a running actor whose
 * effects are a recording environment with a real draft store (over a Map): calls are recorded and answered by the
 * path's next answer event, only when the environment really asked. After every step the actor must be where the
 * model is, and the rules that must hold in that state must hold: the words typed are always in the local draft
 * (a crash or an expired token loses nothing), one call at a time, a conflict offers to reload after asking for the
 * report's status again, and so on.
 *
 * The model is abstracted (serializeState) to the state, whether the report is editable, read-only or deleted,
 * whether unsaved text exists and whether the lock was asked for; the paths are the shortest path to each abstract
 * state, so every state is reached, and every transition of the graph is printed as covered.
 */

const USER = 2;
type Snap = SnapshotFrom<typeof reportWorkspaceMachine>;

// The report as the server shows it to rad1: everything the workspace can offer at once, so every dialog is reachable.
const writable = reportView({ transitions: ['save', 'submit', 'lock', 'reject', 'print', 'assign', 'reset', 'delete', 'force-unlock'] });
const readOnly = reportView({ status: 'final', lifecycleStatus: 'final', transitions: ['print', 'assign'] });
const draftFields = { ...fieldsOf(writable), finding: '<p>草稿里的所见。</p>' };
const storedDraft = { v: 1 as const, userId: USER, reportId: writable.id, baseVersion: writable.version, baseSavedTime: writable.savedTime, updatedAt: 1, fields: draftFields };

const failure = (code: string | null, extra: Partial<CallFailure> = {}): CallFailure => ({ code, sessionEnding: false, error: new Error(code ?? 'offline'), ...extra });
const FAILURES: CallFailure[] = [
  failure('TokenExpiredError', { sessionEnding: true }),
  failure('VersionConflict'),
  failure('InvalidTransition'),
  failure('ReportEmpty'),
  failure('JointExamsPending', { details: { exams: [{ id: 71, accessionNumber: 'A71' }] } }),
  failure(null),
];

/** The server's answer to a call, as the real one changes the report. */
function answerTo(report: ReportView, call: ReportAction, body: Record<string, unknown>): ReportView {
  const next = { ...report, version: report.version + 1 };
  switch (call) {
    case 'save': return { ...next, ...body, savedTime: '2026-11-20T03:00:00.000Z' } as ReportView;
    case 'submit': return { ...next, ...body, status: 'final', lifecycleStatus: 'final', transitions: ['print'], lockedBy: null } as ReportView;
    case 'reject': return { ...next, status: 'partial', lifecycleStatus: 'partial', transitions: ['print'], rejectReason: String(body.reason ?? '') };
    case 'assign': return { ...next, assignee: { id: 3, name: '王芳' } };
    case 'reset': return { ...next, finding: '', diagnosis: '', savedTime: null };
    case 'delete': return { ...next, deleted: true, lifecycleStatus: 'partial', transitions: ['recovery'] };
    case 'force-unlock': return { ...next, status: 'partial', lockedBy: null, locker: null };
    case 'lock': return { ...next, status: 'locked', lockedBy: USER, locker: { id: USER, name: '李明' } };
    default: return next;
  }
}

/** The events a path may take from a state: the user's, and the answers to the calls the machine made. */
function eventsFor(snap: Snap): WorkspaceEvent[] {
  const c = snap.context;
  const user: WorkspaceEvent[] = [
    { type: 'LOADED', view: writable, offer: { kind: 'none' } },
    { type: 'LOADED', view: writable, offer: { kind: 'newer', draft: storedDraft } },
    { type: 'LOADED', view: writable, offer: { kind: 'same' } },
    { type: 'LOADED', view: readOnly, offer: { kind: 'none' } },
    { type: 'LOAD_FAILED', error: new Error('offline') },
    { type: 'RELOAD' },
    { type: 'EDITED', field: 'finding', html: '<p>双肺纹理增多。</p>' },
    { type: 'EDITED', field: 'finding', html: c.saved?.finding ?? '' },
    { type: 'SIDE_CHANGED', key: 'bodypartCount', value: 0 },
    { type: 'RESTORE_DRAFT' },
    { type: 'DISCARD_DRAFT' },
    { type: 'RUN', action: 'save' },
    { type: 'RUN', action: 'submit' },
    { type: 'RUN', action: 'reject' },
    { type: 'RUN', action: 'print' },
    { type: 'REASON_GIVEN', reason: '描述不完整' },
    { type: 'REASON_CANCELLED' },
    { type: 'JOINT_DECIDED', decision: { confirm: [71], discard: [] } },
    { type: 'JOINT_CANCELLED' },
    { type: 'MANAGE', action: 'assign' },
    { type: 'MANAGE', action: 'reset' },
    { type: 'MANAGE', action: 'forceUnlock' },
    { type: 'ASSIGN_TO', account: { id: 3, username: 'rad2', name: '王芳' } as never },
    { type: 'MANAGE_CONFIRMED' },
    { type: 'MANAGE_CANCELLED' },
    { type: 'DISMISS_NOTICE' },
    { type: 'SAVE_BEFORE_LEAVING' },
  ];
  const answers: WorkspaceEvent[] = [];
  if (c.pending && c.report) {
    answers.push({ type: 'ACTION_DONE', answer: answerTo(c.report, c.pending.call, c.pending.body as Record<string, unknown>) });
    for (const f of FAILURES) answers.push({ type: 'ACTION_FAILED', failure: f });
  }
  if (c.lockAsked && c.report && c.report.lockedBy !== USER) {
    answers.push({ type: 'LOCK_TAKEN', answer: answerTo(c.report, 'lock', {}) }, { type: 'LOCK_FAILED', failure: failure('ReportLocked') });
  }
  const all = [...user, ...answers];
  all.forEach((e) => ours.add(e));
  return all;
}
/** The graph also offers every event type bare; only the events above, with their payloads, are walked. */
const ours = new WeakSet<object>();

const kindOf = (r: ReportView | null) => (!r ? 'none' : r.deleted ? 'deleted' : r.transitions.includes('save') ? 'editable' : 'readOnly');
function serializeState(snap: AnyMachineSnapshot): string {
  const c = (snap as Snap).context;
  return `${JSON.stringify(snap.value)} [${kindOf(c.report)}${c.dirty ? ',dirty' : ''}${c.lockAsked ? ',lockAsked' : ''}${c.pending ? `,calling:${c.pending.call}` : ''}]`;
}
const serializeEvent = (e: { type: string }) => {
  const ev = e as WorkspaceEvent;
  if (!ours.has(e)) return `${e.type}(bare)`;
  if (ev.type === 'LOADED') return `LOADED(${kindOf(ev.view)},${ev.offer.kind})`;
  if (ev.type === 'RUN' || ev.type === 'MANAGE') return `${ev.type}(${ev.action})`;
  if (ev.type === 'ACTION_FAILED' || ev.type === 'LOCK_FAILED') return `${ev.type}(${ev.failure.code})`;
  if (ev.type === 'EDITED') return `EDITED(${ev.html.includes('增多') ? 'new' : 'back'})`;
  return ev.type;
};

/** The environment: a real draft store, the calls it was asked to make, and everything else it was told to do. */
function environment() {
  const map = new Map<string, string>();
  const storage: DraftStorage = {
    getItem: (k) => map.get(k) ?? null, setItem: (k, v) => void map.set(k, v), removeItem: (k) => void map.delete(k),
    key: (i) => [...map.keys()][i] ?? null, get length() { return map.size; },
  };
  const drafts = createDraftStore(storage);
  const log = { loads: 0, calls: [] as { call: ReportAction; body: unknown }[], locks: 0, refreshes: 0, toasts: [] as string[], focus: 0, prints: 0, left: 0, settled: [] as boolean[] };
  const machine = reportWorkspaceMachine.provide({
    actions: {
      requestReport: () => { log.loads += 1; },
      requestAction: (_, { call, body }) => { log.calls.push({ call, body }); },
      requestLock: () => { log.locks += 1; },
      requestRefresh: () => { log.refreshes += 1; },
      storeDraft: ({ self }, { reportId, base, fields }) => {
        const ok = drafts.write({ v: 1, userId: USER, reportId, baseVersion: base.version, baseSavedTime: base.savedTime, updatedAt: Date.now(), fields });
        self.send({ type: 'DRAFT_STORED', ok });
      },
      removeDraft: (_, { reportId }) => drafts.remove(USER, reportId),
      toastDone: (_, done) => { if (done) log.toasts.push(done.action); },
      focusFinding: () => { log.focus += 1; },
      print: () => { log.prints += 1; },
      leave: () => { log.left += 1; },
      settleLeave: (_, settled) => { if (settled) log.settled.push(settled.ok); },
    },
  });
  const actor = createActor(machine, { input: { userId: USER } });
  return { actor, drafts, log };
}
type Env = ReturnType<typeof environment>;

/** Sends the model's event; an answer only goes out when the environment really made that call. */
function execute(env: Env, event: WorkspaceEvent) {
  const before = env.actor.getSnapshot().context;
  if (event.type === 'LOADED' || event.type === 'LOAD_FAILED') expect(env.log.loads, 'the report was asked for').toBeGreaterThan(0);
  if (event.type === 'ACTION_DONE' || event.type === 'ACTION_FAILED') {
    const asked = env.log.calls.at(-1);
    expect(asked?.call, 'the call being answered was made').toBe(before.pending?.call);
  }
  if (event.type === 'LOCK_TAKEN' || event.type === 'LOCK_FAILED') expect(env.log.locks, 'the lock was asked for').toBeGreaterThan(0);
  const refreshes = env.log.refreshes;
  env.actor.send(event);
  const after = env.actor.getSnapshot();
  if (event.type === 'ACTION_FAILED' && ['VersionConflict', 'InvalidTransition'].includes(event.failure.code ?? '')) {
    expect(env.log.refreshes, 'a refused call asks for the report status again').toBe(refreshes + 1);
  }
  if (event.type === 'ACTION_FAILED' && event.failure.sessionEnding) {
    expect(after.context.text, 'an expired session keeps the typed text').toEqual(before.text);
    expect(after.context.dirty).toBe(before.dirty);
  }
}

/** What must hold whenever the workspace is in a state. */
function checkState(env: Env, model: AnyMachineSnapshot) {
  const real = env.actor.getSnapshot();
  expect(real.value).toEqual(model.value);
  const c = real.context;
  if (c.dirty && c.report) {
    // Crash-proof: every unsaved word is already in the local draft.
    const kept = env.drafts.read(USER, c.report.id);
    expect(kept && sameFields(kept.fields, currentFields(c)), 'the unsaved text is kept locally').toBe(true);
  }
  const calling = real.matches({ open: 'running' }) || real.matches({ open: { assigning: 'sending' } }) || real.matches({ open: { confirming: 'sending' } });
  expect(c.pending !== null, 'a call is in flight exactly while running').toBe(calling);
  if (real.matches({ open: 'decidingDraft' })) expect(c.draft.kind === 'newer' || c.draft.kind === 'older').toBe(true);
  else expect(c.draft.kind).toBe('none');
  if (real.matches({ open: 'askingReason' })) expect(c.reasonFor).toBe('reject');
  if (real.matches({ open: 'askingJoint' })) expect(c.joint?.length).toBeGreaterThan(0);
  if (real.matches({ open: 'confirming' })) expect(c.confirming).toBe('reset');
  if (real.matches({ open: { idle: 'conflict' } })) {
    expect(c.notice && 'failure' in c.notice && c.notice.reload, 'a conflict offers to reload').toBe(true);
  }
  if (real.matches('failed')) expect(c.loadError).toBeInstanceOf(Error);
  if (real.matches('loading')) expect(env.log.loads).toBeGreaterThan(0);
}

const covered = { states: new Set<string>(), transitions: new Set<string>(), printed: new Set<string>(), paths: 0 };
const stateId = (s: AnyMachineSnapshot) => JSON.stringify(s.value).replace(/[{}"]/g, '').replace(/:/g, '.');

describe('report workspace machine paths against a recording environment with a real draft store', () => {
  const model = createTestModel(reportWorkspaceMachine, {
    events: (snap: Snap) => eventsFor(snap),
    filterEvents: (snap: Snap, event: WorkspaceEvent) => ours.has(event) && snap.can(event),
    serializeState: (snap: AnyMachineSnapshot) => serializeState(snap),
    serializeEvent,
    input: { userId: USER },
  } as never);
  type Adjacency = Record<string, { state: Snap; transitions: Record<string, { event: WorkspaceEvent; state: Snap }> }>;
  const adjacency = model.getAdjacencyMap() as unknown as Adjacency;
  const shortest = new Map(model.getShortestPaths({ allowDuplicatePaths: true, input: { userId: USER } } as never).map((p) => [
    serializeState(p.state as AnyMachineSnapshot),
    p.steps.slice(1).map((st) => st.event as WorkspaceEvent),
  ]));
  // Edge-covering paths: the shortest path to each state plus each transition out of it; prefixes of longer ones dropped.
  const sequences = Object.entries(adjacency).flatMap(([key, v]) => Object.values(v.transitions).map((t) => [...(shortest.get(key) ?? []), t.event]));
  const labelOf = (events: WorkspaceEvent[]) => events.map(serializeEvent).join(' → ');
  const labels = sequences.map(labelOf);
  const longer = new Set(labels.flatMap((l) => l.split(' → ').slice(1).map((_, i, parts) => [l.split(' → ')[0], ...parts.slice(0, i)].join(' → '))));
  const paths = sequences.filter((_, i) => !longer.has(labels[i]!));
  const initialKey = serializeState(createActor(reportWorkspaceMachine, { input: { userId: USER } }).getSnapshot());
  const allTransitions = Object.values(adjacency).reduce((n, v) => n + Object.keys(v.transitions).length, 0);

  it('has paths to test', () => expect(paths.length).toBeGreaterThan(20));
  for (const events of paths) {
    it(`${labelOf(events)}`, () => {
      const env = environment();
      env.actor.start();
      let key = initialKey;
      checkState(env, adjacency[key]!.state);
      let from = stateId(adjacency[key]!.state);
      covered.states.add(from);
      for (const event of events) {
        const edge = adjacency[key]!.transitions[serializeEvent(event)]!;
        execute(env, event);
        checkState(env, edge.state);
        covered.transitions.add(`${key} --${serializeEvent(event)}`);
        const to = stateId(edge.state);
        covered.states.add(to);
        covered.printed.add(`${from} --${serializeEvent(event)}--> ${to}`);
        key = serializeState(edge.state);
        from = to;
      }
      covered.paths += 1;
      env.actor.stop();
    });
  }

  it('keeps typing during a save: the newer words stay unsaved and in the draft, the sent ones count as saved', () => {
    const env = environment();
    env.actor.start();
    env.actor.send({ type: 'LOADED', view: writable, offer: { kind: 'none' } });
    env.actor.send({ type: 'EDITED', field: 'finding', html: '<p>第一稿</p>' });
    env.actor.send({ type: 'RUN', action: 'save' });
    expect(env.log.calls.at(-1)).toMatchObject({ call: 'save', body: { finding: '<p>第一稿</p>' } });
    env.actor.send({ type: 'EDITED', field: 'finding', html: '<p>第二稿</p>' });
    const pending = env.actor.getSnapshot().context.pending!;
    env.actor.send({ type: 'ACTION_DONE', answer: answerTo(writable, 'save', pending.body as Record<string, unknown>) });
    const c = env.actor.getSnapshot().context;
    expect(c.saved?.finding).toBe('<p>第一稿</p>');
    expect(c.dirty).toBe(true);
    expect(env.drafts.read(USER, writable.id)?.fields.finding).toBe('<p>第二稿</p>');
    expect(env.drafts.read(USER, writable.id)?.baseVersion, 'the draft now starts from the saved version').toBe(writable.version + 1);
    expect(env.log.toasts, 'a save shows its mark, not a toast').toEqual([]);
  });

  it('asks for the lock once on the first edit and again only after a refusal', () => {
    const env = environment();
    env.actor.start();
    env.actor.send({ type: 'LOADED', view: writable, offer: { kind: 'none' } });
    env.actor.send({ type: 'EDITED', field: 'finding', html: '<p>一</p>' });
    env.actor.send({ type: 'EDITED', field: 'finding', html: '<p>一二</p>' });
    expect(env.log.locks).toBe(1);
    env.actor.send({ type: 'LOCK_FAILED', failure: failure('ReportLocked') });
    expect(env.actor.getSnapshot().context.notice).toMatchObject({ tone: 'error', reload: false });
    expect(env.log.refreshes).toBe(1);
    env.actor.send({ type: 'EDITED', field: 'finding', html: '<p>一二三</p>' });
    expect(env.log.locks).toBe(2);
  });

  it('answers "save and leave": true with nothing to save, then only once the save went through', () => {
    const env = environment();
    env.actor.start();
    env.actor.send({ type: 'LOADED', view: writable, offer: { kind: 'none' } });
    env.actor.send({ type: 'SAVE_BEFORE_LEAVING' });
    expect(env.log.settled).toEqual([true]);
    env.actor.send({ type: 'EDITED', field: 'diagnosis', html: '<p>新结论</p>' });
    env.actor.send({ type: 'SAVE_BEFORE_LEAVING' });
    expect(env.log.settled).toEqual([true]);
    env.actor.send({ type: 'ACTION_FAILED', failure: failure('TokenExpiredError', { sessionEnding: true }) });
    expect(env.log.settled).toEqual([true, false]);
    expect(env.actor.getSnapshot().matches({ open: { idle: 'sessionExpired' } })).toBe(true);
  });

  it('reloads from the conflict notice, which dismisses itself first: the draft of the typed text is offered on the fresh report', () => {
    const env = environment();
    env.actor.start();
    env.actor.send({ type: 'LOADED', view: writable, offer: { kind: 'none' } });
    env.actor.send({ type: 'EDITED', field: 'finding', html: '<p>冲突前写的</p>' });
    env.actor.send({ type: 'RUN', action: 'save' });
    env.actor.send({ type: 'ACTION_FAILED', failure: failure('VersionConflict') });
    expect(env.actor.getSnapshot().matches({ open: { idle: 'conflict' } })).toBe(true);
    env.actor.send({ type: 'DISMISS_NOTICE' });
    env.actor.send({ type: 'RELOAD' });
    expect(env.actor.getSnapshot().matches('loading')).toBe(true);
    expect(env.log.loads).toBe(2);
    const kept = env.drafts.read(USER, writable.id)!;
    expect(kept.fields.finding).toBe('<p>冲突前写的</p>');
    env.actor.send({ type: 'LOADED', view: { ...writable, version: 4 }, offer: { kind: 'newer', draft: kept } });
    expect(env.actor.getSnapshot().matches({ open: 'decidingDraft' })).toBe(true);
  });

  afterAll(() => {
    const leaves = leafStates(reportWorkspaceMachine.root);
    const missed = leaves.filter((s) => !covered.states.has(s));
    console.log(
      `report workspace model: ${covered.paths} paths; states covered ${leaves.length - missed.length}/${leaves.length} ` +
        `(${[...covered.states].sort().join(', ')})${missed.length ? `; NOT covered: ${missed.join(', ')}` : ''}\n` +
        `  ${covered.transitions.size}/${allTransitions} transitions of the abstract graph walked; between machine states:\n    ${[...covered.printed].sort().join('\n    ')}`,
    );
    expect(missed, 'every state of the machine is walked').toEqual([]);
    expect(covered.transitions.size, 'every transition of the graph is walked').toBe(allTransitions);
  });
});

/** Leaf state names as 'open.idle.editing'. */
function leafStates(node: { key: string; states: Record<string, unknown> }, prefix = ''): string[] {
  const children = Object.values(node.states) as Array<{ key: string; states: Record<string, unknown> }>;
  if (children.length === 0) return [prefix];
  return children.flatMap((child) => leafStates(child, prefix ? `${prefix}.${child.key}` : child.key));
}
