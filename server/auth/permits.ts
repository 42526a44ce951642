import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { PolicyKind } from '../../contract/uploads';
import { accounts, buckets, filmShares, uploadCodes } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';

/**
 * The short-lived permits of the images area, all signed by deps.storage.signer, each with its own
 * use so one can never stand in for another:
 *  - upload:   DICOM files into one exam of one organisation (the upload session's credentials);
 *  - policy:   one account's form upload of one policy kind (key images, attachments, avatars, forms);
 *  - download: one account's GET of file routes where no header can be sent (<a href>, <img src>);
 *  - view:     one exam's series and instance files (the viewer's path, an electronic film).
 *
 * A permit dies with its cause (docs/api.md "Permits"): it carries what issued it (`by`), and every use
 * reads that cause's row again (`checkLive`: one primary-key lookup, two for an organisation token). A
 * revoked or expired upload code or film, a disabled account, an account whose tokens ended (logout,
 * password change) or a regenerated organisation token ends every permit it issued at once; a permit is
 * never issued or renewed past the end of its cause (`issue`'s `until`).
 */
export type PermitUse = 'upload' | 'policy' | 'download' | 'view';

/** A signed-in account's session: the account, the token version of its bearer and the bearer's expiry (unix seconds). */
export interface SessionCause { k: 'session'; a: number; v: number; x: number }
/** A session uploading through an organisation's public token (`o`: a fingerprint of that token, never the token). */
export interface OrgTokenCause { k: 'orgToken'; a: number; v: number; x: number; b: number; o: string }
/** An upload code (the holder has the code already; it is the row's key). */
export interface CodeCause { k: 'code'; c: string }
/** An electronic film (its link id). */
export interface FilmCause { k: 'film'; f: string }
export type PermitCause = SessionCause | OrgTokenCause | CodeCause | FilmCause;

export interface UploadClaims { b: number; e: number; by: SessionCause | OrgTokenCause | CodeCause }
export interface PolicyClaims { p: PolicyKind; by: SessionCause }
export interface DownloadClaims { by: SessionCause }
/** `by` is optional for view permits only: viewer paths (server/viewer) are issued without one and live their 2 hours. */
export interface ViewClaims { e: number; by?: SessionCause | FilmCause }

const nowSeconds = (deps: Deps) => Math.floor(deps.clock.now().getTime() / 1000);
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** The cause of a permit asked for with a bearer: that account, its token version and the bearer's expiry. */
export function sessionCause(auth: { account: { id: number; tokenVersion: number }; claims: { exp: number } }): SessionCause {
  return { k: 'session', a: auth.account.id, v: auth.account.tokenVersion, x: auth.claims.exp };
}

/** What an organisation-token permit remembers of the token: enough to notice a regeneration, useless as a token. */
export function orgTokenFingerprint(token: string): string {
  return createHash('sha256').update(`org-upload-token:${token}`).digest('base64url').slice(0, 16);
}

/** The account a permit acts for, or null (an upload code's uploader has none). */
export function accountOf(by: PermitCause): number | null {
  return by.k === 'session' || by.k === 'orgToken' ? by.a : null;
}

/** The end of a permit's cause as far as the permit itself knows it (sessions); codes and films are read by `liveCause`. */
export function causeEnd(by: PermitCause): number | null {
  return by.k === 'session' || by.k === 'orgToken' ? by.x : null;
}

/**
 * Signs a permit for `ttlSeconds`, but never past `until` (unix seconds: the end of what issued it). A cause
 * that carries its own end (a session) caps the permit by itself.
 */
export function issue<C extends { by?: PermitCause }>(deps: Deps, use: PermitUse, claims: C, ttlSeconds: number, until: number | null = null) {
  const ends = [nowSeconds(deps) + ttlSeconds, until, claims.by ? causeEnd(claims.by) : null].filter((n): n is number => n !== null);
  const expires = Math.min(...ends);
  return { token: deps.storage.signer.sign(use, claims, expires), expires };
}

/** The claims of a permit, or 403 FileTokenExpired / FileTokenInvalid (never 401: the session is not at stake). Signature and expiry only. */
export function check<C extends object>(deps: Deps, use: PermitUse, token: string): C {
  const result = deps.storage.signer.verify<C>(use, token, nowSeconds(deps));
  if (!result.ok) throw new ApiError(result.reason === 'expired' ? 'FileTokenExpired' : 'FileTokenInvalid');
  return result.claims;
}

/** Like check, but a token of another use or a damaged one is simply "not this kind" (routes that take several kinds). */
export function tryCheck<C extends object>(deps: Deps, use: PermitUse, token: string): C | 'expired' | null {
  const result = deps.storage.signer.verify<C>(use, token, nowSeconds(deps));
  if (result.ok) return result.claims;
  return result.reason === 'expired' ? 'expired' : null;
}

/**
 * The one permit check: signature, expiry, and the cause still alive. Answers the claims and the end of the
 * cause (unix seconds, or null when it has none), which a renewal must not pass.
 */
export async function checkLive<C extends { by?: PermitCause }>(deps: Deps, use: PermitUse, token: string): Promise<{ claims: C; until: number | null }> {
  const claims = check<C>(deps, use, token);
  return { claims, until: await liveCause(deps, use, claims.by) };
}

const expired = () => new ApiError('FileTokenExpired', 'The permit ended with what issued it');
const invalid = () => new ApiError('FileTokenInvalid', 'What issued the permit was revoked');

/**
 * Is the cause of a permit alive? Its end (unix seconds) when it is; 403 FileTokenExpired when it ran out
 * (a code or film past its expiry, a session ended by logout or a password change: a new sign-in may ask
 * again), 403 FileTokenInvalid when it was taken back (revoked code or film, disabled or deleted account,
 * regenerated organisation token). A permit without a cause is refused, except a view permit (viewer paths).
 */
export async function liveCause(deps: Deps, use: PermitUse, by: PermitCause | undefined): Promise<number | null> {
  const { db } = deps;
  if (!by) {
    if (use === 'view') return null;
    throw invalid();
  }
  const now = deps.clock.now();
  switch (by.k) {
    case 'session':
    case 'orgToken': {
      const [account] = await db.select({ status: accounts.status, tokenVersion: accounts.tokenVersion }).from(accounts).where(eq(accounts.id, by.a));
      assertSessionLive(account, by);
      if (by.k === 'orgToken') {
        const [bucket] = await db.select({ token: buckets.publicUploadToken }).from(buckets).where(eq(buckets.id, by.b));
        if (!bucket?.token || orgTokenFingerprint(bucket.token) !== by.o) throw invalid();
      }
      return by.x;
    }
    case 'code': {
      const [code] = await db.select({ expiresAt: uploadCodes.expiresAt, revokedAt: uploadCodes.revokedAt }).from(uploadCodes).where(eq(uploadCodes.code, by.c));
      if (!code || code.revokedAt) throw invalid();
      if (code.expiresAt <= now) throw expired();
      return seconds(code.expiresAt);
    }
    case 'film': {
      const [film] = await db.select({ expiresAt: filmShares.expiresAt, revokedAt: filmShares.revokedAt }).from(filmShares).where(eq(filmShares.id, by.f));
      if (!film || film.revokedAt) throw invalid();
      if (film.expiresAt <= now) throw expired();
      return seconds(film.expiresAt);
    }
    default:
      throw invalid();
  }
}

/** A session's account as read now (or undefined when it is gone) against what the permit remembers of it. */
export function assertSessionLive(account: { status: number; tokenVersion: number } | undefined, by: SessionCause | OrgTokenCause): asserts account {
  if (!account || account.status !== 0) throw invalid();
  if (account.tokenVersion !== by.v) throw expired();
}

/**
 * For the auth hook: a view permit sent as `?token=` to a public route has its cause checked before the route
 * runs (the image routes read view permits synchronously). Anything else in `token` is left to the route.
 */
export async function assertQueryPermitLive(deps: Deps, query: unknown): Promise<void> {
  if (typeof query !== 'object' || query === null || !('token' in query) || typeof query.token !== 'string') return;
  const view = tryCheck<ViewClaims>(deps, 'view', query.token);
  if (view && view !== 'expired') await liveCause(deps, 'view', view.by);
}
