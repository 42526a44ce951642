import { afterAll, describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { addDays } from '../../contract/days';
import { STAT_PATHS, type StatGroupsAnswer, type StatScopeAnswer } from '../../contract/statistics';
import {
  problemOf, statisticsRangeMachine, type StatisticsRangeEvent, type StatisticsRangeSnapshot, type StatQuestion,
} from '../../machines/statisticsRange';
import { startServer } from '../support/server';

/**
 * machines/statisticsRange.ts, the statistics page's question. Every shortest path of the machine over quick ranges,
 * units, custom ranges (short, long, very long, reversed, half-empty), charts with different limits and the
 * turnaround table's rows; in every state what the page asks is answerable and an unanswerable draft carries its
 * code. Then each path's end is asked of the server as the page would ask it: 200 when the machine says valid, the
 * machine's catalogue code otherwise (the same rule on both sides, contract rangeProblem).
 */

const s = await startServer({ exams: 30 });
afterAll(async () => s.close());
const chief = await s.login('chief');
const groups = (await s.request('GET', 'statistics/groups', { token: chief })).body as StatGroupsAnswer;
const groupId = groups.groups[0]!.id;
const scope = (await s.request('GET', `statistics/scope?groupId=${groupId}`, { token: chief })).body as StatScopeAnswer;
const today = scope.today;

const EVENTS: StatisticsRangeEvent[] = [
  { type: 'QUICK', quick: 'yesterday' },
  { type: 'QUICK', quick: '30d' },
  { type: 'UNIT', unit: 'day' },
  { type: 'UNIT', unit: 'week' },
  { type: 'UNIT', unit: 'year' },
  // 41 days (over a month), 401 days (over a year), reversed, and a cleared from-date.
  { type: 'RANGE', from: addDays(today, -40), to: today },
  { type: 'RANGE', from: addDays(today, -400), to: today },
  { type: 'RANGE', from: today, to: addDays(today, -3) },
  { type: 'RANGE', from: '', to: today },
  { type: 'CHART', name: 'study' },
  { type: 'CHART', name: 'modality' },
  { type: 'CHART', name: 'note-taker' },
  { type: 'CHART', name: 'report' },
  { type: 'BY', by: 'radiologist' },
];

const serializeState = (snap: StatisticsRangeSnapshot) => JSON.stringify({ v: snap.value, d: snap.context.draft, q: snap.context.quick });

/** What every state promises the page. */
function checkState(snap: StatisticsRangeSnapshot) {
  const c = snap.context;
  expect(problemOf(c.question), 'the question asked is always answerable').toBeNull();
  if (snap.value === 'valid') {
    expect(c.problem).toBeNull();
    expect(c.question).toEqual(c.draft);
  } else {
    expect(c.problem).toEqual(problemOf(c.draft));
    expect(c.problem).not.toBeNull();
  }
}

/** The body the page would post for a question ('' fields left out, as the empty date input sends nothing). */
const bodyOf = (q: StatQuestion) => ({ groupId, unit: q.unit, by: q.by, ...(q.from ? { from: q.from } : {}), ...(q.to ? { to: q.to } : {}) });

const model = createTestModel(statisticsRangeMachine, {
  events: EVENTS,
  serializeState: (snap) => serializeState(snap as StatisticsRangeSnapshot),
  serializeEvent: (e) => JSON.stringify(e),
});
const paths = model.getShortestPaths({ input: { today } });

describe('the statistics range machine (model paths)', () => {
  it('reaches both states and every code', () => {
    const ends = paths.map((p) => p.state as StatisticsRangeSnapshot);
    expect(new Set(ends.map((e) => e.value))).toEqual(new Set(['valid', 'invalid']));
    expect(new Set(ends.flatMap((e) => (e.context.problem ? [e.context.problem.code] : []))))
      .toEqual(new Set(['StatisticsPeriodRequired', 'StatisticsPeriodInvalid', 'StatisticsRangeTooLong']));
  });

  for (const path of paths) {
    it(path.description, async () => {
      await path.test({ states: { '*': (snap) => checkState(snap as StatisticsRangeSnapshot) } });
    });
  }

  it('a refused draft keeps the last good question; a good one replaces it', () => {
    const actor = createActor(statisticsRangeMachine, { input: { today } }).start();
    actor.send({ type: 'QUICK', quick: '30d' });
    const good = actor.getSnapshot().context.question;
    expect(good).toMatchObject({ from: addDays(today, -29), to: today, unit: 'day', name: 'study' });
    actor.send({ type: 'RANGE', from: addDays(today, -40), to: today });
    expect(actor.getSnapshot().value).toBe('invalid');
    expect(actor.getSnapshot().context.problem).toMatchObject({ code: 'StatisticsRangeTooLong', limit: 'month' });
    expect(actor.getSnapshot().context.question).toEqual(good);
    expect(actor.getSnapshot().context.quick).toBeNull();
    actor.send({ type: 'UNIT', unit: 'week' });
    expect(actor.getSnapshot().value).toBe('valid');
    expect(actor.getSnapshot().context.question).toMatchObject({ from: addDays(today, -40), unit: 'week' });
    actor.send({ type: 'CHART', name: 'modality' });
    expect(actor.getSnapshot().value, 'device workload is at most a month whatever the unit').toBe('invalid');
    expect(actor.getSnapshot().context.question.name).toBe('study');
    actor.stop();
  });
});

describe('the machine asks only what the server answers', () => {
  for (const path of paths) {
    it(path.description, async () => {
      const end = path.state as StatisticsRangeSnapshot;
      const q = end.context.draft;
      const res = await s.request('POST', STAT_PATHS[q.name], { token: chief, body: bodyOf(q) });
      if (end.value === 'valid') expect(res.status, JSON.stringify(res.body)).toBe(200);
      else {
        expect(res.status, JSON.stringify(res.body)).toBe(400);
        expect(res.body.code).toBe(end.context.problem!.code);
      }
    });
  }
});
