import { asc, inArray } from 'drizzle-orm';
import { sql } from 'drizzle-orm';
import * as t from '../../server/db/schema';
import type { TestServer } from './server';

export type ExamRow = typeof t.exams.$inferSelect;

/** Every exam of the given organisations as stored (the oracle the list answers are checked against). */
export async function examRows(s: TestServer, bucketIds: number[]): Promise<ExamRow[]> {
  return s.db.db.select().from(t.exams).where(inArray(t.exams.bucketId, bucketIds)).orderBy(asc(t.exams.id));
}

/** POST exams/page-query as the token's account; throws on anything but 200 so a test reads as its assertion. */
export async function pageQuery(s: TestServer, token: string, body: Record<string, unknown>) {
  const res = await s.request('POST', 'exams/page-query', { token, body });
  if (res.status !== 200) throw new Error(`page-query ${JSON.stringify(body)}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { items: ({ id: number } & Record<string, unknown>)[]; total: number; totalIsEstimate: boolean };
}

/**
 * `count` plain exams in one organisation straight in SQL (generate_series): enough rows for the count threshold or
 * the export limit without thousands of round trips. Created one minute apart, newest at `now`.
 */
export async function bulkExams(s: TestServer, bucketId: number, count: number, prefix = 'BULK'): Promise<void> {
  const now = s.clock.now();
  await s.db.db.execute(sql`
    insert into exams (bucket_id, patient_name, patient_id, modality, body_part, exam_time, created)
    select ${bucketId}, ${prefix} || '患者' || g, ${prefix} || g, (array['CT','MR','DX','US'])[1 + g % 4], '胸部',
      ${now}::timestamptz - make_interval(mins => g), ${now}::timestamptz - make_interval(mins => g)
    from generate_series(1, ${count}) g`);
}

/** A draft report with `finding` for every exam of the organisation, made current on its exam (as the report area does). */
export async function bulkReports(s: TestServer, bucketId: number, finding: string): Promise<void> {
  await s.db.db.execute(sql`
    insert into reports (exam_id, bucket_id, source_bucket_id, status, finding, diagnosis)
    select id, bucket_id, bucket_id, 'partial', ${finding}, '' from exams where bucket_id = ${bucketId}`);
  await s.db.db.execute(sql`
    update exams e set report_id = r.id, report_status = r.status
    from reports r where r.exam_id = e.id and e.bucket_id = ${bucketId}`);
}
