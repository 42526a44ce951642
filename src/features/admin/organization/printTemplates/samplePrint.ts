import type { TFunction } from 'i18next';
import type { PrintTemplate, QrMode, SignatureOf } from '../../../../../contract/printTemplates';
import type { PrintData } from '../../../../../contract/reports';
import { QR_TEXT_MAX } from '../../../../../contract/constants';

/** The form as typed: text fields as strings, the three title lines always present. */
export interface Draft {
  name: string;
  modality: string;
  titles: [string, string, string];
  signatureOf: SignatureOf;
  qrMode: QrMode;
  qrText: string;
  exactTime: boolean;
  pageNumbers: boolean;
}

export function emptyDraft(): Draft {
  return { name: '', modality: '', titles: ['', '', ''], signatureOf: 'approver', qrMode: 'none', qrText: '', exactTime: false, pageNumbers: true };
}

export function draftOf(template: PrintTemplate): Draft {
  const [a = '', b = '', c = ''] = template.titles;
  return {
    name: template.name, modality: template.modality ?? '', titles: [a, b, c], signatureOf: template.signatureOf,
    qrMode: template.qrMode, qrText: template.qrText ?? '', exactTime: template.exactTime, pageNumbers: template.pageNumbers,
  };
}

/** What the server takes (contract printTemplateInput): blank titles dropped, blank modality and QR text null. */
export function inputOf(draft: Draft, layoutType: 1 | 3) {
  return {
    name: draft.name.trim(), layoutType, modality: draft.modality.trim() || null,
    titles: draft.titles.map((x) => x.trim()).filter(Boolean), signatureOf: draft.signatureOf, qrMode: draft.qrMode,
    qrText: draft.qrText.trim() || null, exactTime: draft.exactTime, pageNumbers: draft.pageNumbers,
  };
}

/** What keeps the form from being saved, by field (the server checks the same and more). */
export function draftProblems(draft: Draft): { name?: 'required'; qrText?: 'required' | 'tooLong' } {
  const problems: ReturnType<typeof draftProblems> = {};
  if (!draft.name.trim()) problems.name = 'required';
  if (draft.qrText.trim().length > QR_TEXT_MAX) problems.qrText = 'tooLong';
  else if (draft.qrMode === 'static' && !draft.qrText.trim()) problems.qrText = 'required';
  return problems;
}

const SAMPLE_REPORT_ID = 202611;

/** The per-report code the server makes for a dynamic QR code (server/reports/print.ts qrTextFor), for the sample. */
export function sampleQrText(draft: Draft): string | null {
  if (draft.qrMode === 'static') return draft.qrText.trim().slice(0, QR_TEXT_MAX) || null;
  if (draft.qrMode === 'dynamic') return `R${SAMPLE_REPORT_ID.toString(36).toUpperCase()}`;
  return null;
}

/**
 * A sample report printed with the form's settings (the template editor's live preview): the organisation's name,
 * the template's logo and stamp as stored, made-up patient and findings in the screen's language.
 */
export function samplePrint(t: TFunction, organisation: { id: number; name: string }, draft: Draft, stored: PrintTemplate | null): PrintData {
  const s = (key: string) => t(`printTemplates.sample.${key}` as 'printTemplates.sample.patientName');
  const titles = draft.titles.map((x) => x.trim()).filter(Boolean);
  return {
    template: {
      id: stored?.id ?? 0, name: draft.name, titles, logo: stored?.logo ?? null, stamp: stored?.stamp ?? null,
      signatureOf: draft.signatureOf, qrMode: draft.qrMode, exactTime: draft.exactTime, pageNumbers: draft.pageNumbers,
    },
    qrText: sampleQrText(draft),
    organisation,
    exam: {
      id: 1, patientName: s('patientName'), patientId: 'P20261120001', patientGender: 'F', visitAge: '46Y', patientDob: null,
      patientSource: 'O', inpatientId: null, bedNum: null, outpatientId: 'MZ0086412', physicalExamId: null, accessionNumber: 'A20261120017',
      modality: draft.modality.trim().toUpperCase() || 'CT', bodyPart: s('bodyPart'), studyDescription: null, clinicImpression: s('clinicImpression'),
      applyDept: s('applyDept'), examTime: '2026-11-20T09:41:27',
    },
    report: {
      id: SAMPLE_REPORT_ID, status: 'corrected', finding: `<p>${s('finding')}</p>`, diagnosis: `<p>${s('diagnosis')}</p>`,
      positive: false, criticalValue: null, bodypartCount: 1, submittedAt: '2026-11-20T10:12:05', approvedAt: '2026-11-20T10:36:48',
    },
    creator: { id: 1, name: s('creator'), signature: null },
    approver: { id: 2, name: s('approver'), signature: null },
    signature: null,
    keyImages: [],
    templates: [],
  };
}
