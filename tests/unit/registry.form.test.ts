import { describe, expect, it } from 'vitest';
import type { RegistryRow } from '../../contract/registry';
import { HUMAN_GENDERS, PET_GENDERS, REGISTRY_MAX_EXAMS } from '../../contract/registry';
import { addDays, dayIn, dayRange, instantOf, timeIn } from '../../contract/days';
import { draftOf, emptyDraft, newLine, toInput, validate, withRecord } from '../../src/features/registry/form/draft';
import { sameDayProblem } from '../../src/features/registry/labels/sameDay';

/** The registry desk's pure rules: the organisation's days and times, the form's checks (mirroring areas §5), the request it sends, labels of one day. */
const ZONE = 'Asia/Shanghai';
const TODAY = '2026-11-25';
const steps = [{ id: 7, name: 'CT 胸部平扫', modality: 'CT', bodyPart: '胸部', reportDuringExam: false }];

const filled = () => ({ ...emptyDraft(TODAY, '09:30'), patientName: '王小东', patientGender: 'M', outpatientId: 'MZ1', lines: [newLine(TODAY, '09:30', { procedureStepId: 7 })] });

describe('days in the organisation time zone', () => {
  it('reads the zone wall clock, not the browser one', () => {
    const instant = new Date('2026-11-24T17:30:00Z'); // 01:30 on the 25th in Shanghai
    expect(dayIn(instant, ZONE)).toBe('2026-11-25');
    expect(timeIn(instant, ZONE)).toBe('01:30');
    expect(dayIn(instant, 'UTC')).toBe('2026-11-24');
  });
  it('turns a day and time back into the instant, across a daylight-saving change too', () => {
    expect(instantOf('2026-11-25', '01:30', ZONE).toISOString()).toBe('2026-11-24T17:30:00.000Z');
    expect(instantOf('2026-03-29', '12:00', 'Europe/Berlin').toISOString()).toBe('2026-03-29T10:00:00.000Z');
    expect(instantOf('2026-03-28', '12:00', 'Europe/Berlin').toISOString()).toBe('2026-03-28T11:00:00.000Z');
  });
  it('gives a day range from midnight to midnight and adds days over month ends', () => {
    expect(dayRange('2026-11-25', ZONE)).toEqual({ from: '2026-11-24T16:00:00.000Z', to: '2026-11-25T16:00:00.000Z' });
    expect(addDays('2026-11-30', 1)).toBe('2026-12-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });
});

describe('the form checks what the server checks', () => {
  it('accepts a complete registration', () => {
    expect(validate(filled(), TODAY, HUMAN_GENDERS)).toEqual({});
  });
  it('needs a name, a sex of the domain and whole-number ages', () => {
    const errors = validate({ ...filled(), patientName: ' ', patientGender: 'MS', age: '4.5' }, TODAY, HUMAN_GENDERS);
    expect(errors).toMatchObject({ patientName: 'registry.errors.required', patientGender: 'registry.errors.gender', age: 'registry.errors.age' });
    expect(validate({ ...filled(), patientGender: 'MS' }, TODAY, PET_GENDERS).patientGender).toBeUndefined();
  });
  it('presets no sex: the registrar must choose one, Unknown included (issue 32)', () => {
    const fresh = { ...emptyDraft(TODAY, '09:30'), patientName: '王小东', outpatientId: 'MZ1', lines: [newLine(TODAY, '09:30', { procedureStepId: 7 })] };
    expect(fresh.patientGender).toBe('');
    expect(validate(fresh, TODAY, HUMAN_GENDERS)).toEqual({ patientGender: 'registry.errors.gender' });
    expect(validate({ ...fresh, patientGender: 'U' }, TODAY, HUMAN_GENDERS)).toEqual({});
  });
  it('asks for the ids each patient source needs', () => {
    expect(validate({ ...filled(), patientSource: 'I', outpatientId: '' }, TODAY, HUMAN_GENDERS)).toMatchObject({ inpatientId: 'registry.errors.sourceId', bedNum: 'registry.errors.sourceId' });
    expect(validate({ ...filled(), patientSource: 'NO', outpatientId: '' }, TODAY, HUMAN_GENDERS)).toMatchObject({ outpatientId: 'registry.errors.sourceId' });
    expect(validate({ ...filled(), patientSource: 'P', outpatientId: '' }, TODAY, HUMAN_GENDERS)).toMatchObject({ physicalExamId: 'registry.errors.sourceId' });
    expect(validate({ ...filled(), patientSource: 'E', outpatientId: '' }, TODAY, HUMAN_GENDERS)).toEqual({});
  });
  it('refuses a sixth line, yesterday, and a line with neither step nor modality', () => {
    const six = { ...filled(), lines: Array.from({ length: REGISTRY_MAX_EXAMS + 1 }, () => newLine(TODAY, '10:00', { modality: 'CT' })) };
    expect(validate(six, TODAY, HUMAN_GENDERS).lines).toBe('registry.errors.tooManyLines');
    const past = { ...filled(), lines: [newLine(addDays(TODAY, -1), '10:00', { modality: 'CT' }), newLine(TODAY, '10:00')] };
    expect(validate(past, TODAY, HUMAN_GENDERS)).toMatchObject({ 'lines.0.day': 'registry.errors.past', 'lines.1.procedureStepId': 'registry.errors.procedure' });
    // A line already saved keeps its day when the registration is edited later.
    expect(validate({ ...past, lines: [newLine(addDays(TODAY, -1), '10:00', { modality: 'CT', examId: 3 })] }, TODAY, HUMAN_GENDERS)).toEqual({});
  });
});

describe('the request', () => {
  it('sends the instant of the organisation wall clock and the step modality', () => {
    const input = toInput({ ...filled(), phone: ' 138 0013 8000 ', age: '46' }, 1, { timeZone: ZONE, steps });
    expect(input.patient).toMatchObject({ patientName: '王小东', patientId: null, age: 46, phone: '138 0013 8000', outpatientId: 'MZ1' });
    expect(input.exams).toEqual([{ procedureStepId: 7, modality: 'CT', bodyPart: '胸部', scheduledTime: '2026-11-25T01:30:00.000Z', urgentFlag: false }]);
  });
  it('fills the patient from an earlier record and keeps the lines', () => {
    const draft = withRecord(filled(), {
      patientName: '王小东', patientId: 'P001', patientGender: 'M', patientDob: '1980-02-03', phone: '13800138000', patientSource: 'I',
      inpatientId: 'ZY9', bedNum: '12', outpatientId: null, physicalExamId: null, lastExamTime: '2026-01-01T00:00:00Z', exams: 3,
    });
    expect(draft).toMatchObject({ patientId: 'P001', patientSource: 'I', inpatientId: 'ZY9', bedNum: '12', patientDob: '1980-02-03' });
    expect(draft.lines).toHaveLength(1);
  });
  it('reads a registration back into the form for editing', () => {
    const row = { registrationId: 4, version: 2, examId: 9, patientName: '李四', patientId: 'P9', patientGender: 'F', patientDob: null, visitAge: '3M',
      phone: null, patientSource: 'O', inpatientId: null, bedNum: null, outpatientId: 'MZ9', physicalExamId: null, scheduledTime: '2026-11-26T02:00:00Z',
      procedureStep: { id: 7, name: 'CT' }, modality: 'CT', bodyPart: null, urgentFlag: true } as unknown as RegistryRow;
    const draft = draftOf([row], ZONE);
    expect(draft).toMatchObject({ registrationId: 4, version: 2, age: '3', ageUnit: 'M', outpatientId: 'MZ9' });
    expect(draft.lines[0]).toMatchObject({ examId: 9, day: '2026-11-26', time: '10:00', procedureStepId: 7, urgent: true });
  });
});

describe('labels of one day', () => {
  it('prints lines of one organisation day together and names the days otherwise', () => {
    const at = (iso: string) => ({ scheduledTime: iso });
    expect(sameDayProblem([at('2026-11-25T00:30:00Z'), at('2026-11-25T15:59:00Z')], ZONE)).toBeNull();
    expect(sameDayProblem([at('2026-11-25T00:30:00Z'), at('2026-11-25T16:00:00Z')], ZONE)).toEqual(['2026-11-25', '2026-11-26']);
  });
});
