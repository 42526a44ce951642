import { z } from 'zod';
import { decimalInt, idValue, isoDateTime, isoDay } from './common';
import { GENDERS, PATIENT_SOURCES } from './constants';
import type { DicomHeader } from './dicom/header';

/**
 * Uploads (core §2 upload wizard, §7 "Uploads and policies"). The wizard: choose files (parsed in the
 * browser with contract/dicom), exam info, upload (one request per file with the session's
 * credentials, so a failed file is retried alone), complete.
 */

/** Largest DICOM file accepted (a long multi-frame cine fits; a bigger one is surely not one image). */
export const DICOM_MAX_BYTES = 1024 ** 3;
/** Upload credentials live this long unless the refresh asks for another delta. */
export const UPLOAD_CREDENTIALS_TTL_SECONDS = 15 * 60;
export const UPLOAD_CREDENTIALS_MAX_TTL_SECONDS = 2 * 3600;
/** Relative to /api/v1/: PUT the raw file with header `x-upload-token`, or POST form data { token, file }. */
export const UPLOAD_FILES_PATH = 'uploads/files';
export const UPLOAD_TOKEN_HEADER = 'x-upload-token';

export const dicomUid = z.string().trim().max(64).regex(/^[0-9]+(\.[0-9]+)*$/, 'uid');
const optional = (max: number) => z.string().trim().max(max).nullish();

/** Exam info of the wizard's second step; a study is found again by its Study Instance UID in the organisation. */
export const studyUploadInput = z.object({
  studyInstanceUid: dicomUid,
  patientName: z.string().trim().min(1).max(128),
  patientId: z.string().trim().min(1).max(64),
  patientGender: z.enum(GENDERS).default('U'),
  patientDob: isoDay.nullish(),
  visitAge: z.string().trim().regex(/^\d{1,3}[YMWD]$/).nullish(),
  modality: z.string().trim().toUpperCase().regex(/^[A-Z0-9]{1,8}$/),
  bodyPart: optional(64),
  studyDescription: optional(256),
  accessionNumber: optional(64),
  serviceRequestId: optional(64),
  clinicImpression: optional(1024),
  applyDept: optional(64),
  patientSource: z.enum(PATIENT_SOURCES).nullish(),
  inpatientId: optional(64),
  bedNum: optional(16),
  outpatientId: optional(64),
  physicalExamId: optional(64),
  /** ISO date-time; the study's date and time from the files, else the upload time. */
  examTime: isoDateTime.nullish(),
}).superRefine((v, ctx) => {
  // core §3: extra fields by patient source.
  const need = (field: keyof typeof v) => { if (!v[field]) ctx.addIssue({ code: 'custom', path: [field], message: 'required' }); };
  if (v.patientSource === 'I') { need('inpatientId'); need('bedNum'); }
  if (v.patientSource === 'O' || v.patientSource === 'NO') need('outpatientId');
  if (v.patientSource === 'P') need('physicalExamId');
});
export type StudyUploadInput = z.input<typeof studyUploadInput>;

/** The body of POST upload-tokens/{token}/studies and POST upload-codes/{code}/studies is the same exam info. */

export const refreshCredentialsQuery = z.object({
  examId: idValue,
  /** Seconds the new credentials should live. */
  delta: decimalInt(60, UPLOAD_CREDENTIALS_MAX_TTL_SECONDS).default(UPLOAD_CREDENTIALS_TTL_SECONDS),
  /** Current credentials, for uploaders who are not members of the organisation (organisation token, upload code); renewed only while what issued them lives. */
  token: z.string().max(2048).optional(),
});

/** Complete (POST exams/{id}/uploaded): with a bearer holding exam_upload, or with the session's credentials. */
export const uploadedInput = z.object({ token: z.string().max(2048).optional() }).default({});
export const postUploadInput = z.object({
  items: z.array(z.object({ examId: z.number().int().positive().max(2_147_483_647), token: z.string().max(2048).optional() })).min(1).max(100),
});

/** How long an upload code lives, in hours (docs/api.md "Upload codes"): an hour to thirty days, three days unless chosen. */
export const UPLOAD_CODE_TTL_HOURS = { min: 1, max: 24 * 30, default: 72 } as const;

export const uploadCodeInput = z.object({
  kind: z.enum(['serviceOrder', 'attachment']),
  bucketId: z.number().int().positive().max(2_147_483_647),
  /** serviceOrder: the images go into this exam (else a study is found or created by its UID). */
  examId: z.number().int().positive().max(2_147_483_647).optional(),
  /** attachment: the files go onto this report. */
  reportId: z.number().int().positive().max(2_147_483_647).optional(),
  ttlHours: z.number().int().min(UPLOAD_CODE_TTL_HOURS.min).max(UPLOAD_CODE_TTL_HOURS.max).default(UPLOAD_CODE_TTL_HOURS.default),
}).superRefine((v, ctx) => {
  if (v.kind === 'attachment' && !v.reportId) ctx.addIssue({ code: 'custom', path: ['reportId'], message: 'required' });
  if (v.kind === 'serviceOrder' && v.reportId) ctx.addIssue({ code: 'custom', path: ['reportId'], message: 'not allowed' });
});

export interface UploadableBucket {
  id: number;
  name: string;
  code: string;
  groupId: number;
}

export interface UploadCredentials {
  /** Signed, scoped to one organisation and one exam, expiring; ends with what issued it (session, organisation token or code). */
  token: string;
  /** Unix seconds; never past the end of what issued the credentials (the bearer's expiry, the code's). */
  expires: number;
  bucketId: number;
  examId: number;
  /** Relative to /api/v1/. */
  uploadPath: string;
  maxFileBytes: number;
}

export interface UploadExam {
  id: number;
  bucketId: number;
  storeUid: string | null;
  patientName: string;
  patientId: string;
  modality: string;
  hasImage: boolean;
  uploadTime: string | null;
  instanceCount: number;
}

export interface UploadSession {
  exam: UploadExam;
  /** false when the study was already in the organisation (uploading more of it, or again). */
  created: boolean;
  credentials: UploadCredentials;
  /** Instances the server already has: the wizard skips them, so an interrupted upload resumes. */
  storedSopInstanceUids: string[];
}

/** A stored instance: what its header said (contract/dicom/header.ts), its id and its size. */
export interface StoredInstance extends Pick<DicomHeader,
  'studyInstanceUid' | 'seriesInstanceUid' | 'sopInstanceUid' | 'sopClassUid' | 'transferSyntaxUid' | 'modality' | 'seriesNumber'
  | 'seriesDescription' | 'instanceNumber' | 'rows' | 'columns' | 'frames'> {
  id: number;
  size: number;
}

export interface UploadFileResult {
  /** duplicate: this SOP instance was already stored for the exam; the stored file is kept. */
  status: 'stored' | 'duplicate';
  instance: StoredInstance;
  warnings: string[];
}

export interface UploadCompleted {
  examId: number;
  hasImage: boolean;
  uploadTime: string | null;
  instanceCount: number;
  seriesCount: number;
}

export interface UploadCodeCreated {
  code: string;
  kind: 'serviceOrder' | 'attachment';
  /** Unix seconds. */
  expires: number;
  /** The public page to hand out, e.g. /service-orders/upload?code=... */
  path: string;
}

export interface UploadCodeInfo {
  kind: 'serviceOrder' | 'attachment';
  bucketName: string;
  expires: number;
  /** Set when the code targets one exam: what the uploader needs to recognise it, no internal ids. */
  exam: { patientName: string; modality: string; examTime: string } | null;
}

export interface UploadTokenInfo {
  bucketId: number;
  bucketName: string;
}

/** GET policies/{kind}: what may be uploaded there and a short-lived token to send as the form's `token` field. */
export const POLICY_KINDS = ['avatars', 'forms', 'attachments', 'images'] as const;
export type PolicyKind = (typeof POLICY_KINDS)[number];

export interface UploadPolicy {
  kind: PolicyKind;
  maxBytes: number;
  /** Accepted MIME types (the server checks the file's bytes, not only its name). */
  types: string[];
  /** images: at most 6 per report. */
  maxCount: number | null;
  token: string;
  expires: number;
  /** Relative to /api/v1/, `{id}` being the exam (forms) or report (attachments, images). */
  uploadPath: string;
}

export interface DownloadToken {
  /** Append as `?token=` to file downloads (instance files, series, study package) where no header can be sent. */
  token: string;
  expires: number;
}
