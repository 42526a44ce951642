import type { PolicyKind } from '../../contract/uploads';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';

/**
 * The short-lived permits of the images area, all signed by deps.storage.signer, each with its own
 * use so one can never stand in for another:
 *  - upload:   DICOM files into one exam of one organisation (the upload session's credentials);
 *  - policy:   one account's form upload of one policy kind (key images, attachments, avatars, forms);
 *  - download: one account's GET of file routes where no header can be sent (<a href>, <img src>);
 *  - view:     one exam's series and instance files (the viewer's path, an electronic film).
 */
export interface UploadClaims { b: number; e: number; a: number | null }
export interface PolicyClaims { a: number; p: PolicyKind }
export interface DownloadClaims { a: number }
export interface ViewClaims { e: number }

const nowSeconds = (deps: Deps) => Math.floor(deps.clock.now().getTime() / 1000);

export function issue<C extends object>(deps: Deps, use: 'upload' | 'policy' | 'download' | 'view', claims: C, ttlSeconds: number) {
  const expires = nowSeconds(deps) + ttlSeconds;
  return { token: deps.storage.signer.sign(use, claims, expires), expires };
}

/** The claims of a permit, or 403 FileTokenExpired / FileTokenInvalid (never 401: the session is not at stake). */
export function check<C extends object>(deps: Deps, use: 'upload' | 'policy' | 'download' | 'view', token: string): C {
  const result = deps.storage.signer.verify<C>(use, token, nowSeconds(deps));
  if (!result.ok) throw new ApiError(result.reason === 'expired' ? 'FileTokenExpired' : 'FileTokenInvalid');
  return result.claims;
}

/** Like check, but a token of another use or a damaged one is simply "not this kind" (routes that take several kinds). */
export function tryCheck<C extends object>(deps: Deps, use: 'upload' | 'policy' | 'download' | 'view', token: string): C | 'expired' | null {
  const result = deps.storage.signer.verify<C>(use, token, nowSeconds(deps));
  if (result.ok) return result.claims;
  return result.reason === 'expired' ? 'expired' : null;
}
