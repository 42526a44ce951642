import { and, eq, getTableColumns, isNull, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgInsertSelectQueryBuilder, QueryBuilder } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';
import { withFastRows } from '../db/fastRows';
import { preparedOnce } from '../db/preparedOnce';
import { accounts, dicomInstances, exams } from '../db/schema';

/**
 * The statements every uploaded file runs, made once per database handle (server/db/preparedOnce.ts): drizzle built
 * each one's SQL again for every file, and the ingest path is timed against Orthanc (issue 18). On PostgreSQL they run
 * on the planned pool: primary-key and unique-key lookups whose plan never depends on the values.
 */
const p = sql.placeholder;
/** The exam an upload permit names: in its organisation, not deleted. */
const permitExam = and(eq(exams.id, p('exam')), eq(exams.bucketId, p('bucket')), isNull(exams.deletedTime));

/**
 * A session permit's account (status and token version) and the exam's Study Instance UID, in one statement: the
 * account row is always there for a live permit, and the exam is left-joined, so a missing or deleted exam is a row
 * with a null exam id. No row: the account is gone.
 */
export function sessionTargetStatement(db: Db) {
  return preparedOnce(db, 'upload_session_target', (on) => withFastRows(on
    .select({ status: accounts.status, tokenVersion: accounts.tokenVersion, examId: exams.id, storeUid: exams.storeUid })
    .from(accounts)
    .leftJoin(exams, permitExam)
    .where(eq(accounts.id, p('account')))
    .prepare('upload_session_target')));
}

/** The exam's Study Instance UID (permits of other causes: their cause is read by liveCause beside it). */
export function examStoreUidStatement(db: Db) {
  return preparedOnce(db, 'upload_exam_store_uid', (on) => withFastRows(on
    .select({ storeUid: exams.storeUid })
    .from(exams)
    .where(permitExam)
    .prepare('upload_exam_store_uid')));
}

export type InstanceInsert = Omit<typeof dicomInstances.$inferInsert, 'id' | 'created'> & { created: Date };

const instanceKeys = [
  'examId', 'bucketId', 'studyInstanceUid', 'seriesInstanceUid', 'sopInstanceUid', 'sopClassUid', 'transferSyntaxUid',
  'modality', 'seriesNumber', 'seriesDescription', 'instanceNumber', 'rows', 'columns', 'frames', 'storageKey', 'size',
  'uploadedBy', 'created',
] as const satisfies readonly (keyof InstanceInsert)[];

/**
 * One file's instance row, or none when the exam holds that SOP Instance UID already (a file sent twice). Every value
 * is a placeholder, encoded by its column when the statement runs (the time as drizzle writes it).
 */
function instanceInsertStatement(db: Db) {
  return preparedOnce(db, 'upload_instance_insert', (on) => on.insert(dicomInstances)
    .values(Object.fromEntries(instanceKeys.map((k) => [k, p(k)])) as unknown as typeof dicomInstances.$inferInsert)
    .onConflictDoNothing({ target: [dicomInstances.examId, dicomInstances.sopInstanceUid] })
    .returning()
    .prepare('upload_instance_insert'));
}

/** The row's placeholder values: every key, absent ones as null, one frame unless said. */
function instanceValues(row: InstanceInsert): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const k of instanceKeys) values[k] = row[k] ?? null;
  values.frames = row.frames ?? 1;
  return values;
}

export async function insertInstance(db: Db, row: InstanceInsert): Promise<typeof dicomInstances.$inferSelect | undefined> {
  const [inserted] = await instanceInsertStatement(db).execute(instanceValues(row));
  return inserted;
}

/**
 * The casts an INSERT … SELECT needs for its placeholders: PostgreSQL types a bare parameter in a select list as text,
 * which converts to varchar on insert but not to integer or timestamptz.
 */
const castOf: Partial<Record<keyof InstanceInsert, string>> = {
  seriesNumber: 'integer', instanceNumber: 'integer', rows: 'integer', columns: 'integer', frames: 'integer', size: 'bigint',
  uploadedBy: 'integer', created: 'timestamptz',
};

/**
 * The instance row of a file sent under a session permit this process has read before, written only while that permit
 * is still what it was read as: its account enabled with the same token version, the exam in its organisation, not
 * deleted, with the same Study Instance UID. Checked in the insert's own statement, so the read per file is not needed
 * and nothing is ever written on an old read. No row: the permit or the exam changed, or the file is a duplicate; the
 * caller reads the permit again and goes the ordinary way.
 */
function checkedInsertStatement(db: Db) {
  return preparedOnce(db, 'upload_instance_insert_checked', (on) => {
    const fields: Record<string, SQL | AnyPgColumn> = {};
    for (const key of Object.keys(getTableColumns(dicomInstances)) as (keyof typeof dicomInstances.$inferSelect)[]) {
      // The serial column's own sequence: a select list cannot say DEFAULT.
      if (key === 'id') fields.id = sql`nextval('dicom_instances_id_seq')`;
      else if (key === 'examId') fields.examId = exams.id;
      else if (key === 'bucketId') fields.bucketId = exams.bucketId;
      else {
        const cast = castOf[key];
        fields[key] = cast ? sql`${p(key)}::${sql.raw(cast)}` : sql`${p(key)}`;
      }
    }
    const select = (qb: QueryBuilder) => qb.select(fields).from(accounts)
      .innerJoin(exams, and(permitExam, sql`${exams.storeUid} is not distinct from ${p('storeUid')}`))
      .where(and(eq(accounts.id, p('account')), eq(accounts.status, 0), eq(accounts.tokenVersion, p('tokenVersion'))));
    // The fields are the table's columns in its order (drizzle checks that when it builds the statement); their types
    // are the table's only through the casts above, which TypeScript cannot follow.
    return on.insert(dicomInstances)
      .select(select as unknown as (qb: QueryBuilder) => PgInsertSelectQueryBuilder<typeof dicomInstances>)
      .onConflictDoNothing({ target: [dicomInstances.examId, dicomInstances.sopInstanceUid] })
      .returning()
      .prepare('upload_instance_insert_checked');
  });
}

export interface PermitAsRead { account: number; tokenVersion: number; storeUid: string | null }

export async function insertInstanceChecked(db: Db, row: InstanceInsert, permit: PermitAsRead): Promise<typeof dicomInstances.$inferSelect | undefined> {
  // The time as text: in a select list it is cast, not encoded by its column.
  const values = { ...instanceValues(row), exam: row.examId, bucket: row.bucketId, ...permit, created: row.created.toISOString() };
  const [inserted] = await checkedInsertStatement(db).execute(values);
  return inserted;
}
