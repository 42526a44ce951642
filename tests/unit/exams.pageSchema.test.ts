import fastJson from 'fast-json-stringify';
import { describe, expect, it } from 'vitest';
import type { ExamPage } from '../../contract/exams';
import type { exams } from '../../server/db/schema';
import { examPageSchema } from '../../server/exams/pageSchema';
import { toListItem, type ListRow } from '../../server/exams/present';

/**
 * The exam page's response schema writes exactly what JSON.stringify wrote: every field of a worklist row (a field
 * the schema forgot would be dropped silently), in the same order, with the same bytes — for rows full of values
 * (quotes, back slashes, control characters, lone surrogates, long texts, fractions, NaN, nested JSON) and rows of
 * nulls.
 */
type ExamRow = typeof exams.$inferSelect;
const write = fastJson(examPageSchema);

// The columns toListItem reads (the exam row has more: registration, device… which a worklist row does not carry).
const full = {
  id: 2_000_000_001, bucketId: 3, targetBucketId: 4, orderId: 'O"1', patientKeyId: 'K\\1', patientName: '王^小东 "Wang"',
  patientId: 'P\u0001\u001f', patientGender: 'M', patientDob: '1980-02-29', visitAge: '045Y', weight: 70.25, height: Number.NaN,
  patientClass: 'I', patientSource: 'IP', inpatientId: 'ZY\ud800', bedNum: '3-12', outpatientId: 'MZ\u2028', physicalExamId: 'TJ',
  serviceRequestId: 'SR', accessionNumber: 'A'.repeat(64), modality: 'CT', bodyPart: '胸部', bodyPartCount: 2,
  studyDescription: 'x'.repeat(256), clinicImpression: `咳嗽\n发热 ${'很长'.repeat(3000)}`, applyDept: 'Resp\t',
  urgentFlag: true, teleMedFlag: false, storeUid: '1.2.3', openPath: '/a b', hasImage: true, showVideo: false,
  formImgUrls: ['a.png', 'b "c".png'], extensions: { nested: { list: [1, 'two', null, { x: -0.5 }] }, emoji: '😀' },
  aiStatus: 'done', assigneeId: 9, isRemoteReportRequested: true, reportType: 'report', reportId: 77, reportStatus: 'final',
  reportCreatorId: 8, examTime: new Date('2026-11-26T08:09:10.123Z'), uploadTime: new Date('2026-11-26T08:10:00Z'),
  created: new Date('2026-11-26T08:00:00Z'), deletedTime: null,
} as unknown as ExamRow;

const empty = {
  ...full, targetBucketId: null, orderId: null, patientKeyId: null, patientName: '', patientDob: null, visitAge: null, weight: null,
  height: null, patientClass: null, patientSource: null, inpatientId: null, bedNum: null, outpatientId: null, physicalExamId: null,
  serviceRequestId: null, accessionNumber: null, bodyPart: null, studyDescription: null, clinicImpression: null, applyDept: null,
  storeUid: null, openPath: null, formImgUrls: [], extensions: {}, aiStatus: null, assigneeId: null, reportId: null,
  reportStatus: null, reportCreatorId: null, uploadTime: null, deletedTime: new Date('2026-11-27T00:00:00Z'),
} as ExamRow;

const row = (exam: ExamRow, names: string | null): ListRow => ({
  exam, bucketName: names, reportCreatorName: names, assigneeName: names, reportPositive: names === null ? null : true, report: null,
});

describe('the exam page schema', () => {
  it('names every field a row has, in the order rows are written', () => {
    const keys = Object.keys(toListItem(row(full, 'n')));
    expect(Object.keys(examPageSchema.properties.items.items.properties)).toEqual(keys);
    expect(keys.length).toBeGreaterThan(50);
  });

  it.each([
    ['full rows', [row(full, '医院 "一"'), row({ ...full, weight: 0.1 + 0.2, height: -0 }, 'x\ud83d')]],
    ['rows of nulls', [row(empty, null), row({ ...empty, patientName: '\u0000' }, '')]],
  ])('writes %s byte for byte as JSON.stringify', (_, rows) => {
    for (const [total, totalIsEstimate] of [[2, false], [123456, true]] as const) {
      const page: ExamPage = { items: rows.map((r) => toListItem(r)), total, totalIsEstimate };
      expect(write(page)).toBe(JSON.stringify(page));
    }
    const none: ExamPage = { items: [], total: 0, totalIsEstimate: false };
    expect(write(none)).toBe(JSON.stringify(none));
  });
});
