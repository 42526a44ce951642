import { z } from 'zod';
import { REPORT_HTML_MAX, REPORT_NOTE_MAX } from './constants';
import { idValue } from './common';
export { REPORT_HTML_MAX } from './constants';
export * from './reports/templates';

/**
 * Reports (core §3, §4, §5, §7 "Reports"). The lifecycle itself lives in machines/report.ts; this file
 * holds the names, the shapes of requests and answers, and nothing that decides.
 */

/** Core §4. `locked` is presented while someone holds the editing lock; underneath the report keeps its lifecycle status. */
export const REPORT_STATUSES = ['locked', 'partial', 'final', 'corrected', 'hold', 'cancelled', 'printed', 'advised', 'none'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];
export const LIFECYCLE_STATUSES = ['none', 'partial', 'final', 'corrected', 'hold', 'cancelled', 'printed', 'advised'] as const;
export type LifecycleStatus = (typeof LIFECYCLE_STATUSES)[number];

/** Core §4 report actions, each `POST reports/{id}/{action}`. */
export const REPORT_LIFECYCLE_ACTIONS = ['save', 'submit', 'approve', 'reject', 'advise', 'recall', 'cancelSubmit', 'print'] as const;
/** Core §4 "can also be locked, unlocked, ...", plus recording a reprint. */
export const REPORT_HOUSEKEEPING_ACTIONS = [
  'lock', 'unlock', 'force-unlock', 'reset', 'sync', 'delete', 'recovery', 'assign', 'assign-remove', 'update-print-time',
] as const;
export const REPORT_ACTIONS = [...REPORT_LIFECYCLE_ACTIONS, ...REPORT_HOUSEKEEPING_ACTIONS] as const;
export type ReportAction = (typeof REPORT_ACTIONS)[number];
export function isReportAction(value: string): value is ReportAction {
  return (REPORT_ACTIONS as readonly string[]).includes(value);
}

/** Actions whose body may change the text; the others ignore content fields (core §4: only status fields change). */
export const CONTENT_ACTIONS = ['save', 'submit', 'approve', 'advise'] as const satisfies readonly ReportAction[];
/** Core §4: recall and reject each need a reason. */
export const REASON_ACTIONS = ['reject', 'recall'] as const satisfies readonly ReportAction[];

export const REASON_MAX = 512;

const version = z.number().int().min(1).max(2_147_483_647);
const html = z.string().max(REPORT_HTML_MAX);
const reason = z.string().trim().min(1).max(REASON_MAX);
const extensionValue = z.union([z.string().max(2000), z.number(), z.boolean(), z.null()]);

/** The editable fields of a report (core §3, §5). Absent = unchanged. */
export const reportContentInput = z.object({
  finding: html.optional(),
  diagnosis: html.optional(),
  positive: z.boolean().nullable().optional(),
  note: z.string().max(REPORT_NOTE_MAX).nullable().optional(),
  bodypartCount: z.number().int().min(1).max(99).optional(),
  criticalValue: z.string().trim().max(256).nullable().optional(),
  extensions: z.record(z.string().max(64), extensionValue).refine((o) => Object.keys(o).length <= 100, 'at most 100 extension fields').optional(),
});
export type ReportContentInput = z.infer<typeof reportContentInput>;

/** Core §5 joint-exam prompt: the exams this submit reports together, and those the user discarded. */
export const jointExamsDecision = z.object({
  confirm: z.array(z.number().int().positive()).max(20).default([]),
  discard: z.array(z.number().int().positive()).max(20).default([]),
});

/**
 * One body for every `POST reports/{id}/{action}`: `version` always (optimistic concurrency), content for
 * save/submit/approve/advise, `reason` for reject and recall (and the advice text of advise), `accountId` for assign.
 */
export const reportActionInput = reportContentInput.extend({
  version,
  reason: z.string().trim().max(REASON_MAX).optional(),
  /** Core §6: the creator ticks whether an advisor (report_advice without approval rights) may edit. */
  allowAdvisorEdit: z.boolean().optional(),
  accountId: z.number().int().positive().max(2_147_483_647).optional(),
  jointExams: jointExamsDecision.optional(),
});
export type ReportActionInput = z.input<typeof reportActionInput>;

/** Per-action requirements on top of the common body; each failure is a 400 ParamsError naming the field. */
export function actionInput(action: ReportAction) {
  if ((REASON_ACTIONS as readonly string[]).includes(action)) return reportActionInput.extend({ reason });
  if (action === 'assign') return reportActionInput.extend({ accountId: z.number().int().positive().max(2_147_483_647) });
  return reportActionInput;
}

export const reportActionParams = z.object({
  id: idValue,
  action: z.enum(REPORT_ACTIONS),
});

export interface Person {
  id: number;
  name: string;
}

/**
 * A report's written content: what the editors and the fields beside them hold, and what a trace keeps of it. A
 * type, not an interface, so that TraceSnapshot stays a plain JSON record for the jsonb column.
 */
export type ReportContent = {
  finding: string;
  diagnosis: string;
  positive: boolean | null;
  note: string | null;
  bodypartCount: number;
  criticalValue: string | null;
  extensions: Record<string, unknown>;
};

/** A report as every endpoint answers it. */
export interface ReportView extends ReportContent {
  id: number;
  examId: number;
  bucketId: number;
  sourceBucketId: number | null;
  type: string;
  /** Core §4 status as shown: `locked` while someone edits. */
  status: ReportStatus;
  /** The status under the lock (equal to `status` when unlocked). */
  lifecycleStatus: LifecycleStatus;
  /** What this account may do now; the client renders from it and never decides on its own. */
  transitions: ReportAction[];
  /** Send back with the next action; a stale one is refused with VersionConflict. */
  version: number;
  creator: Person | null;
  lastUpdater: Person | null;
  issuer: Person | null;
  noteTaker: Person | null;
  assignee: Person | null;
  lockedBy: number | null;
  locker: Person | null;
  lockedAt: string | null;
  rejectReason: string | null;
  recallReason: string | null;
  adviceReason: string | null;
  allowAdvisorEdit: boolean;
  /** Externally synced, not yet confirmed by a save: read-only. */
  syncPending: boolean;
  syncStopped: boolean;
  /** Core §4: the upload target is absent or equals the source bucket. */
  mutable: boolean;
  /** Core §4: a report with status none and no image, or one first written from such, comes from a note taker. */
  noteTakerOrigin: boolean;
  jointExamIds: number[];
  deleted: boolean;
  deletedTime: string | null;
  savedTime: string | null;
  submittedTime: string | null;
  approvedTime: string | null;
  printedTime: string | null;
  printSubmittedAt: string | null;
  printApprovedAt: string | null;
  lastOperationTime: string | null;
  created: string;
}

/** details of 409 JointExamsPending: submit again with `jointExams` deciding each of them. */
export interface JointExamCandidate {
  id: number;
  modality: string;
  bodyPart: string | null;
  studyDescription: string | null;
  accessionNumber: string | null;
  examTime: string;
}

export const examReportsQuery = z.object({ deleted: z.enum(['true', 'false']).default('false') });

/* ── traces ── */

export interface TraceSummary {
  id: number;
  reportId: number;
  action: string;
  account: Person | null;
  fromStatus: string | null;
  toStatus: string | null;
  reason: string | null;
  created: string;
}

/** A type, not an interface, so it is a plain JSON record for the jsonb column. */
export type TraceSnapshot = ReportContent & {
  creatorId: number | null;
  assigneeId: number | null;
  lockedById: number | null;
  version: number;
};

export interface TraceView extends TraceSummary {
  snapshot: TraceSnapshot;
}

export const traceParams = z.object({
  id: idValue,
  traceId: idValue,
});

export const diffTraceQuery = z.object({
  fromId: idValue,
  toId: idValue,
});

export interface DiffPart {
  value: string;
  added: boolean;
  removed: boolean;
}

/** Text fields are diffed word by word (Chinese segmented by Intl.Segmenter); the others as before/after. */
export type FieldDiff =
  | { field: 'finding' | 'diagnosis' | 'note' | 'criticalValue'; kind: 'text'; changed: boolean; parts: DiffPart[] }
  | { field: 'positive' | 'bodypartCount' | 'extensions'; kind: 'value'; changed: boolean; from: unknown; to: unknown };

export interface TraceDiff {
  from: TraceSummary;
  to: TraceSummary;
  fields: FieldDiff[];
}

/* ── quality ── */

export const QUALITY_GRADES = ['A', 'B', 'C', 'D'] as const;
export const qualityInput = z.object({
  grade: z.enum(QUALITY_GRADES),
  score: z.number().int().min(0).max(100).nullable().optional(),
  comment: z.string().trim().max(512).nullable().optional(),
  items: z.record(z.string().max(64), z.union([z.string().max(256), z.number(), z.boolean()]))
    .refine((o) => Object.keys(o).length <= 50, 'at most 50 items').optional(),
});
export type QualityInput = z.infer<typeof qualityInput>;

export interface QualityView {
  reportId: number;
  grade: (typeof QUALITY_GRADES)[number];
  score: number | null;
  comment: string | null;
  items: Record<string, string | number | boolean>;
  reviewer: Person | null;
  updated: string;
}

/* ── print ── */

export interface PrintData {
  template: {
    id: number;
    name: string;
    titles: string[];
    logo: string | null;
    stamp: string | null;
    signatureOf: 'creator' | 'approver';
    qrMode: 'none' | 'static' | 'dynamic';
    exactTime: boolean;
    pageNumbers: boolean;
  };
  /** Static text of the template, or a per-report code; at most QR_TEXT_MAX (10) characters. */
  qrText: string | null;
  organisation: { id: number; name: string };
  exam: {
    id: number;
    patientName: string;
    patientId: string;
    patientGender: string;
    visitAge: string | null;
    patientDob: string | null;
    patientSource: string | null;
    inpatientId: string | null;
    bedNum: string | null;
    outpatientId: string | null;
    physicalExamId: string | null;
    accessionNumber: string | null;
    modality: string;
    bodyPart: string | null;
    studyDescription: string | null;
    clinicImpression: string | null;
    applyDept: string | null;
    examTime: string;
  };
  report: {
    id: number;
    status: ReportStatus;
    finding: string;
    diagnosis: string;
    positive: boolean | null;
    criticalValue: string | null;
    bodypartCount: number;
    /** Times as stored; the print shows minutes and seconds only when `template.exactTime`. */
    submittedAt: string | null;
    approvedAt: string | null;
  };
  creator: { id: number; name: string; signature: string | null } | null;
  approver: { id: number; name: string; signature: string | null } | null;
  /** The signature the template asks for (creator's or approver's). */
  signature: string | null;
  /**
   * The report's key images in their order (core §2, §5: at most 6), printed between the conclusion and the
   * signatures. `url` is the same short-lived signed read link GET reports/{id}/images gives (an hour).
   */
  keyImages: PrintKeyImage[];
  /** The organisation's exam print templates (layout 1), to print with another than the default (`?templateId`). */
  templates: PrintTemplateChoice[];
}

export interface PrintTemplateChoice {
  id: number;
  name: string;
  /** The modality it is the default for; null = the general one. */
  modality: string | null;
  isDefault: boolean;
}

export interface PrintKeyImage {
  id: number;
  url: string;
  description: string | null;
}


