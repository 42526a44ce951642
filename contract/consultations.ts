import { z } from 'zod';
import { idValue, isoDateTime, pageQuerySchema } from './common';
import type { PrintTemplate } from './printTemplates';
import { examExportInput } from './exams';
import { CONSULTATION_QUERY_MAX_LIMIT, CONSULTATION_STATUS, PAYMENT_STATUSES, type ConsultationBucketRef, type ConsultationListItem, type ConsultationStatus, type PaymentStatus } from './consultations/list';
export * from './consultations/list';

/**
 * Consultations (areas §3 "Consultation", §4 statuses, §7 "Consultations"). So far the list query the notification
 * poll reads (core §7 "Polling": status equal 0, limit 5, skip 0); the rest of the area builds on these names.
 */

// ————————————————————————————————————————————————————————————————————————————————————————————————
// The whole area (issue 12): create, detail, the parts, the status changes. docs/decisions.md "Consultations"
// says who may do what; machines/consultation.ts decides every status change and the server asks it.
// ————————————————————————————————————————————————————————————————————————————————————————————————

/** Areas §9: the consultation list's page size and the search's default limit. */
export const CONSULTATION_PAGE_SIZE = 20;
export const CONSULTATION_SEARCH_LIMIT = 10;
/** Areas §5 exports: at most 1000 rows in one workbook (as orders). */
export const CONSULTATION_EXPORT_MAX = 1000;
export const CONSULTATION_REASON_MAX = 1000;
export const CONSULTATION_NOTE_MAX = 1000;
export const CONSULTATION_RESULT_MAX = 200_000;
export const CONSULTATION_MEMBERS_MAX = 30;
export const CONSULTATION_CASE_TYPES = ['history', 'lab', 'pathology', 'imaging', 'other'] as const;
export type ConsultationCaseType = (typeof CONSULTATION_CASE_TYPES)[number];
/** One case file at most this big (50 MiB): scanned records and small videos, not studies (those are exams). */
export const CONSULTATION_ATTACHMENT_MAX_BYTES = 50 * 1024 * 1024;
/**
 * What a case file may be, by extension (lower case): images, PDF, office documents, plain text, short videos, DICOM.
 * The server also checks the first bytes where the format has a signature (refused: 400 UnsupportedFileType).
 */
export const CONSULTATION_ATTACHMENT_EXTENSIONS = [
  'png', 'jpg', 'jpeg', 'gif', 'webp', 'bmp', 'tif', 'tiff', 'pdf', 'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx',
  'odt', 'ods', 'odp', 'rtf', 'txt', 'csv', 'mp4', 'webm', 'dcm',
] as const;
export type ConsultationAttachmentExtension = (typeof CONSULTATION_ATTACHMENT_EXTENSIONS)[number];

/**
 * What the asking account may do to one consultation now: the machine's answer with the account's rights
 * (the detail's `transitions`; the screen offers exactly these, the server refuses the rest).
 */
export const CONSULTATION_ACTIONS = [
  'update', 'schedule', 'suggest', 'writeResult', 'approve', 'cancel', 'rate', 'setPayment',
  'editMembers', 'addCase', 'deleteCase', 'addExam', 'deleteExam', 'link', 'print',
] as const;
export type ConsultationAction = (typeof CONSULTATION_ACTIONS)[number];

const reason = z.string().trim().min(1).max(CONSULTATION_REASON_MAX);
const note = z.string().trim().max(CONSULTATION_NOTE_MAX);
const tel = z.string().trim().max(32).regex(/^[0-9+\-() ]*$/);
const email = z.union([z.literal(''), z.email().max(128)]);
const version = z.number().int().min(1);
const memberInput = z.object({ accountId: idValue, role: z.enum(['member', 'expert']).default('member') }).strict();

/** POST consultations: from an exam (and its report); patient details come from the exam unless given. */
export const consultationCreateInput = z.object({
  examId: idValue,
  reportId: idValue.nullable().default(null),
  /** One of the group's consultation targets (GET groups/{id}/consultation-targets) or its default. */
  targetBucketId: idValue,
  reason,
  note: note.default(''),
  patientTel: tel.default(''),
  patientEmail: email.default(''),
  /** Other organisations of the group taking part besides the target. */
  joinedBucketIds: z.array(idValue).max(10).default([]),
  members: z.array(memberInput).max(CONSULTATION_MEMBERS_MAX).default([]),
}).strict();
export type ConsultationCreateInput = z.input<typeof consultationCreateInput>;

/** PATCH consultations/{id} (update): the applicant's own fields while the consultation is open. */
export const consultationUpdateInput = z.object({
  version,
  reason: reason.optional(),
  note: note.optional(),
  patientTel: tel.optional(),
  patientEmail: email.optional(),
}).strict();
export type ConsultationUpdateInput = z.input<typeof consultationUpdateInput>;

/** A start time already past (or now) at `now`: refused by the schedule dialog and the server (ConsultationTimePast). */
export function isPastStart(start: Date, now: Date): boolean {
  return !(start.getTime() > now.getTime());
}

/** The schedule dialog's proposal: the next whole half hour after `now` on the local clock (09:05 → 09:30, 09:30 → 10:00). */
export function nextHalfHour(now: Date): Date {
  const next = new Date(now.getTime());
  next.setSeconds(0, 0);
  next.setMinutes(next.getMinutes() < 30 ? 30 : 60);
  return next;
}

/**
 * POST consultations/{id}/update-status: schedule (status 1, with scheduledTime: areas §5 "start time required"),
 * approve (3). Writing the result moves to discussed (2); cancel has its own call with the reason.
 */
export const consultationStatusInput = z.object({
  version,
  status: z.union([z.literal(CONSULTATION_STATUS.scheduled), z.literal(CONSULTATION_STATUS.completed)]),
  scheduledTime: isoDateTime.nullable().default(null),
}).strict();
export type ConsultationStatusInput = z.input<typeof consultationStatusInput>;

export const consultationCancelInput = z.object({ version, reason }).strict();
export type ConsultationCancelInput = z.input<typeof consultationCancelInput>;

/** PUT consultations/{id}/results: areas §5 "result content cannot be empty" (the conclusion, as text). */
export const consultationResultInput = z.object({
  version,
  conclusion: z.string().max(CONSULTATION_RESULT_MAX),
  treatmentPlan: z.string().max(CONSULTATION_RESULT_MAX).default(''),
}).strict();
export type ConsultationResultInput = z.input<typeof consultationResultInput>;

export const consultationSuggestionInput = z.object({ content: z.string().max(CONSULTATION_RESULT_MAX) }).strict();
export type ConsultationSuggestionInput = z.input<typeof consultationSuggestionInput>;

/** POST consultations/{id}/rating: once (areas §4); the screen asks to confirm before sending (areas §5). */
export const consultationRatingInput = z.object({
  version,
  rating: z.number().int().min(1).max(5),
  comment: z.string().trim().max(CONSULTATION_NOTE_MAX).default(''),
}).strict();
export type ConsultationRatingInput = z.input<typeof consultationRatingInput>;

export const consultationPaymentInput = z.object({
  version,
  paymentStatus: z.union(PAYMENT_STATUSES.map((s) => z.literal(s)) as [z.ZodLiteral<0>, z.ZodLiteral<1>, z.ZodLiteral<2>, z.ZodLiteral<3>]),
}).strict();
export type ConsultationPaymentInput = z.input<typeof consultationPaymentInput>;

/** PUT consultations/{id}/members: the whole list (experts only from the target organisation). */
export const consultationMembersInput = z.object({ members: z.array(memberInput).max(CONSULTATION_MEMBERS_MAX) }).strict();
export type ConsultationMembersInput = z.input<typeof consultationMembersInput>;

export const consultationCaseInput = z.object({
  name: z.string().trim().min(1).max(128),
  type: z.enum(CONSULTATION_CASE_TYPES),
  note: note.default(''),
}).strict();
export type ConsultationCaseInput = z.input<typeof consultationCaseInput>;

export const consultationLinkInput = z.object({ linkedId: idValue }).strict();
export const consultationVisitExamInput = z.object({ examId: idValue }).strict();

/** POST consultations/query: the search box (default limit 10, no total); query-page is the list. */
export const consultationSearchInput = pageQuerySchema.extend({
  limit: z.number().int().min(1).max(CONSULTATION_QUERY_MAX_LIMIT).default(CONSULTATION_SEARCH_LIMIT),
});
/** POST consultations/count and consultations/export take the list's filters. */
export const consultationCountInput = z.object({ filters: pageQuerySchema.shape.filters }).strict();
/** POST consultations/export: the list's filters and order; dates written in `timeZone` (the browser's; else the server's). */
export const consultationExportInput = examExportInput;
export type ConsultationExportInput = z.input<typeof consultationExportInput>;

export interface ConsultationPerson {
  id: number;
  name: string;
  techTitle: string | null;
  bucketName: string;
}

export interface ConsultationMember extends ConsultationPerson {
  role: 'member' | 'expert';
}

export interface ConsultationAttachment {
  id: number;
  caseId: number;
  name: string;
  fileType: string;
  size: number;
  status: 'processing' | 'completed';
  created: string;
  /** A short-lived read link when completed (deps.storage.readUrl). */
  url: string | null;
}

export interface ConsultationCase {
  id: number;
  name: string;
  type: ConsultationCaseType;
  note: string;
  createdBy: ConsultationPerson;
  created: string;
  attachments: ConsultationAttachment[];
}

export interface ConsultationVisitExam {
  examId: number;
  modality: string | null;
  bodyPart: string | null;
  examTime: string | null;
  accessionNumber: string | null;
  bucketName: string;
  /** The exam has images the viewer can open. */
  hasImages: boolean;
}

export interface ConsultationLink {
  id: number;
  patientName: string;
  reason: string;
  status: ConsultationStatus;
  created: string;
}

export interface ConsultationSuggestion {
  id: number;
  author: ConsultationPerson;
  content: string;
  created: string;
}

/** GET consultations/{id}. */
export interface ConsultationDetail extends ConsultationListItem {
  version: number;
  examId: number | null;
  reportId: number | null;
  appliedBucketId: number;
  targetBucketId: number;
  targetBucketName: string;
  patient: { name: string; gender: string; age: string | null; tel: string; email: string };
  note: string;
  paymentStatus: PaymentStatus;
  cancelReason: string | null;
  createdBy: ConsultationPerson;
  members: ConsultationMember[];
  cases: ConsultationCase[];
  visitExams: ConsultationVisitExam[];
  links: ConsultationLink[];
  suggestions: ConsultationSuggestion[];
  result: { conclusion: string; treatmentPlan: string; by: ConsultationPerson | null; at: string | null } | null;
  approvedBy: ConsultationPerson | null;
  approvedAt: string | null;
  rating: { rating: number; comment: string; by: ConsultationPerson | null; at: string | null } | null;
  transitions: ConsultationAction[];
}

/** GET consultations/{id}/traces: areas §3 "log" — every change, who and when (the audit trail). */
export interface ConsultationTrace {
  id: number;
  at: string;
  action: string;
  actor: ConsultationPerson | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

/** GET consultations/{id}/print-data: the consultation with the organisation's layout-3 print template. */
export interface ConsultationPrintData {
  consultation: ConsultationDetail;
  /** The applicant organisation's default consultation template (layout 3), or null to print plainly. */
  template: PrintTemplate | null;
  printedAt: string;
}

/** GET consultations/rtc/access-token?room: a LiveKit room token, or why there is no video. */
export const rtcTokenQuery = z.object({ room: z.string().regex(/^consultation-[1-9][0-9]{0,9}$/) }).strict();
export type RtcToken =
  | { configured: true; url: string; token: string; room: string; identity: string; expiresAt: string }
  | { configured: false };

/** GET consultations/targets?examId: where a consultation of this exam may go (the create screen's choices). */
export const consultationTargetsQuery = z.object({ examId: idValue }).strict();
export interface ConsultationTargets {
  /** The group's consultation targets and its default, without the applicant itself. */
  targets: ConsultationBucketRef[];
  defaultTargetId: number | null;
  /** Other organisations of the group that may join. */
  joinable: ConsultationBucketRef[];
}

/** GET consultations/people?bucketId: accounts of one organisation the caller may add as members or experts. */
export const consultationPeopleQuery = z.object({ bucketId: idValue }).strict();
