import { describe, expect, it } from 'vitest';
import type { Filter, Sort } from '../../contract/common';
import { QUICK_FILTER_MODALITIES } from '../../contract/exams';
import { pageShape } from '../../server/exams/prepared';

/**
 * Which exam-list requests run as a prepared statement (server/exams/prepared.ts): exactly the worklist's frequent
 * shapes, and nothing near them. A near miss must go to the general builder (pageShape answers null), or it would be
 * answered by a statement that leaves out what it asked.
 */
const AT = '2026-11-26T08:00:05.123Z';
const snapshot: Filter = { field: 'created', operator: 'lte', values: [AT] };
const byExamTime: Sort[] = [{ field: 'examTime', direction: 'desc' }];
const modality = (codes: readonly string[]): Filter => ({ field: 'modality', operator: 'in', values: [...codes] });
const status = (values: string[]): Filter => ({ field: 'reportStatus', operator: 'in', values });
const myTasks: Filter = { field: 'myTasks', operator: 'equal', values: [true] };
const reportable: Filter = { field: 'reportable', operator: 'equal', values: [true] };

describe('the prepared shapes of the exam list', () => {
  it.each([
    ['default view', [snapshot], byExamTime, 'none', 'examTime', []],
    ['the old default (no sort)', [snapshot], [], 'none', 'created', []],
    ['created desc asked for', [snapshot], [{ field: 'created', direction: 'desc' }], 'none', 'created', []],
    ['X-ray', [snapshot, modality(QUICK_FILTER_MODALITIES.xray)], byExamTime, 'modality', 'examTime', ['CR', 'DX']],
    ['CT, the filter first', [modality(QUICK_FILTER_MODALITIES.ct), snapshot], byExamTime, 'modality', 'examTime', ['CT']],
    ['a code as typed is read upper-case', [snapshot, modality(['mr'])], [], 'modality', 'created', ['MR']],
    ['unreported', [snapshot, status(['none'])], [], 'statusNone', 'created', []],
    ['key 6', [snapshot, status(['none', 'partial', 'locked'])], byExamTime, 'statusNoneOrNamed', 'examTime', ['partial', 'locked']],
    ['approved', [snapshot, status(['final', 'printed'])], byExamTime, 'statusNamed', 'examTime', ['final', 'printed']],
    ['my tasks', [snapshot, myTasks], [], 'myTasks', 'created', []],
  ] as [string, Filter[], Sort[], string, string, string[]][])('%s', (_name, filters, sorts, filter, order, values) => {
    const shape = pageShape(filters, sorts);
    expect(shape).toEqual({ filter, order, reportable: false, snapshot: new Date(AT), values });
  });

  // The worklist's default view asks only for exams a radiologist can report (contract/reportable.ts).
  it.each([
    ['default view', [snapshot, reportable], byExamTime, 'none', 'examTime', []],
    ['the filter first', [reportable, snapshot], [], 'none', 'created', []],
    ['with CT', [snapshot, reportable, modality(QUICK_FILTER_MODALITIES.ct)], byExamTime, 'modality', 'examTime', ['CT']],
    ['with key 6', [reportable, snapshot, status(['none', 'partial'])], byExamTime, 'statusNoneOrNamed', 'examTime', ['partial']],
    ['with my tasks', [snapshot, myTasks, reportable], [], 'myTasks', 'created', []],
  ] as [string, Filter[], Sort[], string, string, string[]][])('reportable only: %s', (_name, filters, sorts, filter, order, values) => {
    expect(pageShape(filters, sorts)).toEqual({ filter, order, reportable: true, snapshot: new Date(AT), values });
  });

  it.each([
    ['no snapshot', [], []],
    ['no snapshot, a quick filter only', [modality(['CT'])], byExamTime],
    ['another snapshot operator', [{ ...snapshot, operator: 'lt' }], byExamTime],
    ['a snapshot on exam time', [{ ...snapshot, field: 'examTime' }], byExamTime],
    ['two snapshots', [snapshot, snapshot], byExamTime],
    ['an extra filter', [snapshot, modality(['CT']), { field: 'urgentFlag', operator: 'equal', values: [true] }], byExamTime],
    ['two quick filters', [snapshot, modality(['CT']), myTasks], byExamTime],
    ['reportable false (the booked lines only)', [snapshot, { ...reportable, values: [false] }], byExamTime],
    ['reportable twice', [snapshot, reportable, reportable], byExamTime],
    ['reportable and two quick filters', [snapshot, reportable, modality(['CT']), myTasks], byExamTime],
    ['reportable without a snapshot', [reportable], byExamTime],
    ['reportable and an extra filter', [snapshot, reportable, { field: 'urgentFlag', operator: 'equal', values: [true] }], byExamTime],
    ['a bucketId filter (narrows the scope)', [snapshot, { field: 'bucketId', operator: 'in', values: [1] }], byExamTime],
    ['the deleted view', [snapshot, { field: 'deletedTime', operator: 'gte', values: [AT] }], byExamTime],
    ['modality equal', [snapshot, { field: 'modality', operator: 'equal', values: ['CT'] }], byExamTime],
    ['modality notEqual', [snapshot, { field: 'modality', operator: 'notEqual', values: ['CT'] }], byExamTime],
    ['reportStatus notEqual', [snapshot, { field: 'reportStatus', operator: 'notEqual', values: ['none'] }], byExamTime],
    ['reportStatus equal', [snapshot, { field: 'reportStatus', operator: 'equal', values: ['none'] }], byExamTime],
    ['myTasks false', [snapshot, { ...myTasks, values: [false] }], byExamTime],
    ['a text filter', [snapshot, { field: 'patientName', operator: 'like', values: ['李明'] }], byExamTime],
    ['report text', [snapshot, { field: 'reportText', operator: 'like', values: ['磨玻璃结节'] }], []],
    ['exam time ascending', [snapshot], [{ field: 'examTime', direction: 'asc' }]],
    ['created ascending', [snapshot], [{ field: 'created', direction: 'asc' }]],
    ['another sort', [snapshot], [{ field: 'patientName', direction: 'desc' }]],
    ['two sorts', [snapshot], [{ field: 'examTime', direction: 'desc' }, { field: 'id', direction: 'desc' }]],
    ['deletedTime sort (created outside the deleted view, still not a shape)', [snapshot], [{ field: 'deletedTime', direction: 'desc' }]],
  ] as [string, Filter[], Sort[]][])('near miss to the builder: %s', (_name, filters, sorts) => {
    expect(pageShape(filters, sorts)).toBeNull();
  });
});
