/**
 * Organisation (bucket) administration (areas §3 "Organisation", §5, §6, §7 "Organisations"): the organisation's
 * settings and code, its members and custom roles, its dictionaries (departments, body parts, doctors, critical
 * values, extensions, report extension packages), the public upload token, and the ordered lists (procedures,
 * procedure steps, device groups, devices). Every request and response shape of server/organizations/.
 */
import { z } from 'zod';
import { BUCKET_ACCESS, type ACTIONS, type Action, type BucketAccess } from './actions';
import { text } from './common';

const id = z.number().int().positive().max(2_147_483_647);

/**
 * The organisation code rule (areas §5, §9): 4 to 35 characters, no spaces or special characters: letters, digits,
 * dashes and underscores (the spec's alpha_dash, as hospitals write their codes: CITY1-RAD), beginning and ending with
 * a letter or a digit. Every character is safe in a URL path, where public links carry the code (/reports/{orgCode}/list).
 * Uniqueness (case-insensitive) and "fixed once bound" are the server's to check. Used by bind-code, the group's "add
 * organisation", both admin screens, and the demo data (tests/api/organizations.test.ts checks every seeded code).
 */
export const ORGANIZATION_CODE_MIN = 4;
export const ORGANIZATION_CODE_MAX = 35;
export const organizationCode = z.string()
  .min(ORGANIZATION_CODE_MIN).max(ORGANIZATION_CODE_MAX)
  .regex(/^[A-Za-z0-9](?:[A-Za-z0-9_-]*[A-Za-z0-9])?$/, 'letters, digits, dashes and underscores, beginning and ending with a letter or a digit');
export function isOrganizationCode(value: string): boolean {
  return organizationCode.safeParse(value).success;
}

/** An IANA time zone the runtime knows (`Asia/Shanghai`, `UTC`, `Europe/Berlin`). */
export function isTimeZone(value: string): boolean {
  if (!/^[A-Za-z0-9_+\-/]{1,64}$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

// ---- The organisation ----

export interface OrganizationPerson {
  accountId: number;
  username: string;
  name: string;
}

export interface Organization {
  id: number;
  groupId: number;
  name: string;
  code: string;
  codeBound: boolean;
  isPrivate: boolean;
  isFocused: boolean;
  freeEfilm: boolean;
  /** A submitted report is issued at once (no second approver): docs/report-lifecycle.md "Final on submit". */
  reportFinalOnSubmit: boolean;
  timeZone: string;
  /** Whether the caller administers it (organisation admin or group admin). */
  canAdmin: boolean;
  /** Members with their access level. */
  members: (OrganizationPerson & { accessLevel: BucketAccess })[];
  /** The group's admins (who administer every organisation of the group). */
  groupAdmins: OrganizationPerson[];
}

export const organizationPatch = z.object({
  name: text(128).optional(),
  isPrivate: z.boolean().optional(),
  isFocused: z.boolean().optional(),
  freeEfilm: z.boolean().optional(),
  reportFinalOnSubmit: z.boolean().optional(),
  timeZone: z.string().trim().refine(isTimeZone, 'not an IANA time zone').optional(),
}).strict();
export type OrganizationPatch = z.infer<typeof organizationPatch>;

/** The code is checked by the server (OrganizationCodeInvalid / Taken / Bound), so the shape here stays loose. */
export const bindCodeInput = z.object({ code: z.string().max(200) });

// ---- Members ----

export interface OrganizationMember {
  accountId: number;
  username: string;
  name: string;
  accessLevel: BucketAccess;
  roleIds: number[];
  lastLoginAt: string | null;
  lastLoginIp: string | null;
}

export const memberInput = z.object({
  username: z.string().trim().min(1).max(64).optional(),
  accountId: id.optional(),
  accessLevel: z.enum(BUCKET_ACCESS).default('member'),
}).refine((v) => (v.username === undefined) !== (v.accountId === undefined), { message: 'give username or accountId', path: ['username'] });
export type MemberInput = z.input<typeof memberInput>;

export const memberPatch = z.object({ accessLevel: z.enum(BUCKET_ACCESS) });

// ---- Roles ----

export interface ActionCategory {
  category: keyof typeof ACTIONS;
  actions: Action[];
}

export interface Role {
  id: number;
  bucketId: number;
  name: string;
  actions: Action[];
  accountIds: number[];
}

/** Actions are strings here: an unknown one is refused with UnknownAction (details.actions), not a bare ParamsError. */
export const roleInput = z.object({
  name: text(64),
  actions: z.array(z.string().max(64)).max(100),
});
export type RoleInput = z.infer<typeof roleInput>;

export const roleUsersInput = z.object({ accountIds: z.array(id).max(1000) });

// ---- Dictionaries ----

export interface Department { id: number; name: string }
export interface Bodypart { id: number; name: string }
export interface Doctor { id: number; name: string; departmentId: number; departmentName: string | null; physicianType: number }
export interface CriticalValue { id: number; name: string }
export interface BucketExtension { id: number; key: string; label: string }
export const PACKAGE_TYPES = ['report', 'exam'] as const;
export type PackageType = (typeof PACKAGE_TYPES)[number];
export interface PackageField { name: string; unit: string | null }
export interface ExtensionPackage { id: number; name: string; type: PackageType; fields: PackageField[] }

export const nameInput = z.object({ name: text(64) });
export const criticalValueInput = z.object({ name: text(128) });
/** departmentId 0 = none (areas §3: shown with the "none" label). */
export const doctorInput = z.object({
  name: text(64),
  departmentId: z.number().int().min(0).max(2_147_483_647).default(0),
  physicianType: z.number().int().min(0).max(99).default(1),
});
/** alpha_dash (areas §5): letters, digits, dash, underscore. */
export const extensionInput = z.object({
  key: z.string().trim().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, dash and underscore only'),
  label: text(128),
});
export const packageInput = z.object({
  name: text(64),
  type: z.enum(PACKAGE_TYPES).default('report'),
  fields: z.array(z.object({ name: text(64), unit: z.string().trim().max(32).nullable().default(null) })).min(1).max(100),
});
export type PackageInput = z.input<typeof packageInput>;

// ---- Upload token ----

export interface UploadToken { token: string | null }
export const findOneQuery = z.object({ token: z.string().min(1).max(64) });
export interface FoundOrganization { id: number; name: string }

// ---- Ordered lists ----

const modality = z.string().trim().regex(/^[A-Z0-9]{1,8}$/, 'modality: capital letters and digits, at most 8');

export interface Procedure { id: number; code: string; name: string; enDescription: string | null; modality: string; price: number; sortOrder: number }
export const procedureInput = z.object({
  code: z.string().trim().min(1).max(32).regex(/^[A-Za-z0-9_.-]+$/, 'letters, digits, dot, dash and underscore only'),
  name: text(128),
  enDescription: z.string().trim().max(256).nullable().default(null),
  modality,
  price: z.number().finite().min(0).max(10_000_000).default(0),
});
export type ProcedureInput = z.input<typeof procedureInput>;

export interface ProcedureStep {
  id: number; name: string; modality: string; bodyPart: string | null; procedureId: number | null;
  reportDuringExam: boolean; showLocalVideo: boolean; sortOrder: number;
}
export const stepInput = z.object({
  name: text(128),
  modality,
  bodyPart: z.string().trim().max(64).nullable().default(null),
  procedureId: id.nullable().default(null),
  reportDuringExam: z.boolean().default(false),
  showLocalVideo: z.boolean().default(false),
});
export type StepInput = z.input<typeof stepInput>;

export interface DeviceGroup { id: number; name: string; sortOrder: number }
export const deviceGroupInput = z.object({ name: text(64) });

export interface Device { id: number; name: string; modality: string; aeTitle: string | null; host: string | null; port: number | null; room: string | null; deviceGroupId: number | null; sortOrder: number }
/** Where a device listens for DICOM: a host name (RFC 1123 labels) or an IPv4 / IPv6 address. */
export const deviceHost = z.string().trim().min(1).max(253).refine(
  (v) => /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/.test(v)
    || /^(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)$/.test(v)
    || (/^[0-9A-Fa-f:.]+$/.test(v) && v.includes(':')),
  'a host name or an IP address',
);
export const devicePort = z.number().int().min(1).max(65535);
/** DICOM AE title: at most 16 characters; stored upper case (lower case is raised) (letters, digits, space, dash, underscore, dot). */
export const deviceInput = z.object({
  name: text(64),
  modality,
  aeTitle: z.string().trim().toUpperCase().min(1).max(16).regex(/^[A-Z0-9 _.-]+$/, 'upper-case letters, digits, space, dash, underscore, dot').nullable().default(null),
  room: z.string().trim().max(64).nullable().default(null),
  deviceGroupId: id.nullable().default(null),
  host: deviceHost.nullable().default(null),
  port: devicePort.nullable().default(null),
});
export type DeviceInput = z.input<typeof deviceInput>;

/** A re-sort: the complete list of the organisation's ids in their new order (anything else: 400 InvalidOrder). */
export const resortIdsInput = z.object({ ids: z.array(id).max(10_000) });
export type ResortIdsInput = z.infer<typeof resortIdsInput>;
