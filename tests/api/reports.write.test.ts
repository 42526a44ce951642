import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadReport } from '../../server/reports/load';
import { writeReport, type RowUpdate } from '../../server/reports/write';
import { act, examRow, reportIn, reportRow, tracesOf } from '../support/reports';
import { startServer, type TestServer } from '../support/server';

/**
 * server/reports/write.ts, the one statement of a report action (issue 18): it writes the row only at the version it
 * was read at, and the trace and the exam copy only when the row was written. A write that meets a moved-on version
 * changes nothing at all — the action then takes the locked way (tests/api/reports.concurrency.test.ts races it).
 */
let s: TestServer;
beforeAll(async () => { s = await startServer({ exams: 3 }); });
afterAll(async () => { await s.close(); });

const traceOf = (accountId: number) => ({ accountId, action: 'submit', reason: null, created: s.clock.now() });

describe('the report write statement', () => {
  it('writes nothing — row, trace or exam copy — when someone wrote the row after it was read', async () => {
    const r = await reportIn(s, 'partial');
    const read = (await loadReport(s.db.db, r.id))!.row;
    const other = await act(s, 'rad1', r, 'save', { version: r.version, finding: '<p>先到的保存</p>' });
    expect(other.status).toBe(200);
    const [rowBefore, tracesBefore, examBefore] = [await reportRow(s, r.id), await tracesOf(s, r.id), await examRow(s, r.examId)];

    const update: RowUpdate = { status: 'final', finding: '<p>迟到的提交</p>', submittedTime: s.clock.now() };
    const written = await writeReport(s.db.db, {
      row: read, update, syncExamId: r.examId, trace: traceOf(s.ids.accounts.rad1),
    });
    expect(written).toBeNull();
    expect(await reportRow(s, r.id)).toEqual(rowBefore);
    expect(await tracesOf(s, r.id)).toEqual(tracesBefore);
    expect(await examRow(s, r.examId)).toEqual(examBefore);
  });

  it('writes the row, its trace and the exam copy at the version read, with nulls, times and JSON of any shape', async () => {
    const r = await reportIn(s, 'partial');
    const read = (await loadReport(s.db.db, r.id))!.row;
    expect(read.savedTime).not.toBeNull();
    const at = new Date('2026-11-26T08:09:10.123Z');
    // One shape sets a time, the next sets the same column to null: each value is bound on its own.
    for (const [i, update] of ([
      { status: 'final', submittedTime: at, extensions: { 床号: '12', list: [1, 2] }, positive: true },
      { status: 'partial', submittedTime: null, savedTime: null, extensions: {}, positive: null, note: null },
    ] as RowUpdate[]).entries()) {
      const before = (await loadReport(s.db.db, r.id))!.row;
      const written = await writeReport(s.db.db, {
        row: before, update, syncExamId: r.examId, trace: traceOf(s.ids.accounts.rad1),
      });
      expect(written).not.toBeNull();
      const row = await reportRow(s, r.id);
      expect(row).toMatchObject({ ...update, version: r.version + 1 + i });
      const { names, ...answered } = written!;
      expect(answered).toEqual(row);
      expect(names).toEqual([[s.ids.accounts.rad1, expect.any(String)]]);
      expect((await tracesOf(s, r.id)).at(-1)).toMatchObject({ fromStatus: before.status, toStatus: update.status, snapshot: { version: row.version } });
      expect(await examRow(s, r.examId)).toMatchObject({ reportId: r.id, reportStatus: update.status, reportCreatorId: s.ids.accounts.rad1 });
    }
  });
});
