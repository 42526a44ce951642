import { eq, inArray, sql } from 'drizzle-orm';
import { hashPassword } from '../auth/password';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import { systemClock } from '../deps';
import { insertBenchExams, restoreIndexes, type BenchOrg } from './benchExams';
import { DEMO_PASSWORD, seedDemo } from './demo';

/**
 * The benchmark database: the demo accounts and organisations, eight more organisations of another group (so an
 * account's scope is a real part of the table), and exams over the last `days` days with reports in every state.
 * Shares: the demo hospital 40 %, the expert centre 10 %, the other organisations 50 %.
 */
const OTHER_ORGS = 8;

/** The demo ids of a database seeded before, or a fresh demo seed without exams. */
async function demoIds(db: Db, scryptCost: number) {
  const [hospital] = await db.select().from(t.buckets).where(eq(t.buckets.code, 'CITY1-RAD'));
  if (!hospital) return seedDemo(db, { scryptCost, clock: systemClock, exams: 0 });
  const [centre] = await db.select().from(t.buckets).where(eq(t.buckets.code, 'EXPERT-CENTRE'));
  const people = await db.select({ id: t.accounts.id, username: t.accounts.username }).from(t.accounts)
    .where(inArray(t.accounts.username, ['admin', 'rad1', 'rad2', 'chief', 'expert']));
  const acc = Object.fromEntries(people.map((p) => [p.username, p.id])) as Record<'admin' | 'rad1' | 'rad2' | 'chief' | 'expert', number>;
  return { groupId: hospital.groupId, hospitalId: hospital.id, expertCentreId: centre!.id, accounts: acc };
}

/** Eight organisations of a second group, each with one reporter account (benchrad1 … benchrad8). */
async function otherOrgs(db: Db, scryptCost: number): Promise<{ bucketId: number; reporter: number }[]> {
  const existing = await db.select().from(t.buckets).where(sql`${t.buckets.code} like 'BENCH-ORG-%'`).orderBy(t.buckets.id);
  if (existing.length === OTHER_ORGS) {
    const reporters = await db.select().from(t.accounts).where(sql`${t.accounts.username} like 'benchrad%'`).orderBy(t.accounts.id);
    return existing.map((b, i) => ({ bucketId: b.id, reporter: reporters[i]!.id }));
  }
  const hash = await hashPassword(DEMO_PASSWORD, scryptCost);
  const [group] = await db.insert(t.groups).values({ name: 'bench', displayName: '区域影像协作网' }).returning();
  const made: { bucketId: number; reporter: number }[] = [];
  for (let i = 1; i <= OTHER_ORGS; i++) {
    const [bucket] = await db.insert(t.buckets).values({ groupId: group!.id, name: `协作医院${i}放射科`, code: `BENCH-ORG-${i}` }).returning();
    const [account] = await db.insert(t.accounts).values({ username: `benchrad${i}`, name: `协作医生${i}`, passwordHash: hash }).returning();
    await db.insert(t.groupMembers).values({ groupId: group!.id, accountId: account!.id });
    await db.insert(t.bucketMembers).values({ bucketId: bucket!.id, accountId: account!.id, accessLevel: 'contentManager' });
    made.push({ bucketId: bucket!.id, reporter: account!.id });
  }
  return made;
}


export interface BenchSeedResult {
  /** Exams in the database afterwards. */
  exams: number;
  added: number;
}

export async function examCount(db: Db): Promise<number> {
  const result = await db.execute(sql`select count(*)::int as n from exams`);
  return Number((result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0);
}

/** Adds `add` exams (and their reports), rebuilds the indexes and refreshes the statistics. */
export async function seedBench(db: Db, o: {
  add: number; days: number; scryptCost: number; log?: (line: string) => void;
  /** Runs after the new rows are written, while the secondary indexes are still dropped (bench:statistics' extra columns). */
  afterRows?: () => Promise<void>;
}): Promise<BenchSeedResult> {
  const log = o.log ?? (() => {});
  const started = performance.now();
  const seconds = () => ((performance.now() - started) / 1000).toFixed(1);
  await restoreIndexes(db, log);
  const ids = await demoIds(db, o.scryptCost);
  const others = await otherOrgs(db, o.scryptCost);
  const orgs: BenchOrg[] = [
    { bucketId: ids.hospitalId, share: 0.4, reporters: [ids.accounts.rad1, ids.accounts.rad2], approver: ids.accounts.chief, remote: false, assignees: [ids.accounts.rad1] },
    { bucketId: ids.expertCentreId, share: 0.1, reporters: [ids.accounts.expert], approver: ids.accounts.expert, remote: true, assignees: [ids.accounts.expert] },
    ...others.map((x) => ({ bucketId: x.bucketId, share: 0.5 / OTHER_ORGS, reporters: [x.reporter], approver: x.reporter, remote: false, assignees: [] })),
  ];
  if (o.add > 0) {
    let lastShown = 0;
    await insertBenchExams(db, {
      count: o.add, now: new Date(), days: o.days, orgs,
      onProgress: (done, total) => {
        if (done === total || performance.now() - lastShown > 10_000) {
          lastShown = performance.now();
          log(`  ${done.toLocaleString('en')} / ${total.toLocaleString('en')} exams (${seconds()} s)`);
        }
      },
    });
    log(`rows written (${seconds()} s); building indexes`);
    await o.afterRows?.();
    await restoreIndexes(db, log);
    log(`indexes built (${seconds()} s); vacuum analyze`);
  }
  await db.execute(sql`vacuum analyze exams`);
  await db.execute(sql`vacuum analyze reports`);
  const exams = await examCount(db);
  log(`done in ${seconds()} s: ${exams.toLocaleString('en')} exams in the database`);
  return { exams, added: o.add };
}
