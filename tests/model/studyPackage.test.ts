import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transition } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { REPACK_INTERVAL_MS } from '../../contract/constants';
import {
  PACK_TIMEOUT_MS, STUDY_PACKAGE_TTL_MS, studyPackageMachine, type StudyPackageEvent, type StudyPackageSnapshot,
} from '../../machines/studyPackage';
import { studyPackages } from '../../server/db/schema';
import { currentState } from '../../server/packages/state';
import { createLocalStorage } from '../../server/storage/local';
import { createSigner } from '../../server/storage/signer';
import type { Storage } from '../../server/storage/types';
import { CT_SERIES, asNewInstance, sample, uidOfLength } from '../support/dicom';
import { startServer, type TestClock, type TestServer } from '../support/server';
import { CT_SERIES_STUDY, initUpload, putFile } from '../support/uploads';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Paths generated from machines/studyPackage.ts, each walked against the real server with its own
 * exam: REQUEST and REPACK are GET study-package calls, PACKED and FAILED let the held background
 * pack finish (or fail reading a file), TICK moves the server's clock by the step's time.
 */

const HOUR_AND_A_MINUTE = REPACK_INTERVAL_MS + 60_000;
const A_DAY_AND_AN_HOUR = STUDY_PACKAGE_TTL_MS + 3600_000;

/** Storage whose reads wait behind a gate (a pack stays "processing" until the path says it ended) and can fail. */
function gatedStorage(inner: Storage) {
  let open: () => void = () => undefined;
  let gate = new Promise<void>((resolve) => { open = resolve; });
  const control = {
    failReads: false,
    release() { open(); },
    close() { gate = new Promise<void>((resolve) => { open = resolve; }); },
  };
  const storage: Storage = {
    ...inner,
    async get(key, range) {
      if (key.startsWith('dicom/')) {
        await gate;
        if (control.failReads) throw new Error(`read of ${key} failed`);
      }
      return inner.get(key, range);
    },
  };
  return { storage, control };
}

let s: TestServer;
let admin: string;
let control: ReturnType<typeof gatedStorage>['control'];
let filesDir: string;
let studies = 0;

beforeAll(async () => {
  filesDir = mkdtempSync(path.join(tmpdir(), 'pkg-model-'));
  s = await startServer({
    exams: 10,
    storage: (clock: TestClock) => {
      const gated = gatedStorage(createLocalStorage({ root: filesDir, signer: createSigner('model'), clock }));
      control = gated.control;
      return gated.storage;
    },
  });
  admin = await s.login('admin');
});
afterAll(async () => {
  control.release();
  await s.close();
  rmSync(filesDir, { recursive: true, force: true });
});

/** A fresh exam with the four ct-series images under new UIDs. */
async function freshExam(): Promise<number> {
  studies += 1;
  const study = uidOfLength(CT_SERIES_STUDY.studyInstanceUid.length, 7000 + studies);
  const session = await initUpload(s, admin, s.ids.hospitalId, { ...CT_SERIES_STUDY, studyInstanceUid: study });
  for (const [i, f] of CT_SERIES.entries()) {
    const res = await putFile(s, session.credentials.token, asNewInstance(sample(f), studies * 100 + i, { study }));
    if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  }
  return session.exam.id;
}

const rowOf = async (examId: number) => (await s.db.db.select().from(studyPackages).where(eq(studyPackages.examId, examId)))[0];

async function settled(examId: number): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const row = await rowOf(examId);
    if (row && row.state !== 'processing') return row.state;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('the pack did not finish');
}

function serializeState(snapshot: StudyPackageSnapshot): string {
  const c = snapshot.context;
  const due = c.startedAt === null || c.now - c.startedAt >= REPACK_INTERVAL_MS;
  const past = c.expiresAt !== null && c.now >= c.expiresAt;
  const stale = c.startedAt !== null && c.now - c.startedAt >= PACK_TIMEOUT_MS;
  return `${String(snapshot.value)}${snapshot.value === 'ready' ? `|due:${due}|past:${past}` : ''}${snapshot.value === 'processing' ? `|stale:${stale}` : ''}`;
}

const events = (snapshot: StudyPackageSnapshot): StudyPackageEvent[] => {
  const now = snapshot.context.now;
  return [
    { type: 'REQUEST', now }, { type: 'REPACK', now }, { type: 'PACKED', now }, { type: 'FAILED', now },
    { type: 'TICK', now: now + HOUR_AND_A_MINUTE }, { type: 'TICK', now: now + A_DAY_AND_AN_HOUR },
  ];
};

const model = createTestModel(studyPackageMachine, { events, serializeState, input: { now: 0 } } as never);
// allowDuplicatePaths keeps the paths that are prefixes of longer ones: every state is a starting point.
const shortest = model.getShortestPaths({ allowDuplicatePaths: true, input: { now: 0 } } as never);

interface Walk { start: StudyPackageSnapshot; steps: { event: StudyPackageEvent; state: StudyPackageSnapshot; refused: boolean }[] }

/**
 * Every edge once: the shortest path to each state, then one more step with each event from there.
 * An event the machine does not take is walked too, and the server must refuse it or leave the state as it is.
 */
const walks: Walk[] = [];
const seenEdges = new Set<string>();
for (const p of shortest) {
  const prefix = p.steps.slice(1).map((st) => ({ event: st.event as StudyPackageEvent, state: st.state as StudyPackageSnapshot, refused: false }));
  const end = p.state as StudyPackageSnapshot;
  for (const event of events(end)) {
    const edge = `${serializeState(end)} ${event.type}${event.type === 'TICK' ? `+${event.now - end.context.now}` : ''}`;
    if (seenEdges.has(edge)) continue;
    seenEdges.add(edge);
    // Only the server sends PACKED and FAILED: a refused one cannot be asked of it.
    if (!end.can(event) && (event.type === 'PACKED' || event.type === 'FAILED')) continue;
    const next = end.can(event) ? transition(studyPackageMachine, end, event)[0] : end;
    walks.push({ start: p.steps[0]!.state as StudyPackageSnapshot, steps: [...prefix, { event, state: next, refused: !end.can(event) }] });
  }
}

const covered = { states: new Set<string>(), transitions: new Set<string>(), refusals: new Set<string>() };
const label = (step: Walk['steps'][number], before: StudyPackageSnapshot) =>
  `${step.refused ? '(refused) ' : ''}${step.event.type === 'TICK' ? `TICK+${Math.round((step.event.now - before.context.now) / 3600_000)}h` : step.event.type}`;

describe('study package machine paths against the real server', () => {
  it('has paths to test', () => expect(walks.length).toBeGreaterThan(10));

  for (const walk of walks) {
    let before = walk.start;
    const names = walk.steps.map((st) => { const n = label(st, before); before = st.state; return n; });
    it(`${names.join(' → ')} reaches ${String(walk.steps.at(-1)!.state.value)}`, async () => {
      const examId = await freshExam();
      control.close();
      control.failReads = false;
      let previous = walk.start;
      try {
        for (const [i, st] of walk.steps.entries()) {
          const { event } = st;
          const expected = String(st.state.value);
          const nextEvent = walk.steps[i + 1]?.event.type;
          if (event.type === 'REQUEST' || event.type === 'REPACK') {
            // The pack about to start is held until a PACKED or FAILED step; FAILED makes its reads fail.
            if (nextEvent === 'FAILED') control.failReads = true;
            const res = await s.request('GET', `exams/${examId}/study-package${event.type === 'REPACK' ? '?repackage=true' : ''}`, { token: admin });
            if (st.refused && event.type === 'REPACK' && previous.value === 'ready') {
              expect([res.status, res.body.code]).toEqual([429, 'RepackTooSoon']);
              expect(res.body.details.retryAfter).toBe(Math.ceil((previous.context.startedAt! + REPACK_INTERVAL_MS - previous.context.now) / 1000));
              expect(currentState(await rowOf(examId), s.clock.now().getTime())).toBe(expected);
            } else {
              expect(res.status, JSON.stringify(res.body)).toBe(200);
              expect(res.body.state).toBe(expected);
            }
          } else if (event.type === 'PACKED' || event.type === 'FAILED') {
            control.release();
            expect(await settled(examId)).toBe(expected);
            control.close();
            control.failReads = false;
          } else {
            s.clock.advance(event.now - previous.context.now);
            expect(currentState(await rowOf(examId), s.clock.now().getTime())).toBe(expected);
            admin = await s.login('admin');
          }
          covered.states.add(expected);
          (st.refused ? covered.refusals : covered.transitions).add(`${serializeState(previous)} --${label(st, previous).replace('(refused) ', '')}--> ${serializeState(st.state)}`);
          previous = st.state;
        }
      } finally {
        control.release();
        await settled(examId).catch(() => undefined);
      }
    });
  }

  afterAll(() => {
    console.log(`study package model: ${walks.length} paths; states covered: ${[...covered.states].sort().join(', ')}`);
    console.log(`transitions covered (${covered.transitions.size}):\n  ${[...covered.transitions].sort().join('\n  ')}`);
    console.log(`refusals checked (${covered.refusals.size}):\n  ${[...covered.refusals].sort().join('\n  ')}`);
  });
});
