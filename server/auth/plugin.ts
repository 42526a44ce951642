import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import type { Access } from '../access/access';
import { accessOfText, checkMatches, loadAccountWithAccess, type AccountRow } from '../access/snapshot';
import type { VerifiedClaims } from './tokens';
import { assertQueryPermitLive } from './permits';

export type { AccountRow };

export interface Auth {
  account: AccountRow;
  claims: VerifiedClaims;
  /** Read with the account in the request's one auth statement (server/access/snapshot.ts); built on first use. */
  access(): Promise<Access>;
  /**
   * Set on a route that checks the account in its own statement (config `checkedInStatement`): the account and access
   * above are what this process read at the account's last request, not yet confirmed for this one. Nothing may be
   * answered from them until `matches` says the statement's own read of the account (accountCheckColumn) is the same,
   * or `confirm` has read the account again (401 when the session is over).
   */
  pending?: PendingCheck;
}

export interface PendingCheck {
  matches(check: string | null | undefined): boolean;
  confirm(): Promise<Auth>;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: Auth | null;
  }
  interface FastifyContextConfig {
    /** A route that needs no token (domain, login, register, shares...). */
    public?: boolean;
    /** A route whose statement checks the account itself (Auth.pending): the hook reads nothing when it can. */
    checkedInStatement?: boolean;
  }
}

/** Reads the bearer token on every /api route not marked public; the account must exist, be enabled and hold the token's version. */
export const authPlugin = fp<{ deps: Deps }>(async (app, { deps }) => {
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (req) => {
    if (!req.url.startsWith('/api/')) return;
    const token = bearer(req);
    if (req.routeOptions.config?.public) {
      if (token) req.auth = await authenticate(deps, token).catch(() => null);
      // Permits die with their cause: a view permit in ?token= is checked here, before the image routes read it.
      if (!req.auth) await assertQueryPermitLive(deps, req.query);
      return;
    }
    if (!req.routeOptions.url) return; // unknown route: the 404 handler answers
    if (!token) throw new ApiError('JsonWebTokenError', 'No token');
    if (!req.routeOptions.config?.checkedInStatement) {
      req.auth = await authenticate(deps, token);
      return;
    }
    const claims = await verify(deps, token);
    const last = lastReads.get(deps.db)?.get(claims.sub);
    req.auth = last && last.account.tokenVersion === claims.tv && last.account.status === 0
      ? pendingAuth(deps, claims, last) : await authenticateClaims(deps, claims);
  });
});

/**
 * The last auth read of each account, per database (a process may serve several: the tests do). Only a route that
 * checks the account in its own statement uses it, and answers from it only when that statement read the same; so it
 * never decides anything by itself and needs no invalidation. A round trip less per worklist page (issue 18).
 */
interface LastRead { account: AccountRow; accessText: string }
const lastReads = new WeakMap<Deps['db'], Map<number, LastRead>>();
const LAST_READS_MAX = 10_000;

function remember(deps: Deps, read: LastRead): void {
  let reads = lastReads.get(deps.db);
  if (!reads) lastReads.set(deps.db, (reads = new Map()));
  reads.delete(read.account.id);
  if (reads.size >= LAST_READS_MAX) reads.delete(reads.keys().next().value!);
  reads.set(read.account.id, read);
}

function pendingAuth(deps: Deps, claims: VerifiedClaims, last: LastRead): Auth {
  const access = Promise.resolve(accessOfText(last.account.id, last.accessText));
  return {
    account: last.account, claims, access: () => access,
    pending: {
      matches: (check) => checkMatches(check, { tokenVersion: claims.tv, accessText: last.accessText }),
      confirm: () => authenticateClaims(deps, claims),
    },
  };
}

function bearer(req: FastifyRequest): string | null {
  const header = req.headers.authorization;
  if (!header) return null;
  const [scheme, value] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && value ? value : null;
}

const verify = (deps: Deps, token: string) => deps.tokens.verify(token, Math.floor(deps.clock.now().getTime() / 1000));

async function authenticate(deps: Deps, token: string): Promise<Auth> {
  return authenticateClaims(deps, await verify(deps, token));
}

async function authenticateClaims(deps: Deps, claims: VerifiedClaims): Promise<Auth> {
  const found = await loadAccountWithAccess(deps.db, claims.sub);
  if (!found || found.account.tokenVersion !== claims.tv) throw new ApiError('JsonWebTokenError');
  const { account } = found;
  if (account.status !== 0) throw new ApiError('JsonWebTokenError', 'Account disabled');
  remember(deps, { account, accessText: found.accessText });
  let access: Promise<Access> | null = null;
  return { account, claims, access: () => (access ??= Promise.resolve(found.access())) };
}

/** For handlers of non-public routes: the hook guarantees auth is set. */
export function authOf(req: FastifyRequest): Auth {
  if (!req.auth) throw new ApiError('JsonWebTokenError');
  return req.auth;
}
