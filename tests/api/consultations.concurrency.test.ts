import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../support/accounts';
import { consultationIn, detailOf } from '../support/consultations';
import { startServer, type TestServer } from '../support/server';

/**
 * Two experts concluding at once (issue 12): both send the result with the version they read; the row is locked and
 * the version compared, so exactly one wins (200) and the other gets 409 VersionConflict with the current version —
 * never two results, never a 500. Runs on PGlite and, with DATABASE_URL, on PostgreSQL with real parallel transactions.
 */
let s: TestServer;
let expert1: string;
let expert2: string;
beforeAll(async () => {
  s = await startServer({ exams: 5 });
  const second = await createAccount(s, { groupId: s.ids.groupId, buckets: [{ bucketId: s.ids.expertCentreId, actions: ['consultation_update'] }] });
  expert1 = await s.login('expert');
  expert2 = await s.login(second.username, second.password);
});
afterAll(async () => { await s.close(); });

const conclude = (token: string, id: number, version: number, text: string) =>
  s.request('PUT', `consultations/${id}/results`, { token, body: { version, conclusion: `<p>${text}</p>` } });

describe('two experts conclude at once', () => {
  it.each([[1, 'scheduled'], [2, 'discussed']] as const)('from %i (%s): exactly one 200, the other 409 VersionConflict', async (status, _name) => {
    for (let round = 0; round < 4; round++) {
      const c = await consultationIn(s, status);
      const [a, b] = await Promise.all([conclude(expert1, c.id, c.version, '甲的结论'), conclude(expert2, c.id, c.version, '乙的结论')]);
      const statuses = [a.status, b.status].sort();
      expect(statuses, JSON.stringify([a.body, b.body])).toEqual([200, 409]);
      const [won, lost] = a.status === 200 ? [a, b] : [b, a];
      expect(lost.body.code).toBe('VersionConflict');
      expect(lost.body.details.version).toBe(c.version + 1);
      const stored = await detailOf(s, 'rad1', c.id);
      expect(stored.version).toBe(c.version + 1);
      expect(stored.status).toBe(2);
      expect(stored.result?.conclusion).toBe(won.body.result.conclusion);
    }
  });

  it('a result racing a cancel: one of them wins, the other is refused (409), the row consistent', async () => {
    const c = await consultationIn(s, 1);
    const rad1 = await s.login('rad1');
    const [result, cancel] = await Promise.all([
      conclude(expert1, c.id, c.version, '结论'),
      s.request('POST', `consultations/${c.id}/cancel`, { token: rad1, body: { version: c.version, reason: '撤回' } }),
    ]);
    expect([result.status, cancel.status].sort()).toEqual([200, 409]);
    const stored = await detailOf(s, 'rad1', c.id);
    expect(stored.status).toBe(result.status === 200 ? 2 : 4);
    expect(stored.version).toBe(c.version + 1);
  });
});
