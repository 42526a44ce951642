import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { withFastRows } from '../db/fastRows';
import { preparedOnce } from '../db/preparedOnce';
import { reportTraces, reports } from '../db/schema';
import { selfFacts, syncExamCte } from './examSync';
import type { ReportRow } from './load';
import { traceSnapshot } from './traceSnapshot';
import { namesOfRow } from './view';

export type RowUpdate = Partial<typeof reports.$inferInsert>;

/** One action's write of a report read at `row.version`. */
export interface ReportWrite {
  row: ReportRow;
  /** The columns the action sets; undefined is "unchanged", as drizzle's set has it. */
  update: RowUpdate;
  trace: { accountId: number; action: string; reason: string | null; created: Date };
  /** The exam whose worklist copy the statement brings up to date, or null: the caller runs syncExams. */
  syncExamId: number | null;
}

/** The row as `update` will leave `row` (undefined is "unchanged", as drizzle's set has it): the trace's snapshot and the exam copy are made of it. */
export function plannedRow(row: ReportRow, update: RowUpdate): ReportRow {
  const writing: ReportRow = { ...row, version: row.version + 1 };
  for (const [key, value] of Object.entries(update)) if (value !== undefined) Object.assign(writing, { [key]: value });
  return writing;
}

const p = sql.placeholder;
const columns = getTableColumns(reports);

/** How the statement makes the exam copy: not at all, from the other reports alone, or with the written one. */
type SyncShape = 'none' | 'others' | 'self';

/**
 * The statement of one shape: the set columns (`setKeys`) and the exam copy's shape make its text; every value is a
 * placeholder. It writes the row if its version is still the one read, then, from what it wrote, the trace and the
 * exam copy, and brings the row back with the names of the people it mentions (what namesFor reads): a write that
 * matches nothing writes nothing at all.
 */
function build(db: Db, setKeys: readonly string[], sync: SyncShape, name: string) {
  // Each set value is a bare placeholder (as SQL, which drizzle's set keeps as it is): writeReport encodes the values
  // with their columns' encoders itself, because drizzle's placeholder binding calls them on nulls too.
  const set = Object.fromEntries([...setKeys.map((k) => [k, sql`${p(`s_${k}`)}`]), ['version', p('next_version')]]) as RowUpdate;
  const written = db.$with('written').as(db.update(reports).set(set)
    .where(and(eq(reports.id, p('id')), eq(reports.version, p('version'))))
    .returning({ ...getTableColumns(reports), names: namesOfRow.as('names') }));
  const wrote = sql`exists (select 1 from ${sql.identifier('written')})`;
  const trace = db.$with('trace', { id: sql<number>`id` }).as(sql`insert into ${reportTraces}
    (report_id, account_id, action, from_status, to_status, reason, snapshot, created)
    select ${p('id')}::int, ${p('t_account')}::int, ${p('t_action')}::varchar, ${p('t_from')}::varchar, ${p('t_to')}::varchar,
      ${p('t_reason')}::varchar, ${p('t_snapshot')}::jsonb, ${p('t_created')}::timestamptz
    where ${wrote} returning id`);
  const self = { id: p('id'), status: p('e_status'), creatorId: p('e_creator'), written: p('e_written') };
  const examSync = sync === 'none' ? null
    : syncExamCte(db, { id: p('e_exam'), asJson: p('e_exam_json') }, p('id'), sync === 'self' ? self : null, wrote);
  return withFastRows((examSync ? db.with(written, trace, examSync) : db.with(written, trace)).select().from(written).prepare(name));
}

/** Statement names by shape: the same shape has the same text everywhere, so one name serves every connection. */
const names = new Map<string, string>();

/** Writes the report, its trace and (when `syncExamId` is given) the exam copy in one statement; null when the version moved on. */
export async function writeReport(db: Db, w: ReportWrite) {
  const { row, update, trace, syncExamId } = w;
  const writing = plannedRow(row, update);
  const setKeys = Object.keys(update).filter((k) => update[k as keyof RowUpdate] !== undefined).sort();
  const self = syncExamId === null ? null : selfFacts(syncExamId, writing);
  const sync: SyncShape = syncExamId === null ? 'none' : self ? 'self' : 'others';
  const key = `${setKeys.join(',')}|${sync}`;
  let name = names.get(key);
  if (!name) names.set(key, (name = `report_write_${names.size}`));
  const statement = preparedOnce(db, name, (on) => build(on, setKeys, sync, name));

  const values: Record<string, unknown> = {
    id: row.id, version: row.version, next_version: row.version + 1,
    t_account: trace.accountId, t_action: trace.action, t_from: row.status, t_to: writing.status, t_reason: trace.reason,
    t_snapshot: JSON.stringify(traceSnapshot(writing)), t_created: trace.created.toISOString(),
    e_exam: syncExamId, e_exam_json: JSON.stringify([syncExamId]),
    e_status: self?.status ?? null, e_creator: self?.creatorId ?? null, e_written: self?.written ?? null,
  };
  for (const k of setKeys) {
    const value = update[k as keyof RowUpdate];
    values[`s_${k}`] = value === null ? null : columns[k as keyof typeof columns].mapToDriverValue(value);
  }
  const [returned] = await statement.execute(values);
  return returned ?? null;
}
