import { describe, expect, it } from 'vitest';
import { statementRecorder } from '../../bench/support/statements';
import type { Database } from '../../server/db/client';

/** The benches' statement recorder (bench/support/statements.ts) over a driver stand-in: only what runs while on, and its plan. */
function fakeDatabase() {
  const ran: { text: string; params: unknown }[] = [];
  const client = {
    query: (text: string | { text: string }, params?: unknown[]) => {
      const t = typeof text === 'string' ? text : text.text;
      ran.push({ text: t, params });
      return Promise.resolve({ rows: t.startsWith('explain') ? [{ 'QUERY PLAN': 'Result (actual time=0.001..0.002)' }, { 'QUERY PLAN': 'Planning Time: 0.01 ms' }] : [] });
    },
  };
  return { database: { db: { $client: client } } as unknown as Database, client, ran };
}

describe('statementRecorder', () => {
  it('records the statements run between start and stop, text first and parameters second, in either form', async () => {
    const { database, client } = fakeDatabase();
    const rec = statementRecorder(database);
    await client.query('select 1');
    rec.start();
    await client.query('select $1', [41]);
    await client.query({ text: 'select 2' });
    const seen = rec.stop();
    await client.query('select 3');
    expect(seen).toEqual([{ text: 'select $1', params: [41] }, { text: 'select 2', params: [] }]);
    rec.start();
    expect(rec.stop()).toEqual([]);
  });

  it('explains a statement with the options asked, past the recorder, one plan line a row', async () => {
    const { database, ran } = fakeDatabase();
    const rec = statementRecorder(database, 'analyze, buffers, costs off');
    rec.start();
    const plan = await rec.explain({ text: 'select $1', params: [7] });
    expect(rec.stop()).toEqual([]);
    expect(ran.at(-1)).toEqual({ text: 'explain (analyze, buffers, costs off) select $1', params: [7] });
    expect(plan).toBe('Result (actual time=0.001..0.002)\nPlanning Time: 0.01 ms');
    await statementRecorder(database).explain({ text: 'select 1', params: [] });
    expect(ran.at(-1)!.text).toBe('explain (analyze, costs off) select 1');
  });
});
