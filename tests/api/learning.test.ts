import { statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Learning, LearningPage, LearningProgress } from '../../contract/learning';
import { DEMO_LEARNINGS } from '../../server/seed/learning';
import { startServer, type TestServer } from '../support/server';

/**
 * Learning videos (contract/learning.ts): the public list and detail, with the asking account's progress merged in;
 * progress per account (401 without a token, never another account's), clamped to the video's length, and
 * `completed` that stays once reached; every bad input a 400 ParamsError.
 */
let s: TestServer;
let rad1: string;
let rad2: string;
let ids: Record<'worklist' | 'report' | 'calling', number>;

async function list(query = '', token?: string): Promise<LearningPage> {
  const res = await s.request('GET', `learnings${query}`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as LearningPage;
}

async function put(id: number, token: string | undefined, body: unknown) {
  return s.request('PUT', `learnings/${id}/progress`, { token, body });
}

async function progress(id: number, token: string): Promise<LearningProgress> {
  const res = await s.request('GET', `learnings/${id}/progress`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as LearningProgress;
}

function expectParamsError(res: { status: number; body: { code?: string } }, field?: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.code).toBe('ParamsError');
  if (field) expect(JSON.stringify(res.body)).toContain(field);
}

beforeAll(async () => {
  s = await startServer({ exams: 2 });
  [rad1, rad2] = await Promise.all([s.login('rad1'), s.login('rad2')]);
  const page = await list();
  const byFile = (file: string) => page.items.find((i) => i.videoUrl === `/learning/${file}.webm`)!.id;
  ids = { worklist: byFile('worklist'), report: byFile('report'), calling: byFile('calling') };
});
afterAll(async () => s?.close());

describe('the shipped demo videos', () => {
  it('each seeded row points at a file in public/ (video well under 500 kB, poster present)', () => {
    for (const l of DEMO_LEARNINGS) {
      const video = statSync(path.join('public', l.videoUrl));
      expect(video.size).toBeGreaterThan(10_000);
      expect(video.size).toBeLessThan(500_000);
      expect(statSync(path.join('public', l.posterUrl)).size).toBeGreaterThan(1_000);
    }
    expect(statSync('public/learning/blank.webm').size).toBeGreaterThan(0);
  });
});

describe('GET learnings (public)', () => {
  it('lists the library in its order without a token, with no progress', async () => {
    const page = await list();
    expect(page.total).toBe(DEMO_LEARNINGS.length);
    expect(page.items.map((i) => i.videoUrl)).toEqual(DEMO_LEARNINGS.map((l) => l.videoUrl));
    expect(page.items.every((i) => i.progress === null)).toBe(true);
    expect(page.categories).toEqual(['calling', 'reporting', 'workstation']);
    expect(page.items[0]).toMatchObject({ durationSec: 20, posterUrl: '/learning/worklist.jpg', category: 'workstation' });
  });

  it('searches title and description, case-insensitively, with % and _ taken literally', async () => {
    expect((await list('?q=CALLING')).items.map((i) => i.id)).toEqual([ids.calling]);
    expect((await list(`?q=${encodeURIComponent('审核')}`)).items.map((i) => i.id)).toEqual([ids.report]);
    expect((await list(`?q=${encodeURIComponent('Ctrl+K')}`)).items.map((i) => i.id)).toEqual([ids.worklist]);
    expect((await list(`?q=${encodeURIComponent('%')}`)).total).toBe(0);
    expect((await list('?q=_')).total).toBe(0);
    expect((await list('?q=%20%20')).total).toBe(DEMO_LEARNINGS.length);
  });

  it('filters by category and pages with skip/limit (total counts the whole match)', async () => {
    const reporting = await list('?category=reporting');
    expect(reporting.items.map((i) => i.id)).toEqual([ids.report]);
    expect(reporting.categories).toHaveLength(3);
    expect((await list('?category=nothing')).total).toBe(0);
    const second = await list('?skip=1&limit=1');
    expect(second.items.map((i) => i.id)).toEqual([ids.report]);
    expect(second.total).toBe(3);
    expect((await list('?skip=5')).items).toEqual([]);
  });

  it('merges the signed-in account\'s own progress; a dead token lists like no token', async () => {
    expect((await put(ids.calling, rad1, { positionSec: 7.5, completed: false })).status).toBe(200);
    const mine = await list('', rad1);
    expect(mine.items.find((i) => i.id === ids.calling)!.progress).toMatchObject({ positionSec: 7.5, completed: false });
    expect(mine.items.find((i) => i.id === ids.worklist)!.progress).toEqual({ learningId: ids.worklist, positionSec: 0, completed: false, updated: null });
    const theirs = await list('', rad2);
    expect(theirs.items.find((i) => i.id === ids.calling)!.progress).toMatchObject({ positionSec: 0, completed: false, updated: null });
    const dead = await list('', 'not-a-token');
    expect(dead.items.every((i) => i.progress === null)).toBe(true);
  });

  it.each([
    ['limit 0', '?limit=0'], ['limit over 100', '?limit=101'], ['negative skip', '?skip=-1'], ['skip as a word', '?skip=ten'],
    ['hex limit', '?limit=0x10'], ['search over 64', `?q=${'x'.repeat(65)}`], ['empty category', '?category='],
    ['category over 64', `?category=${'c'.repeat(65)}`], ['NUL in the search', '?q=a%00b'],
  ])('refuses %s with 400 ParamsError', async (_name, query) => {
    expectParamsError(await s.request('GET', `learnings${query}`));
  });
});

describe('GET learnings/:id (public)', () => {
  it('answers one video, with progress only for a signed-in account', async () => {
    const res = await s.request('GET', `learnings/${ids.report}`);
    expect(res.status).toBe(200);
    const video = res.body as Learning;
    expect(video).toMatchObject({ id: ids.report, videoUrl: '/learning/report.webm', durationSec: 20, progress: null });
    expect(video.title).toContain('Writing and approving a report');
    const signed = (await s.request('GET', `learnings/${ids.report}`, { token: rad2 })).body as Learning;
    expect(signed.progress).toEqual({ learningId: ids.report, positionSec: 0, completed: false, updated: null });
  });

  it('404 for an id that is no video; 400 for one that is no id', async () => {
    const missing = await s.request('GET', 'learnings/999999');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('NotFound');
    for (const bad of ['abc', '0', '-1', '1.5', '0x1', '99999999999']) expectParamsError(await s.request('GET', `learnings/${bad}`), 'id');
  });
});

describe('learnings/:id/progress (the signed-in account\'s own)', () => {
  it('401 without a token, for reading and writing', async () => {
    const read = await s.request('GET', `learnings/${ids.worklist}/progress`);
    expect(read.status).toBe(401);
    const write = await put(ids.worklist, undefined, { positionSec: 3, completed: false });
    expect(write.status).toBe(401);
    expect(await progress(ids.worklist, rad1)).toMatchObject({ positionSec: 0, updated: null });
  });

  it('keeps each account\'s position apart, stamped with the server clock', async () => {
    const saved = await put(ids.worklist, rad1, { positionSec: 12.25, completed: false });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ learningId: ids.worklist, positionSec: 12.25, completed: false, updated: s.clock.now().toISOString() });
    expect((await put(ids.worklist, rad2, { positionSec: 4, completed: false })).status).toBe(200);
    expect(await progress(ids.worklist, rad1)).toMatchObject({ positionSec: 12.25 });
    expect(await progress(ids.worklist, rad2)).toMatchObject({ positionSec: 4 });
    s.clock.advance(60_000);
    expect((await put(ids.worklist, rad1, { positionSec: 2, completed: false })).body).toMatchObject({ positionSec: 2, updated: s.clock.now().toISOString() });
    expect(await progress(ids.worklist, rad2)).toMatchObject({ positionSec: 4 });
  });

  it('clamps a position just past the end to the length, refuses one further out', async () => {
    expect((await put(ids.report, rad2, { positionSec: 20 + 1.9, completed: false })).body).toMatchObject({ positionSec: 20 });
    expectParamsError(await put(ids.report, rad2, { positionSec: 20 + 2.5, completed: false }), 'positionSec');
    expect(await progress(ids.report, rad2)).toMatchObject({ positionSec: 20 });
  });

  it('keeps `completed` once reached: watching again moves the position only', async () => {
    expect((await put(ids.report, rad1, { positionSec: 20, completed: true })).body).toMatchObject({ completed: true });
    const again = await put(ids.report, rad1, { positionSec: 3, completed: false });
    expect(again.body).toMatchObject({ positionSec: 3, completed: true });
    expect((await list('', rad1)).items.find((i) => i.id === ids.report)!.progress).toMatchObject({ positionSec: 3, completed: true });
    expect(await progress(ids.report, rad2)).toMatchObject({ completed: false });
  });

  it('two writes at once (a periodic save and the one on leaving) both land and never lose completion', async () => {
    const [a, b] = await Promise.all([
      put(ids.calling, rad2, { positionSec: 19, completed: true }),
      put(ids.calling, rad2, { positionSec: 10, completed: false }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const now = await progress(ids.calling, rad2);
    expect(now.completed).toBe(true);
    expect([10, 19]).toContain(now.positionSec);
  });

  it('404 for an unknown video, 400 for a bad id', async () => {
    expect((await put(999999, rad1, { positionSec: 1, completed: false })).status).toBe(404);
    expect((await s.request('GET', 'learnings/999999/progress', { token: rad1 })).status).toBe(404);
    expectParamsError(await put(0, rad1, { positionSec: 1, completed: false }), 'id');
    expectParamsError(await s.request('GET', 'learnings/x/progress', { token: rad1 }), 'id');
  });

  it.each([
    ['no body', undefined], ['an empty object', {}], ['a missing completed', { positionSec: 1 }], ['a missing position', { completed: false }],
    ['a negative position', { positionSec: -0.5, completed: false }], ['a position as text', { positionSec: '5', completed: false }],
    ['completed as text', { positionSec: 1, completed: 'yes' }], ['completed as a number', { positionSec: 1, completed: 1 }],
    ['an unknown field', { positionSec: 1, completed: false, accountId: 1 }], ['a huge position', { positionSec: 1e308, completed: false }],
    ['an array', [1, false]], ['null', null],
  ])('refuses %s with 400 ParamsError', async (_name, body) => {
    expectParamsError(await put(ids.calling, rad1, body));
  });

  it('refuses junk JSON with 400 ParamsError, not 500', async () => {
    const res = await s.request('PUT', `learnings/${ids.calling}/progress`, { token: rad1, body: '{"positionSec":', headers: { 'content-type': 'application/json' } });
    expectParamsError(res);
  });
});
