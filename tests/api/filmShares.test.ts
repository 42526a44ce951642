import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILM_SHARES_LISTED, type FilmShareItem } from '../../contract/shares';
import { exams } from '../../server/db/schema';
import { insertExam } from '../support/reports';
import { startServer, type TestServer } from '../support/server';

let s: TestServer;
let rad1: string;
let tech: string;
let registrar: string;
let expert: string;

beforeAll(async () => {
  s = await startServer({ exams: 20 });
  [rad1, tech, registrar, expert] = await Promise.all(['rad1', 'tech', 'registrar', 'expert'].map((u) => s.login(u)));
});
afterAll(async () => { await s.close(); });

const list = (examId: number, token = rad1) => s.request('GET', `exams/${examId}/film-shares`, { token });

describe("an exam's electronic films (GET exams/{id}/film-shares)", () => {
  it('lists the films of the exam newest first with their code, path, expiry and whether they were revoked', async () => {
    const examId = await insertExam(s);
    const other = await insertExam(s);
    expect((await list(examId)).body).toEqual([]);
    const first = (await s.request('POST', 'film-share/share', { token: rad1, body: { examId, ttlDays: 3 } })).body;
    s.clock.advance(1000);
    const second = (await s.request('POST', 'film-share/share', { token: tech, body: { examId } })).body;
    await s.request('POST', 'film-share/share', { token: rad1, body: { examId: other } });
    expect((await s.request('POST', `film-share/${first.link}/revoke`, { token: rad1 })).status).toBe(204);

    const res = await list(examId);
    expect(res.status).toBe(200);
    const items = res.body as FilmShareItem[];
    expect(items.map((f) => f.link)).toEqual([second.link, first.link]);
    expect(items[0]).toEqual({ ...second, created: expect.any(String), revoked: false });
    expect(items[1]).toMatchObject({ link: first.link, code: first.code, path: `/sf/${first.link}`, expires: first.expires, revoked: true });
    expect(items[0]!.expires - Math.floor(new Date(items[0]!.created).getTime() / 1000)).toBe(7 * 86_400);
  });

  it('lists at most FILM_SHARES_LISTED films', async () => {
    const examId = await insertExam(s);
    for (let i = 0; i < FILM_SHARES_LISTED + 2; i++) await s.request('POST', 'film-share/share', { token: tech, body: { examId } });
    expect((await list(examId)).body).toHaveLength(FILM_SHARES_LISTED);
  });

  it('needs exam_get in the exam organisation: 403 without it, 404 from elsewhere or for a deleted exam', async () => {
    const examId = await insertExam(s);
    expect((await list(examId, registrar)).status).toBe(403);
    expect((await list(examId, expert)).status).toBe(404);
    expect((await list(2_000_000)).status).toBe(404);
    expect((await s.request('GET', `exams/${examId}/film-shares`)).status).toBe(401);
    await s.db.db.update(exams).set({ deletedTime: s.clock.now() }).where(eq(exams.id, examId));
    expect((await list(examId)).status).toBe(404);
  });
});
