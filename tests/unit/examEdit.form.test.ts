import { describe, expect, it } from 'vitest';
import type { ExamListItem } from '../../contract/exams';
import { changesOf, formOf, missingFor } from '@/features/examEdit/form';

const exam = {
  id: 7, version: 3, patientName: '张三', patientId: 'P1', patientGender: 'M', patientDob: null, visitAge: '45Y', accessionNumber: 'A1',
  modality: 'CT', bodyPart: 'HEAD', studyDescription: null, applyDept: null, clinicImpression: null, inpatientId: null, bedNum: null,
  outpatientId: 'MZ-1', physicalExamId: null, patientSource: 'O', urgentFlag: false,
} as unknown as ExamListItem;

describe('the exam edit form', () => {
  it('sends only the changed fields with the version read, empty optional fields as null', () => {
    const form = { ...formOf(exam), patientName: ' 张三丰 ', bodyPart: '', modality: 'mr', urgentFlag: true };
    expect(changesOf(exam, form)).toEqual({ version: 3, patientName: '张三丰', bodyPart: null, modality: 'MR', urgentFlag: true });
    expect(changesOf(exam, formOf(exam))).toEqual({ version: 3 });
  });

  it('names the fields the chosen patient source needs, as the server’s rule does', () => {
    expect(missingFor(formOf(exam))).toEqual([]);
    expect(missingFor({ ...formOf(exam), patientSource: 'I' })).toEqual(['inpatientId', 'bedNum']);
    expect(missingFor({ ...formOf(exam), patientSource: 'P' })).toEqual(['physicalExamId']);
    expect(missingFor({ ...formOf(exam), patientSource: '' })).toEqual([]);
  });
});
