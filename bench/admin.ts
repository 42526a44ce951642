/**
 * Administration benchmark (`npm run bench:admin`): prints numbers, never passes or fails on a time.
 * The real app in this process on a fresh database (in-memory PGlite; and PostgreSQL too when DATABASE_URL is set: a
 * new database, dropped after) with the demo data, grown to BENCH_MEMBERS extra group members (default 2,000, each a
 * member of the hospital) and BENCH_PROCEDURES procedures (default 300). Over loopback HTTP, BENCH_RUNS each (default
 * 200) after 10 warm-up calls: the members list and page query, the organisations, the roles, one role's action
 * ticked and unticked, a re-sort of every procedure, the account list, and a member's permissions (what every request
 * of that member pays for "rights read on every request"). p50 / p95 / max in milliseconds.
 */
import { hashPassword } from '../server/auth/password';
import type { Database } from '../server/db/client';
import * as t from '../server/db/schema';
import { DEMO_PASSWORD } from '../server/seed/demo';
import { benchKinds, BENCH_SCRYPT_COST, startDemoBench, timeScenarios } from './support/server';

const PREFIX = 'admin';

const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 2000);
const PROCEDURES = Number(process.env.BENCH_PROCEDURES ?? 300);

async function grow(database: Database, ids: { groupId: number; hospitalId: number }) {
  const db = database.db;
  const hash = await hashPassword(DEMO_PASSWORD, BENCH_SCRYPT_COST);
  for (let start = 0; start < MEMBERS; start += 500) {
    const n = Math.min(500, MEMBERS - start);
    const rows = await db.insert(t.accounts).values(Array.from({ length: n }, (_, i) => ({
      username: `bench${start + i}`, name: `测试成员${start + i}`, passwordHash: hash,
    }))).returning({ id: t.accounts.id });
    await db.insert(t.groupMembers).values(rows.map((r) => ({ groupId: ids.groupId, accountId: r.id })));
    await db.insert(t.bucketMembers).values(rows.map((r) => ({ bucketId: ids.hospitalId, accountId: r.id })));
  }
  await db.insert(t.procedures).values(Array.from({ length: PROCEDURES }, (_, i) => ({
    bucketId: ids.hospitalId, code: `BENCH${i}`, name: `测试项目 ${i}`, modality: 'CT', price: 100, sortOrder: 1000 + i,
  })));
}

async function runOn(kind: 'pglite' | 'postgres') {
  const { ids, bench } = await startDemoBench(kind, PREFIX, 200, grow);
  const admin = await bench.login('admin');
  const rad2 = await bench.login('rad2');
  const call = (token: string, method: string, route: string, body?: unknown) => bench.call(token, method, route, body);
  const roles = await call(admin, 'GET', `buckets/${ids.hospitalId}/roles`) as { id: number; name: string; actions: string[] }[];
  const role = roles[0]!;
  const procedureIds = (await call(admin, 'GET', `buckets/${ids.hospitalId}/procedures`) as { id: number }[]).map((p) => p.id);

  let flip = false;
  const scenarios: [string, () => Promise<unknown>][] = [
    [`GET groups/{id}/members (${MEMBERS + 8} members)`, () => call(admin, 'GET', `groups/${ids.groupId}/members`)],
    ['POST groups/{id}/members/query (a name, 20 rows)', () => call(admin, 'POST', `groups/${ids.groupId}/members/query`, { filters: [{ field: 'name', operator: 'like', values: ['成员1'] }], limit: 20 })],
    ['GET groups/{id}/organizations', () => call(admin, 'GET', `groups/${ids.groupId}/organizations`)],
    ['GET buckets/{id}/roles', () => call(admin, 'GET', `buckets/${ids.hospitalId}/roles`)],
    ['PUT buckets/{id}/roles/{roleId} (tick / untick)', () => {
      flip = !flip;
      return call(admin, 'PUT', `buckets/${ids.hospitalId}/roles/${role.id}`, { name: role.name, actions: flip ? [...role.actions, 'exam_bind'] : role.actions });
    }],
    [`POST buckets/{id}/procedures/resort (${procedureIds.length} ids)`, () => {
      procedureIds.push(procedureIds.shift()!);
      return call(admin, 'POST', `buckets/${ids.hospitalId}/procedures/resort`, { ids: procedureIds });
    }],
    ['POST accounts/query-in-realm (first 50)', () => call(admin, 'POST', 'accounts/query-in-realm', { query: '' })],
    ['GET accounts/me/permissions (a member)', () => call(rad2, 'GET', 'accounts/me/permissions')],
  ];
  await timeScenarios(`${kind}`, scenarios);
  await bench.close();
}

for (const kind of benchKinds()) await runOn(kind);
