import { z } from 'zod';
import { decimalInt, idValue, isoDay } from './common';
import type { GENDERS } from './constants';

/**
 * What leaves the building: report share links (/reports/s?link), the patient's report view
 * (/web-report → GET|POST yyp/report-view), an organisation's published list (/reports/{orgCode}/list →
 * integration/org-verify-configs and integration/exam-reports), and electronic film (/sf/{link}, /efilm/query).
 * Answers carry no internal ids; a report is shown only as currently approved (corrected or printed).
 */

/** Approved, in core §4's words: corrected (approved) or printed. */
export const APPROVED_STATUSES = ['corrected', 'printed'] as const;

/** How long a report share link lives, in days. */
export const SHARE_TTL_DAYS = { min: 1, max: 365, default: 30 } as const;
export const createShareInput = z.object({ ttlDays: z.number().int().min(SHARE_TTL_DAYS.min).max(SHARE_TTL_DAYS.max).default(SHARE_TTL_DAYS.default) })
  .default({ ttlDays: SHARE_TTL_DAYS.default });
export const linkParam = z.object({ link: z.string().min(16).max(64).regex(/^[A-Za-z0-9_-]+$/) });
export const shareQuery = z.object({ link: z.string().min(1).max(64) });

export interface ShareLink {
  link: string;
  /** The public page: /reports/s?link=... */
  path: string;
  expires: number;
  created: string;
  revoked: boolean;
  createdBy: number;
}

/** The exam as an outsider sees it: no ids, no organisation internals. */
export interface SharedExamHeader {
  patientName: string;
  patientGender: (typeof GENDERS)[number] | string;
  visitAge: string | null;
  modality: string;
  bodyPart: string | null;
  studyDescription: string | null;
  examTime: string;
  organisation: string;
}

export interface SharedReportContent {
  finding: string;
  diagnosis: string;
  positive: boolean | null;
  approvedTime: string | null;
  /** The approver's name. */
  issuer: string | null;
}

/**
 * final: `report` is the current approved version. pending: not approved yet (nothing shown).
 * recalled: it was approved and has been recalled; nothing is shown until it is approved again.
 */
export type SharedReportState = 'final' | 'pending' | 'recalled';

export interface SharedReport {
  state: SharedReportState;
  exam: SharedExamHeader;
  report: SharedReportContent | null;
  /** The report was recalled or corrected after the link was made: what is shown (if anything) is the version of now. */
  changedSinceShared: boolean;
  /** Unix seconds: the link's expiry. */
  expires: number;
}

/** Core §7 report-view: GET with query, POST with body. Both ids must belong to the same exam. */
export const reportViewInput = z.object({
  patientId: z.string().trim().min(1).max(64),
  serviceRequestId: z.string().trim().min(1).max(64),
});

export interface PatientReport {
  exam: SharedExamHeader;
  report: SharedReportContent;
}

export interface PatientReports {
  items: PatientReport[];
}

/** What an organisation's public list asks the patient (GET integration/org-verify-configs/{orgCode}). */
export const VERIFY_FIELDS = ['patientId', 'patientName', 'patientDob'] as const;
export interface OrgVerifyConfig {
  orgCode: string;
  organisation: string;
  fields: (typeof VERIFY_FIELDS)[number][];
}

export const orgCodeParam = z.object({ orgCode: z.string().trim().min(1).max(35) });
/** The decoded `verifies` JSON of /reports/{orgCode}/list. */
export const verifiesInput = z.object({
  patientId: z.string().trim().min(1).max(64),
  patientName: z.string().trim().min(1).max(128),
  patientDob: isoDay,
});
export const examReportsQuery = z.object({
  orgCode: z.string().trim().min(1).max(35),
  /** URL-encoded JSON of verifiesInput (the query parser decodes the URL encoding). */
  verifies: z.string().min(2).max(2000),
});

/** Report publishing (order_report_publish). */
export interface Publication {
  reportId: number;
  examId: number;
  patientName: string;
  modality: string;
  examTime: string;
  /** The report's status now: a published report that is no longer approved is not shown to patients. */
  status: string;
  publishedAt: string;
  /** The publisher's display name; null when that account is gone. */
  publishedByName: string | null;
}
/** The most rows one page of GET report-publish/list gives. */
export const PUBLICATIONS_PAGE_MAX = 200;
export const publicationsQuery = z.object({
  bucketId: idValue,
  skip: decimalInt(0, 1_000_000).default(0),
  limit: decimalInt(1, PUBLICATIONS_PAGE_MAX).default(50),
});

/** GET reports/{id}/publish: whether the report is on its organisation's patient-facing list now. */
export const publicationStateSchema = z.object({
  reportId: z.number().int().positive(),
  published: z.boolean(),
  /** ISO time of the (last) publishing; null when not published. */
  publishedAt: z.iso.datetime().nullable(),
  publishedByName: z.string().nullable(),
}).strict();
export type PublicationState = z.infer<typeof publicationStateSchema>;

/** Electronic film; how long a film's link and code live, in days. */
export const FILM_TTL_DAYS = { min: 1, max: 30, default: 7 } as const;
export const filmShareInput = z.object({
  examId: z.number().int().positive().max(2_147_483_647),
  ttlDays: z.number().int().min(FILM_TTL_DAYS.min).max(FILM_TTL_DAYS.max).default(FILM_TTL_DAYS.default),
});
export interface FilmShare {
  link: string;
  /** Printed on the film envelope; asked together with the link or the patient ID. */
  code: string;
  /** /sf/{link} */
  path: string;
  expires: number;
}
/** GET exams/{id}/film-shares: an exam's films, newest first, so a code can be read again and a film revoked later. */
export interface FilmShareItem extends FilmShare {
  created: string;
  revoked: boolean;
}
/** The most films GET exams/{id}/film-shares lists (newest first). */
export const FILM_SHARES_LISTED = 50;
export const FILM_CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const FILM_CODE_LENGTH = 8;
export const findAndVerifyInput = z.object({
  code: z.string().trim().toUpperCase().length(FILM_CODE_LENGTH),
  link: z.string().min(16).max(64).regex(/^[A-Za-z0-9_-]+$/).optional(),
  patientId: z.string().trim().min(1).max(64).optional(),
}).refine((v) => v.link || v.patientId, { message: 'link or patientId is required', path: ['link'] });

export interface FilmView {
  exam: SharedExamHeader;
  state: SharedReportState;
  report: SharedReportContent | null;
  /** The viewer: fetch `seriesPath` and each instance path with ?token= (a view token that ends with the film: its expiry or revocation). */
  viewer: { seriesPath: string; token: string; expires: number };
  expires: number;
}
