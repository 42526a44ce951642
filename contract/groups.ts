import { z } from 'zod';
import { MATCH_DOB, type MatchDob } from './registry';
import type { Group } from './domain';
import { idValue } from './common';
import { pathologyUrlInput } from './pathology';

/**
 * Group administration (areas §3 Group, §5, §6, §7 "Groups", §8): the group itself and its flags, its members, its
 * organisations, assign rules, and the organisations and accounts its settings name. docs/api.md "Groups" lists the
 * endpoints and their error codes.
 */

/** 0 member, 1 group admin (areas §4 "Access levels: group: member, admin"). */
export const GROUP_ACCESS_LEVELS = [0, 1] as const;
export type GroupAccessLevel = (typeof GROUP_ACCESS_LEVELS)[number];

/** Areas §5 alpha_dash: letters, digits, dash, underscore. */
export const GROUP_NAME_RE = /^[A-Za-z0-9_-]+$/;
export const GROUP_NAME_MIN = 2;
export const GROUP_NAME_MAX = 64;
export const groupName = z.string().trim().min(GROUP_NAME_MIN).max(GROUP_NAME_MAX).regex(GROUP_NAME_RE, 'alpha_dash');

/** Areas §5 "Notifications: only 2 users per organisation" (per organisation and type). */
export const NOTIFICATION_USERS_MAX = 2;
/** What a notification setting is about: new exams, consultations, critical values, expert/remote report requests. */
export const NOTIFICATION_TYPES = ['exam', 'consultation', 'criticalValue', 'remoteReport'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

const dbId = z.number().int().positive().max(2_147_483_647);
const paramId = idValue;
const optionalUrl = z.string().trim().max(1024).nullable().transform((v) => (v === '' ? null : v));

export const groupParams = z.object({ id: paramId });
export const groupMemberParams = z.object({ id: paramId, accountId: paramId });
export const groupBucketParams = z.object({ id: paramId, bucketId: paramId });
export const groupRuleParams = z.object({ id: paramId, ruleId: paramId });

/** GET groups/available?name: the name's rule is checked (400), then whether it is free. */
export const groupAvailableQuery = z.object({ name: groupName });
export interface GroupAvailable { available: boolean }

/** POST groups (areas §7 "POST groups {id, displayName}": the id there is the group's unique name). */
export const createGroupInput = z.object({ name: groupName, displayName: z.string().trim().min(1).max(128) });
export type CreateGroupInput = z.input<typeof createGroupInput>;

/** PATCH groups/{id}: any of the group's settings (areas §3); absent ones are kept. */
export const patchGroupInput = z.object({
  displayName: z.string().trim().min(1).max(128),
  domainName: z.string().trim().max(128).nullable().transform((v) => (v === '' ? null : v)),
  openTelemed: z.boolean(),
  enableRegistry: z.boolean(),
  enableStat: z.boolean(),
  enableConsultation: z.boolean(),
  /** A sound URL switches the notification on; null switches it off. */
  autoNotifyAudio: optionalUrl,
  autoConsulNotifyAudio: optionalUrl,
  /** Organisations of this group (BucketNotInGroup otherwise). */
  defaultConsultationBucketId: dbId.nullable(),
  defaultExpertBucketId: dbId.nullable(),
  isGroupKb: z.boolean(),
  featEncryptionViewerOn: z.boolean(),
  enableCalling: z.boolean(),
  openPrivateCloud: z.enum(['0', '1']),
  allowOverview: z.boolean(),
  enableCredit: z.boolean(),
  /** http(s) only, with the placeholders of contract/pathology.ts. */
  pathologyUrl: pathologyUrlInput,
  allowAccountMgmt: z.boolean(),
  matchDob: z.enum(MATCH_DOB),
  logo: optionalUrl,
  url: optionalUrl,
  allowRegistration: z.boolean(),
  searchInGroup: z.boolean(),
}).partial().strict();
export type PatchGroupInput = z.input<typeof patchGroupInput>;

/** groups/mine and GET groups/{id}: the Group of contract/domain.ts with the settings added since. */
export interface GroupView extends Group {
  matchDob: MatchDob;
  logo: string | null;
  url: string | null;
  allowRegistration: boolean;
  searchInGroup: boolean;
}

/** GET groups/{id}: members get the group; its admins also who made it, when, and how big it is. */
export interface GroupDetail extends GroupView {
  name: string;
  admin?: { createdBy: number | null; created: string; memberCount: number; organizationCount: number };
}

/** GET groups/{id}/quality: the quality records of the group's organisations by grade. */
export interface GroupQuality {
  total: number;
  grades: { grade: string; count: number }[];
  organizations: { bucketId: number; name: string; total: number; grades: { grade: string; count: number }[] }[];
}

// Members.

export interface GroupMember {
  accountId: number;
  username: string;
  name: string;
  techTitle: string | null;
  accessLevel: GroupAccessLevel;
  /** 0 normal, 1 disabled. */
  status: number;
  lastLoginAt: string | null;
  /** The member's organisations in this group. */
  organizations: { bucketId: number; accessLevel: string }[];
}

const accessLevel = z.union([z.literal(0), z.literal(1)]);
export const inviteMemberInput = z.object({ username: z.string().trim().min(1).max(64), accessLevel: accessLevel.default(0) });
export const createMemberAccountInput = z.object({
  username: z.string().trim().min(3).max(32).regex(/^[A-Za-z0-9_-]+$/, 'alpha_dash'),
  name: z.string().trim().min(1).max(64),
  /** contract/password.ts's rule (PasswordTooSimple otherwise). */
  password: z.string().min(1).max(128),
  accessLevel: accessLevel.default(0),
  /** Organisations of this group the account joins as a member. */
  bucketIds: z.array(dbId).max(100).default([]),
});
export const patchMemberInput = z.object({ accessLevel });

/** POST groups/{id}/members/query: the whitelist (docs/api.md "List queries"). */
export const GROUP_MEMBER_FILTER_FIELDS = {
  name: { kind: 'text', operators: ['like', 'equal'] },
  username: { kind: 'text', operators: ['like', 'equal'] },
  accessLevel: { kind: 'level', operators: ['equal', 'in'] },
} as const;
export type GroupMemberFilterField = keyof typeof GROUP_MEMBER_FILTER_FIELDS;
/** Default username ascending; the account id breaks ties. */
export const GROUP_MEMBER_SORT_FIELDS = ['name', 'username', 'lastLoginAt', 'id'] as const;

// Organisations.

export interface GroupOrganization {
  id: number;
  groupId: number;
  name: string;
  code: string;
  isPrivate: boolean;
  isFocused: boolean;
  freeEfilm: boolean;
  codeBound: boolean;
  memberCount: number;
}

export const createOrganizationInput = z.object({
  name: z.string().trim().min(1).max(128),
  /** Checked by the server with contract/organizations.ts's rule (OrganizationCodeInvalid) and for uniqueness (OrganizationCodeTaken). */
  code: z.string().trim().min(1).max(200),
  isPrivate: z.boolean().default(false),
});

export const GROUP_ORGANIZATION_FILTER_FIELDS = {
  name: { kind: 'text', operators: ['like', 'equal'] },
  code: { kind: 'text', operators: ['like', 'equal'] },
  isPrivate: { kind: 'bool', operators: ['equal'] },
} as const;
export type GroupOrganizationFilterField = keyof typeof GROUP_ORGANIZATION_FILTER_FIELDS;
/** Default name ascending; the id breaks ties. */
export const GROUP_ORGANIZATION_SORT_FIELDS = ['name', 'code', 'id'] as const;

// Assign rules.

export const assignRuleInput = z.object({
  name: z.string().trim().min(1).max(64),
  /** An organisation of this group (BucketNotInGroup). */
  bucketId: dbId,
  /** Members of that organisation (NotBucketMember); null reporter = the least loaded of memberIds. */
  reporterId: dbId.nullable().default(null),
  modality: z.string().trim().regex(/^[A-Z0-9]{1,8}$/, 'a modality code').nullable().default(null),
  memberIds: z.array(dbId).max(100).default([]),
  priority: z.number().int().min(-1_000_000).max(1_000_000).default(0),
}).refine((v) => v.reporterId !== null || v.memberIds.length > 0, { path: ['reporterId'], message: 'a reporter or members are required' });
export type AssignRuleInput = z.input<typeof assignRuleInput>;

export interface AssignRule {
  id: number;
  groupId: number;
  name: string;
  bucketId: number;
  reporterId: number | null;
  modality: string | null;
  memberIds: number[];
  priority: number;
}

// Settings lists.

/** GET groups/{id}/rads: accounts holding report_upsert in any of the group's organisations. */
export interface GroupRad { id: number; name: string; title: string | null }

export const expertBucketsInput = z.array(z.object({ bucketId: dbId, free: z.boolean().default(false) })).max(200);
export interface ExpertBucket { bucketId: number; name: string; free: boolean }

export const bucketIdsInput = z.array(dbId).max(200);
export interface GroupBucketRef { bucketId: number; name: string }

export const notificationsInput = z.array(z.object({
  bucketId: dbId,
  type: z.enum(NOTIFICATION_TYPES),
  /** At most NOTIFICATION_USERS_MAX (NotificationLimit), members of the organisation (NotBucketMember). */
  accountIds: z.array(dbId).max(50),
})).max(500);
export interface NotificationSetting { bucketId: number; type: NotificationType; accountIds: number[] }
