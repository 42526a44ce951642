import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { devices, exams } from '../db/schema';

const RECENT_MAX = 1000;
/** Per database: one process may serve several (the tests do), where the same exam id means another exam. */
const recentByDb = new WeakMap<Db, Set<string>>();

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
  // A study's files name the same station: one try per exam and station is enough (the ingest path is timed against
  // Orthanc; 200 no-op updates were 200 round trips). Forgetting is harmless: the update is a no-op once set.
  const tried = `${target.examId}:${station}`;
  const recent = recentByDb.get(db) ?? new Set<string>();
  recentByDb.set(db, recent);
  if (recent.has(tried)) return;
  recent.add(tried);
  if (recent.size > RECENT_MAX) recent.delete(recent.values().next().value!);
  const match = sql`select ${devices.id} as id from ${devices}
    where ${devices.bucketId} = ${target.bucketId} and (lower(${devices.aeTitle}) = ${station} or lower(${devices.name}) = ${station})
    order by (lower(${devices.aeTitle}) = ${station}) is true desc, ${devices.sortOrder}, ${devices.id} limit 1`;
  await db.execute(sql`update ${exams} set device_id = m.id from (${match}) m where ${exams.id} = ${target.examId} and ${exams.deviceId} is null`);
}
