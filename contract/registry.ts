import { z } from 'zod';
import { isoDateTime, isoDay, pageQuerySchema, type Operator } from './common';
import { AGE_UNITS, EXAM_GENDERS, PATIENT_SOURCES } from './constants';
import type { MppsProgress } from './mpps';

/**
 * Registry and scheduling (areas §2 /registry, §3 "Scheduled exam / registry entry", §4 "Exam registration
 * status", §5 registry rules, §7 "Registry", §9). A registration is one patient's visit at the desk with up to 5
 * exam lines; each line is an exam row (the worklist's table: one exam table, not two) carrying its registration
 * status. The status rules are machines/registration.ts.
 */

/** Areas §4, in the spec's order. */
export const REGISTRATION_STATUSES = ['Registered', 'Scheduled', 'Arrived', 'Performed', 'Cancelled'] as const;
export type RegistrationStatus = (typeof REGISTRATION_STATUSES)[number];

/** What a registrar can do to one exam line; the server lists the allowed ones per row (`transitions`). */
export const REGISTRY_ACTIONS = ['edit', 'check-in', 'perform', 'revoke', 'cancel', 'delete', 'match'] as const;
export type RegistryAction = (typeof REGISTRY_ACTIONS)[number];

/** The role action each registry action needs (areas §6 "Registry"). */
export const REGISTRY_PERMISSION = {
  edit: 'registry_update',
  'check-in': 'registry_update',
  perform: 'registry_update',
  revoke: 'registry_update',
  cancel: 'registry_update',
  match: 'registry_update',
  delete: 'registry_delete',
} as const satisfies Record<RegistryAction, 'registry_update' | 'registry_delete'>;

/** Areas §9. */
export const REGISTRY_PAGE_SIZE = 10;
export const REGISTRY_MAX_EXAMS = 5;
export const SCHEDULE_EXPORT_MAX = 3000;
export const LABEL_WIDTH_MM = 80;
export const LABEL_HEIGHT_MM = 50;
export const CANCEL_REASON_MAX = 256;
/** Pet domains use these genders (areas §9) instead of M, F, O, U. */
export const PET_GENDERS = ['M', 'F', 'MS', 'FS', 'U'] as const;
export const HUMAN_GENDERS = ['M', 'F', 'O', 'U'] as const;

/** The group's rule for finding earlier records of the same person (areas §3 matchDob). */
export const MATCH_DOB = ['disabled', 'shift_on', 'shift_off'] as const;
export type MatchDob = (typeof MATCH_DOB)[number];

/**
 * Which registrations the list shows (areas §7 "source default internal"): those made at this desk (internal, the
 * default), those that came with an outside order id (external: HIS orders, GET registry/findbyorderid), or all.
 * Not the patient source: E there is emergency (core §3).
 */
export const SOURCE_SCOPES = ['internal', 'external', 'all'] as const;
export type SourceScope = (typeof SOURCE_SCOPES)[number];

const optionalText = (max: number) => z.string().trim().max(max).nullable().optional().transform((v) => (v === '' ? null : v ?? null));
const isoTime = isoDateTime;

export const registryPatient = z.object({
  patientName: z.string().trim().min(1).max(128),
  /** Absent: the server gives the patient a new id. */
  patientId: optionalText(64),
  patientGender: z.enum(EXAM_GENDERS),
  patientDob: isoDay.nullable().optional(),
  age: z.number().int().min(0).max(150).nullable().optional(),
  ageUnit: z.enum(AGE_UNITS).default('Y'),
  phone: z.string().trim().regex(/^[0-9+\- ]{0,32}$/, 'digits, +, - and spaces').nullable().optional(),
  patientSource: z.enum(PATIENT_SOURCES),
  inpatientId: optionalText(64),
  bedNum: optionalText(16),
  outpatientId: optionalText(64),
  physicalExamId: optionalText(64),
  applyDept: optionalText(64),
  clinicImpression: optionalText(1024),
});
export type RegistryPatient = z.input<typeof registryPatient>;

export const registryExamLine = z.object({
  /** An existing line (PUT registry); absent adds a line. */
  examId: z.number().int().positive().optional(),
  procedureStepId: z.number().int().positive().nullable().optional(),
  /** Required when no procedure step is given (areas §5). */
  modality: z.string().trim().regex(/^[A-Z0-9]{1,8}$/, 'an upper-case modality code').nullable().optional(),
  bodyPart: optionalText(64),
  scheduledTime: isoTime,
  urgentFlag: z.boolean().default(false),
});
export type RegistryExamLine = z.input<typeof registryExamLine>;

/** POST registry. The rules past the shapes (5 lines, not before today, step or modality, source ids) answer their own codes. */
export const registryCreateInput = z.object({
  bucketId: z.number().int().positive(),
  patient: registryPatient,
  /** At most REGISTRY_MAX_EXAMS; more is RegistryTooManyExams, checked on the server so the message is the catalogue's. */
  exams: z.array(registryExamLine).min(1).max(50),
  orderId: optionalText(64),
});
export type RegistryCreateInput = z.input<typeof registryCreateInput>;

/** PUT registry: the patient and the lines of one registration; `version` is the registration's, as read. */
export const registryUpdateInput = registryCreateInput.omit({ bucketId: true }).extend({
  registrationId: z.number().int().positive(),
  version: z.number().int().min(0),
});
export type RegistryUpdateInput = z.input<typeof registryUpdateInput>;

/** POST exam/status and the scheduled-exam calls: the line's `version` as read, so a stale action changes nothing. */
export const examStatusInput = z.object({
  examId: z.number().int().positive(),
  status: z.enum(['Arrived', 'Performed']),
  version: z.number().int().min(0),
});
export const scheduledActionInput = z.object({ version: z.number().int().min(0) });
export const scheduledCancelInput = scheduledActionInput.extend({ reason: z.string().trim().min(1).max(CANCEL_REASON_MAX) });
export const scheduledExtensionInput = scheduledActionInput.extend({
  extension: z.record(z.string().max(64), z.union([z.string().max(2000), z.number(), z.boolean(), z.null()]))
    .refine((o) => Object.keys(o).length <= 50, 'at most 50 extension fields'),
});
export const matchInput = scheduledActionInput;

/** The page-query whitelist of POST buckets/{id}/registry/query. */
export type RegistryFilterKind = 'int' | 'time' | 'status' | 'source' | 'scope' | 'text' | 'modality';
export const REGISTRY_FILTER_FIELDS = {
  /** Exam lines by id (the label print view reads the lines it prints). */
  examId: { kind: 'int', operators: ['equal', 'in'] },
  registrationId: { kind: 'int', operators: ['equal'] },
  scheduledTime: { kind: 'time', operators: ['gte', 'lt', 'lte'] },
  created: { kind: 'time', operators: ['gte', 'lt', 'lte'] },
  examStatus: { kind: 'status', operators: ['equal', 'in'] },
  patientSource: { kind: 'source', operators: ['equal', 'in'] },
  /** internal (default) | external | all. */
  sourceScope: { kind: 'scope', operators: ['equal'] },
  modality: { kind: 'modality', operators: ['equal', 'in'] },
  /** Name, patient id, phone or accession number, as the look-up reads them. */
  search: { kind: 'text', operators: ['like'] },
} as const satisfies Record<string, { kind: RegistryFilterKind; operators: readonly Operator[] }>;
export type RegistryFilterField = keyof typeof REGISTRY_FILTER_FIELDS;
export const REGISTRY_SORT_FIELDS = ['created', 'scheduledTime', 'id'] as const;

export const registryPageQuery = pageQuerySchema.extend({
  limit: z.number().int().min(1).max(100).default(REGISTRY_PAGE_SIZE),
});
export type RegistryPageQuery = z.input<typeof registryPageQuery>;

/** POST exports/schedules: the same filters as the list, one organisation, at most SCHEDULE_EXPORT_MAX rows. */
export const scheduleExportInput = z.object({
  bucketId: z.number().int().positive(),
  filters: pageQuerySchema.shape.filters,
  lang: z.enum(['chs', 'en', 'tib']).default('chs'),
  timeZone: z.string().max(64).optional(),
});

/** POST buckets/{id}/registry/patients: earlier records of a person, by what the registrar typed. */
export const patientLookupInput = z.object({
  q: z.string().trim().min(1).max(64),
  patientDob: isoDay.nullable().optional(),
  limit: z.number().int().min(1).max(20).default(8),
});

export interface ProcedureStep {
  id: number;
  name: string;
  modality: string;
  bodyPart: string | null;
  /** Reporting may begin during the exam: no images needed, so arrival makes the exam Performed (areas §4). */
  reportDuringExam: boolean;
}

/** One exam line as the registry list shows it. */
export interface RegistryRow {
  examId: number;
  registrationId: number;
  /** The registration's version, sent back with every action on it. */
  version: number;
  bucketId: number;
  bucketName: string;
  status: RegistrationStatus;
  scheduledTime: string;
  arrivedTime: string | null;
  created: string;
  cancelReason: string | null;
  accessionNumber: string;
  modality: string;
  bodyPart: string | null;
  procedureStep: { id: number; name: string } | null;
  urgentFlag: boolean;
  patientName: string;
  patientId: string;
  patientGender: string;
  patientDob: string | null;
  visitAge: string | null;
  phone: string | null;
  patientSource: string | null;
  inpatientId: string | null;
  bedNum: string | null;
  outpatientId: string | null;
  physicalExamId: string | null;
  extension: Record<string, unknown>;
  /** What the caller may do to this line now, asked of the registration machine and the caller's rights. */
  transitions: RegistryAction[];
  /** The modality's latest performed procedure step for this line (MPPS), or null when none reported. */
  mpps: MppsProgress | null;
}

export interface RegistryPage {
  items: RegistryRow[];
  total: number;
}

/** A registration with all its lines (GET registry/findbyorderid, POST/PUT registry answers). */
export interface Registration {
  id: number;
  bucketId: number;
  version: number;
  orderId: string | null;
  lines: RegistryRow[];
}

/** An earlier record of a person the look-up offers to fill the form from. */
export interface PatientRecord extends Pick<RegistryRow,
  'patientName' | 'patientId' | 'patientGender' | 'patientDob' | 'phone' | 'patientSource' | 'inpatientId' | 'bedNum'
  | 'outpatientId' | 'physicalExamId'> {
  lastExamTime: string;
  exams: number;
}

/** The registry's dictionaries for one organisation: its steps and the group's look-up rule. */
export interface RegistrySetup {
  bucketId: number;
  timeZone: string;
  isPet: boolean;
  matchDob: MatchDob;
  steps: ProcedureStep[];
  /** The caller's registry_* actions here. */
  actions: ('registry_create' | 'registry_update' | 'registry_delete')[];
}
