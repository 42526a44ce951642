import type { FastifyRequest } from 'fastify';
import type { PolicyKind } from '../../contract/uploads';
import { loadAccess, type Access } from '../access/access';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { checkLive, type DownloadClaims, type PolicyClaims } from './permits';

/** Who is asking: the bearer's account, or the account a permit was issued to. */
export interface Actor {
  accountId: number;
  access(): Promise<Access>;
}

/**
 * For routes that accept a bearer or a permit (form uploads whose body carries `token`, downloads
 * with `?token=`): these routes are public to the auth hook, so the check happens here. A permit's
 * session must still be alive (account enabled, its tokens not ended by logout: checkLive); its
 * permissions are read now, not when it was issued.
 */
export async function actorOf(
  req: FastifyRequest, deps: Deps,
  permit: { token?: string | null; use: 'policy'; kind: PolicyKind } | { token?: string | null; use: 'download' },
): Promise<Actor> {
  if (req.auth) return { accountId: req.auth.account.id, access: req.auth.access };
  if (!permit.token) throw new ApiError('JsonWebTokenError', 'No token');
  let accountId: number;
  if (permit.use === 'policy') {
    const { claims } = await checkLive<PolicyClaims>(deps, 'policy', permit.token);
    if (claims.p !== permit.kind) throw new ApiError('FileTokenInvalid');
    accountId = claims.by.a;
  } else {
    accountId = (await checkLive<DownloadClaims>(deps, 'download', permit.token)).claims.by.a;
  }
  let access: Promise<Access> | null = null;
  return { accountId, access: () => (access ??= loadAccess(deps.db, accountId)) };
}
