import { REPORT_NOTE_MAX } from '../../contract/constants';
import type { ReportContentInput, ReportView } from '../../contract/reports';

/** An extension value as the contract accepts it (contract/reports.ts `extensionValue`). */
export type ExtensionValue = string | number | boolean | null;

/** The text a user writes in the workspace: what a save sends and what a local draft keeps. */
export interface ReportFields {
  finding: string;
  diagnosis: string;
  /** Core §3: true, false or null (not said). */
  positive: boolean | null;
  note: string;
  bodypartCount: number;
  criticalValue: string;
  extensions: Record<string, ExtensionValue>;
}

/** Bounds the server holds (contract/reports.ts); the client only checks them early, for comfort. */
export const BODYPART_COUNT_MIN = 1;
export const BODYPART_COUNT_MAX = 99;
export const CRITICAL_VALUE_MAX = 256;
export const EXTENSION_KEY_MAX = 64;
export const EXTENSION_VALUE_MAX = 2000;

function extensionsOf(raw: Record<string, unknown>): Record<string, ExtensionValue> {
  const out: Record<string, ExtensionValue> = {};
  for (const [key, value] of Object.entries(raw ?? {})) {
    // Anything else (objects written by another system) is shown as text rather than dropped or sent back mangled.
    out[key] = value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : JSON.stringify(value);
  }
  return out;
}

export function fieldsOf(report: Pick<ReportView, 'finding' | 'diagnosis' | 'positive' | 'note' | 'bodypartCount' | 'criticalValue' | 'extensions'>): ReportFields {
  return {
    finding: report.finding ?? '',
    diagnosis: report.diagnosis ?? '',
    positive: report.positive ?? null,
    note: report.note ?? '',
    bodypartCount: report.bodypartCount ?? 1,
    criticalValue: report.criticalValue ?? '',
    extensions: extensionsOf(report.extensions),
  };
}

/** An editor that was never touched gives '<p></p>' for an empty document; both mean "nothing written". */
function normalHtml(html: string): string {
  const trimmed = html.trim();
  return trimmed === '<p></p>' ? '' : trimmed;
}

function sameExtensions(a: Record<string, ExtensionValue>, b: Record<string, ExtensionValue>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && a[k] === b[k]);
}

export function sameFields(a: ReportFields, b: ReportFields): boolean {
  return normalHtml(a.finding) === normalHtml(b.finding)
    && normalHtml(a.diagnosis) === normalHtml(b.diagnosis)
    && a.positive === b.positive
    && a.note.trim() === b.note.trim()
    && a.bodypartCount === b.bodypartCount
    && a.criticalValue.trim() === b.criticalValue.trim()
    && sameExtensions(a.extensions, b.extensions);
}

/** The content part of a save, submit, approve or advise body. */
export function payloadOf(fields: ReportFields): Required<Pick<ReportContentInput, 'finding' | 'diagnosis' | 'positive' | 'note' | 'bodypartCount' | 'criticalValue' | 'extensions'>> {
  return {
    finding: normalHtml(fields.finding),
    diagnosis: normalHtml(fields.diagnosis),
    positive: fields.positive,
    note: fields.note.trim() === '' ? null : fields.note,
    bodypartCount: fields.bodypartCount,
    criticalValue: fields.criticalValue.trim() === '' ? null : fields.criticalValue.trim(),
    extensions: fields.extensions,
  };
}

/**
 * Whether report HTML shows any text. A comfort check before submit: the server's isBlankReportHtml
 * (contract/reportHtml.ts) is the rule and answers ReportEmpty; this one avoids bundling sanitize-html.
 */
export function hasText(html: string): boolean {
  const text = html
    .replace(/<[^>]*>/g, '')
    .replace(/&(nbsp|#160|#xa0);/gi, ' ');
  return /[^\s\u3000]/.test(text);
}

/** Counted as the server's zod schema counts (UTF-16 units), so the counter and the server agree at 256. */
export function noteLength(note: string): number {
  return note.length;
}

export type FieldProblem = 'reportEmpty' | 'noteTooLong' | 'bodypartCount' | 'criticalValueTooLong' | 'extensionKey' | 'extensionValueTooLong';

/** Core §5 checks before an action is sent. Submit and approve need findings or conclusion. */
export function fieldProblems(fields: ReportFields, action: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if ((action === 'submit' || action === 'approve') && !hasText(fields.finding) && !hasText(fields.diagnosis)) problems.push('reportEmpty');
  if (noteLength(fields.note) > REPORT_NOTE_MAX) problems.push('noteTooLong');
  if (!Number.isInteger(fields.bodypartCount) || fields.bodypartCount < BODYPART_COUNT_MIN || fields.bodypartCount > BODYPART_COUNT_MAX) {
    problems.push('bodypartCount');
  }
  if (fields.criticalValue.trim().length > CRITICAL_VALUE_MAX) problems.push('criticalValueTooLong');
  const keys = Object.keys(fields.extensions);
  if (keys.some((k) => k.trim() === '' || k.length > EXTENSION_KEY_MAX)) problems.push('extensionKey');
  if (Object.values(fields.extensions).some((v) => typeof v === 'string' && v.length > EXTENSION_VALUE_MAX)) problems.push('extensionValueTooLong');
  return problems;
}
