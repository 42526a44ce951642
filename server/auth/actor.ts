import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { PolicyKind } from '../../contract/uploads';
import { loadAccess, type Access } from '../access/access';
import { accounts } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { check, type DownloadClaims, type PolicyClaims } from './permits';

/** Who is asking: the bearer's account, or the account a permit was issued to. */
export interface Actor {
  accountId: number;
  access(): Promise<Access>;
}

/**
 * For routes that accept a bearer or a permit (form uploads whose body carries `token`, downloads
 * with `?token=`): these routes are public to the auth hook, so the check happens here. A permit's
 * account must still exist and be enabled; its permissions are read now, not when it was issued.
 */
export async function actorOf(
  req: FastifyRequest, deps: Deps,
  permit: { token?: string | null; use: 'policy'; kind: PolicyKind } | { token?: string | null; use: 'download' },
): Promise<Actor> {
  if (req.auth) return { accountId: req.auth.account.id, access: req.auth.access };
  if (!permit.token) throw new ApiError('JsonWebTokenError', 'No token');
  let accountId: number;
  if (permit.use === 'policy') {
    const claims = check<PolicyClaims>(deps, 'policy', permit.token);
    if (claims.p !== permit.kind) throw new ApiError('FileTokenInvalid');
    accountId = claims.a;
  } else {
    accountId = check<DownloadClaims>(deps, 'download', permit.token).a;
  }
  const [account] = await deps.db.select({ id: accounts.id, status: accounts.status }).from(accounts).where(eq(accounts.id, accountId));
  if (!account || account.status !== 0) throw new ApiError('FileTokenInvalid');
  let access: Promise<Access> | null = null;
  return { accountId, access: () => (access ??= loadAccess(deps.db, accountId)) };
}
