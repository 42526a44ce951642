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
    notificationPrefs: z.object({ examSound: z.boolean(), consultationSound: z.boolean() }).partial().strict(),
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

/**
 * POST accounts/{id}/password/reset: a group administrator sets a new password for a member who forgot theirs
 * ({newPassword}, with the admin's bearer), or the account's owner proves a code sent to the bound mobile
 * ({code, newPassword}, no token needed).
 */
export const resetPasswordInput = z.object({ newPassword: anyPassword, code: z.string().trim().max(16).optional() });

/**
 * Mobile numbers (settings/mobile): a mainland number, 11 digits starting 13–19 (a leading +86 or 86 is dropped),
 * or an international one in E.164 form: + and 8 to 15 digits, not starting with 0. Spaces and dashes are ignored.
 */
export const MAINLAND_MOBILE = /^1[3-9]\d{9}$/;
export const INTERNATIONAL_MOBILE = /^\+[1-9]\d{7,14}$/;
export function normalizeMobile(raw: string): string | null {
  const value = raw.replace(/[\s-]/g, '');
  const mainland = /^(?:\+?86)?(1[3-9]\d{9})$/.exec(value);
  if (mainland) return mainland[1]!;
  return INTERNATIONAL_MOBILE.test(value) && !value.startsWith('+86') ? value : null;
}
export const mobileValue = z.string().max(32).transform((value, ctx) => {
  const mobile = normalizeMobile(value);
  if (mobile === null) {
    ctx.addIssue({ code: 'custom', message: 'mobile' });
    return z.NEVER;
  }
  return mobile;
});

/** A verification code as the SMS gives it: 6 digits. */
export const CODE_LENGTH = 6;
export const verificationCode = z.string().trim().regex(/^\d{6}$/, 'six digits');
/** Codes live 10 minutes, allow 5 wrong tries, are used once; an account gets at most one every 60 s. */
export const CODE_TTL_SECONDS = 10 * 60;
export const CODE_MAX_TRIES = 5;
export const CODE_RESEND_SECONDS = 60;

export const bindMobileCodeInput = z.object({ mobile: mobileValue }).strict();
export const bindMobileInput = z.object({ mobile: mobileValue, code: verificationCode }).strict();

/**
 * The `{id}` of accounts/{id}/code/reset-password and accounts/{id}/password/reset: the account's numeric id, or
 * its username (what a person who forgot the password knows). A segment of digits only is read as an id.
 */
export const accountRefParam = z.object({
  id: z.string().trim().min(1).max(64).transform((value) => (/^\d{1,10}$/.test(value) ? { id: Number(value) } : { username: value })),
});

/** What a code request answers: where it went (masked) and the timings the screen counts down (seconds). */
export interface CodeSent { mobile: string; expiresIn: number; resendAfter: number }

/** GET accounts/{id}/mobile: the bound number with its middle hidden (138****5678), or null. */
export interface MaskedMobile { mobile: string | null }

/** Personal notification settings: whether each kind of notification plays its sound (on unless switched off). */
export interface NotificationPrefs { examSound: boolean; consultationSound: boolean }

/** Signatures (settings/signature): PNG or JPEG, at most 512 KB, 64×24 to 4000×4000 pixels, and not blank. */
export const SIGNATURE_MAX_BYTES = 512 * 1024;
export const SIGNATURE_MIN_SIZE = { width: 64, height: 24 } as const;
export const SIGNATURE_MAX_SIDE = 4000;

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
  /** The account's own notification settings; absent in answers that predate them (read as all on). */
  notificationPrefs?: NotificationPrefs;
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
