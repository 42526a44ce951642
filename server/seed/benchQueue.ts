import { eq, sql } from 'drizzle-orm';
import { dayIn } from '../../contract/days';
import type { Db } from '../db/client';
import * as t from '../db/schema';

/**
 * A day of the call queue for the department bench (`npm run bench:department`): today's entries of the organisation's
 * queues topped up to `count`, spread over its queue types in turn, each for an exam of the organisation not yet in a
 * queue today (the newest first). The morning so far: the first 60 % of each queue served, 5 % passed (missed), the
 * one after them called, the rest waiting in number order. Generated inside the database (insert … select): no row
 * crosses the wire. The counters continue after the last number, so check-ins during the bench take the next ones.
 */
export async function insertBenchQueue(db: Db, o: { bucketId: number; count: number; now: Date; operatorId: number }): Promise<{ day: string; entries: number }> {
  const [bucket] = await db.select({ timeZone: t.buckets.timeZone }).from(t.buckets).where(eq(t.buckets.id, o.bucketId));
  const day = dayIn(o.now, bucket?.timeZone ?? 'Asia/Shanghai');
  const types = await db.select({ id: t.queueTypes.id, prefix: t.queueTypes.prefix }).from(t.queueTypes)
    .where(eq(t.queueTypes.bucketId, o.bucketId)).orderBy(t.queueTypes.sortOrder, t.queueTypes.id);
  if (types.length === 0) throw new Error('the organisation has no queue types: seed the demo first');
  const have = await entryCount(db, o.bucketId, day);
  const add = o.count - have;
  if (add <= 0) return { day, entries: have };
  const typeIds = sql.raw(`array[${types.map((q) => q.id).join(',')}]::int[]`);
  const prefixes = sql.raw(`array[${types.map((q) => `'${q.prefix.replaceAll("'", "''")}'`).join(',')}]::text[]`);
  const now = o.now.toISOString();
  // Numbers per queue after the ones issued today; statuses by the rank within the queue's new block (the bench's own
  // entries are its whole day, so the block is the queue).
  await db.execute(sql`
    with picked as (
      select e.id as exam_id, row_number() over (order by e.id desc) - 1 as n
      from exams e
      where e.bucket_id = ${o.bucketId} and e.deleted_time is null
        and not exists (select 1 from queue_entries q where q.exam_id = e.id and q.day = ${day})
      order by e.id desc limit ${add}
    ), placed as (
      select p.exam_id, (${typeIds})[1 + (p.n % ${types.length})] as queue_type_id, (${prefixes})[1 + (p.n % ${types.length})] as prefix,
        coalesce((select c.last_seq from queue_counters c where c.queue_type_id = (${typeIds})[1 + (p.n % ${types.length})] and c.day = ${day}), 0)
          + row_number() over (partition by p.n % ${types.length} order by p.n) as seq,
        row_number() over (partition by p.n % ${types.length} order by p.n) as rank,
        count(*) over (partition by p.n % ${types.length}) as size
      from picked p
    )
    insert into queue_entries (bucket_id, queue_type_id, exam_id, day, seq, queue_no, status, position, check_in_time, called_time, called_by, call_count)
    select ${o.bucketId}, queue_type_id, exam_id, ${day}, seq, prefix || lpad(seq::text, 3, '0'),
      case when rank <= size * 0.60 then 'served' when rank <= size * 0.65 then 'passed' when rank = floor(size * 0.65) + 1 then 'called' else 'waiting' end,
      seq, ${now}::timestamptz - make_interval(secs => (size - rank + 1) * 20),
      case when rank <= size * 0.65 + 1 then ${now}::timestamptz - make_interval(secs => (size - rank + 1) * 10) end,
      case when rank <= size * 0.65 + 1 then ${o.operatorId}::int end,
      case when rank <= size * 0.65 + 1 then 1 else 0 end
    from placed`);
  await db.execute(sql`
    insert into queue_counters (queue_type_id, day, last_seq)
    select queue_type_id, day, max(seq) from queue_entries where bucket_id = ${o.bucketId} and day = ${day} group by queue_type_id, day
    on conflict (queue_type_id, day) do update set last_seq = greatest(queue_counters.last_seq, excluded.last_seq)`);
  await db.execute(sql`analyze queue_entries`);
  return { day, entries: await entryCount(db, o.bucketId, day) };
}

export async function entryCount(db: Db, bucketId: number, day: string): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(t.queueEntries)
    .where(sql`${t.queueEntries.bucketId} = ${bucketId} and ${t.queueEntries.day} = ${day}`);
  return Number(row?.n ?? 0);
}
