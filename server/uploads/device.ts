import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { devices, exams } from '../db/schema';

/**
 * The device (scanner) an uploaded exam was made on, for the device workload statistics (areas §5): the
 * organisation's device whose AE title or name equals the file's Station Name (0008,1010), case-insensitively, an
 * AE title match before a name match. Set once, from the first file that names a known station; an exam whose
 * device is known already (set by the desk, or by an earlier file) keeps it. One statement, a no-op when nothing
 * matches.
 */
export async function matchDevice(db: Db, target: { bucketId: number; examId: number }, stationName: string | null): Promise<void> {
  const station = stationName?.trim().toLowerCase();
  if (!station) return;
  const match = sql`select ${devices.id} as id from ${devices}
    where ${devices.bucketId} = ${target.bucketId} and (lower(${devices.aeTitle}) = ${station} or lower(${devices.name}) = ${station})
    order by (lower(${devices.aeTitle}) = ${station}) is true desc, ${devices.sortOrder}, ${devices.id} limit 1`;
  await db.execute(sql`update ${exams} set device_id = m.id from (${match}) m where ${exams.id} = ${target.examId} and ${exams.deviceId} is null`);
}
