import { sql, type SQL } from 'drizzle-orm';
import { exams } from '../db/schema';

/**
 * An exam's latest MPPS (dicom_mpps, newest N-CREATE first) as one JSON text column, for the registry's and the call
 * queue's selects (contract/mpps.ts mppsProgressOf reads it). A correlated subquery on the exam index: the lists it
 * joins are a page of lines or one day's queue.
 */
export const mppsColumn: SQL<string | null> = sql<string | null>`(select json_build_object('status', m.status, 'stationAe', m.station_ae, 'callingAe', m.calling_ae, 'created', m.created, 'updated', m.updated, 'images', m.images)::text from dicom_mpps m where m.exam_id = ${exams.id} order by m.created desc limit 1)`;
