import { describe, expect, it } from 'vitest';
import { toStudyInput, withLocalOffset, type ExamForm } from '../../src/features/upload/examForm';
import { formatBytes } from '../../src/lib/format';
import { percent } from '../../src/features/upload/format';

const form: ExamForm = {
  studyInstanceUid: '1.2.840.113619.2.1', patientName: ' 张三 ', patientId: 'P001', patientGender: 'M', patientDob: '1980-02-03',
  visitAge: '45y', modality: 'ct', bodyPart: '', studyDescription: 'Chest', accessionNumber: '', examTime: '2024-05-06T08:30',
};

describe('exam info as the upload takes it', () => {
  it('trims, upper-cases the modality and age unit, drops empty optional fields and adds the zone offset', () => {
    const { input, problems } = toStudyInput(form);
    expect(problems).toEqual({});
    expect(input).toMatchObject({ patientName: '张三', modality: 'CT', visitAge: '45Y', bodyPart: null, accessionNumber: null, studyDescription: 'Chest' });
    expect(input!.examTime).toMatch(/^2024-05-06T08:30:00[+-]\d{2}:\d{2}$/);
  });

  it('says which required field is missing and which value is not valid', () => {
    expect(toStudyInput({ ...form, patientName: '  ', modality: 'C T!' }).problems).toEqual({ patientName: 'required', modality: 'invalid' });
    expect(toStudyInput({ ...form, visitAge: '45 years' }).problems).toEqual({ visitAge: 'invalid' });
  });

  it('writes a local time with the offset of that date', () => {
    expect(withLocalOffset('2024-01-02T03:04:05')).toMatch(/^2024-01-02T03:04:05[+-]\d{2}:\d{2}$/);
    expect(withLocalOffset('not a time')).toBeNull();
  });
});

describe('file sizes and percentages', () => {
  it('counts in steps of 1024 with the units of core §9', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 kB');
    expect(formatBytes(5 * 1024 * 1024)).toBe('5.0 MB');
    expect(formatBytes(3 * 1024 ** 4)).toBe('3.0 TB');
  });

  it('never shows 100% before the end', () => {
    expect(percent(0.999)).toBe('99%');
    expect(percent(1)).toBe('100%');
    expect(percent(-1)).toBe('0%');
  });
});
