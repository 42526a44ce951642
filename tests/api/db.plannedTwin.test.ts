import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/client';
import { preparedOnce } from '../../server/db/preparedOnce';
import { freshDatabase, type FreshDatabase } from '../support/freshDatabase';

/**
 * server/db/preparedOnce.ts and client.ts: on PostgreSQL the statements made once run on the planned twin, whose
 * connections use generic plans; everything else, and a transaction's statements, stay on the ordinary connections
 * (the setting there would ruin the text search's plans). On PGlite there is no twin.
 */
let fresh: FreshDatabase;
beforeAll(async () => { fresh = await freshDatabase(); });
afterAll(async () => { await fresh.dispose(); });

const planMode = async (db: Db) => {
  const result = (await db.execute(sql`select current_setting('plan_cache_mode') as mode`)) as unknown as { rows: { mode: string }[] };
  return result.rows[0]!.mode;
};

describe('the handle a statement made once runs on', () => {
  it('is the planned twin on PostgreSQL, and the database itself on PGlite', async () => {
    const { db, kind } = fresh.database;
    const handle = preparedOnce(db, 'test_plan_mode_handle', (on) => on);
    expect(await planMode(handle)).toBe(kind === 'postgres' ? 'force_generic_plan' : 'auto');
    expect(handle === db).toBe(kind === 'pglite');
  });

  it('leaves every other statement, those kept off the twin and a transaction\'s on plans made per execution', async () => {
    const { db } = fresh.database;
    expect(await planMode(db)).toBe('auto');
    expect(await planMode(preparedOnce(db, 'test_plan_mode_off', (on) => on, { planned: false }))).toBe('auto');
    await db.transaction(async (tx) => {
      const handle = preparedOnce(tx, 'test_plan_mode_tx', (on) => on);
      expect(handle).toBe(tx);
      expect(await planMode(handle)).toBe('auto');
    });
  });
});
