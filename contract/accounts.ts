import { z } from 'zod';
import { PASSWORD_MAX } from './constants';
import { ALL_ACTIONS, type Action } from './actions';
import { idValue } from './common';

/** Lengths are bounded so junk input is a 400, never a database error. */
const username = z.string().trim().min(1).max(64);
const anyPassword = z.string().min(1).max(PASSWORD_MAX * 4);

export const loginInput = z.object({ username, password: anyPassword });
export type LoginInput = z.infer<typeof loginInput>;

export const registerInput = z.object({
  username: z.string().trim().min(3).max(32).regex(/^[A-Za-z0-9_-]+$/, 'alpha_dash'),
  password: anyPassword,
  name: z.string().trim().min(1).max(64),
});

export const changePasswordInput = z.object({ oldPassword: anyPassword, newPassword: anyPassword });
export const updatePasswordInput = z.object({ username, oldPwd: anyPassword, newPwd: anyPassword });

export const patchMeInput = z
  .object({
    name: z.string().trim().min(1).max(64),
    fullName: z.string().trim().max(64),
    avatar: z.string().max(1024),
    signature: z.string().max(1024),
    techTitle: z.string().trim().max(64),
    registry: z.string().trim().max(64),
  })
  .partial()
  .strict();

/**
 * GET accounts/suggestions: `q` matches username or name. `bucketId` narrows to members of that organisation
 * (the caller's own; assign pickers), and `action` further to those holding it there (e.g. report_upsert:
 * the accounts a report may be assigned to).
 */
export const suggestionsQuery = z.object({
  q: z.string().trim().max(64).default(''),
  bucketId: idValue.optional(),
  action: z.enum(ALL_ACTIONS as [Action, ...Action[]]).optional(),
}).refine((v) => v.action === undefined || v.bucketId !== undefined, { path: ['action'], message: 'action needs bucketId' });

export const accountStatusInput = z.object({ status: z.union([z.literal(0), z.literal(1)]) });

/**
 * POST accounts/query-in-realm (areas §7): the accounts of the groups the caller administers, found by username or
 * name; newest sign-in first is not the point here — username order, so a list reads like a directory.
 */
export const realmQueryInput = z.object({
  query: z.string().trim().max(64).default(''),
  skip: z.number().int().min(0).max(1_000_000).default(0),
  limit: z.number().int().min(1).max(100).default(50),
});
export type RealmQueryInput = z.input<typeof realmQueryInput>;

export interface RealmAccount {
  id: number;
  username: string;
  name: string;
  techTitle: string | null;
  /** 0 normal, 1 disabled. */
  status: number;
  lastLoginAt: string | null;
  /** Where the last sign-in came from (the client address the server saw). */
  lastLoginIp: string | null;
  /** The caller's groups the account belongs to. */
  groupIds: number[];
}

export interface RealmPage { items: RealmAccount[]; total: number }

/** POST accounts/{id}/password/reset: a group administrator sets a new password for a member who forgot theirs. */
export const resetPasswordInput = z.object({ newPassword: anyPassword });

export interface User {
  id: number;
  username: string;
  name: string;
  fullName: string | null;
  avatar: string | null;
  signature: string | null;
  mobile: string | null;
  techTitle: string | null;
  registry: string | null;
  canCreateGroup: boolean;
  domainName: Record<string, string>;
}

export interface TokenInfo {
  accessToken: string;
  /** Unix seconds. */
  expires: number;
  loginType: 'normal' | 'scan';
}

export interface LoginResult extends TokenInfo {
  user: User;
}

/** core §3: a map of entries, each with type (1 = action set) and an actions list. Keyed by bucket id. */
export type Permissions = Record<string, { type: 1; actions: Action[] }>;

export interface MyOrganization {
  id: number;
  name: string;
  code: string;
  groupId: number;
  accessLevel: string;
}

export interface AccountSuggestion {
  id: number;
  username: string;
  name: string;
}
