import { describe, expect, it } from 'vitest';
import { printTemplateInput } from '../../contract/printTemplates';
import { draftOf, draftProblems, emptyDraft, inputOf, sampleQrText } from '@/features/admin/organization/printTemplates/samplePrint';

/** The template form's rules (src/features/admin/organization/printTemplates/samplePrint.ts) against the contract's. */
describe('print template form', () => {
  it('turns the typed form into an input the contract accepts: blank titles dropped, blank modality and QR text null', () => {
    const draft = { ...emptyDraft(), name: '  标准 ', modality: ' ', titles: ['影像诊断报告单', '  ', '副标题'] as [string, string, string], qrText: ' ' };
    const input = inputOf(draft, 3);
    expect(input).toEqual({
      name: '标准', layoutType: 3, modality: null, titles: ['影像诊断报告单', '副标题'], signatureOf: 'approver', qrMode: 'none',
      qrText: null, exactTime: false, pageNumbers: true,
    });
    expect(printTemplateInput.safeParse(input).success).toBe(true);
  });

  it('names what keeps a form from saving, as the server would refuse it', () => {
    expect(draftProblems(emptyDraft())).toEqual({ name: 'required' });
    const staticWithout = { ...emptyDraft(), name: 'A', qrMode: 'static' as const };
    expect(draftProblems(staticWithout)).toEqual({ qrText: 'required' });
    expect(printTemplateInput.safeParse(inputOf(staticWithout, 1)).success).toBe(false);
    const tooLong = { ...emptyDraft(), name: 'A', qrMode: 'static' as const, qrText: 'ABCDEFGHIJK' };
    expect(draftProblems(tooLong)).toEqual({ qrText: 'tooLong' });
    expect(printTemplateInput.safeParse(inputOf(tooLong, 1)).success).toBe(false);
    expect(draftProblems({ ...tooLong, qrText: 'ABCDEFGHIJ' })).toEqual({});
  });

  it('reads a stored template back into the form, and makes the sample QR text as the print would', () => {
    const draft = draftOf({
      id: 1, bucketId: 1, name: 'CT', layoutType: 1, modality: 'CT', isDefault: true, titles: ['一'], logo: null, stamp: null,
      signatureOf: 'creator', qrMode: 'static', qrText: 'REPORT', exactTime: true, pageNumbers: false, updated: null,
    });
    expect(draft).toMatchObject({ modality: 'CT', titles: ['一', '', ''], qrText: 'REPORT', signatureOf: 'creator' });
    expect(sampleQrText(draft)).toBe('REPORT');
    expect(sampleQrText({ ...draft, qrMode: 'dynamic' })).toMatch(/^R[0-9A-Z]{1,9}$/);
    expect(sampleQrText({ ...draft, qrMode: 'none' })).toBeNull();
  });
});
