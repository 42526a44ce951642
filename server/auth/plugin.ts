import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import type { Access } from '../access/access';
import { loadAccountWithAccess, type AccountRow } from '../access/snapshot';
import type { VerifiedClaims } from './tokens';
import { assertQueryPermitLive } from './permits';

export type { AccountRow };

export interface Auth {
  account: AccountRow;
  claims: VerifiedClaims;
  /** Read with the account in the request's one auth statement (server/access/snapshot.ts); built on first use. */
  access(): Promise<Access>;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: Auth | null;
  }
  interface FastifyContextConfig {
    /** A route that needs no token (domain, login, register, shares...). */
    public?: boolean;
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
    req.auth = await authenticate(deps, token);
  });
});

function bearer(req: FastifyRequest): string | null {
  const header = req.headers.authorization;
  if (!header) return null;
  const [scheme, value] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && value ? value : null;
}

async function authenticate(deps: Deps, token: string): Promise<Auth> {
  const claims = await deps.tokens.verify(token, Math.floor(deps.clock.now().getTime() / 1000));
  const found = await loadAccountWithAccess(deps.db, claims.sub);
  if (!found || found.account.tokenVersion !== claims.tv) throw new ApiError('JsonWebTokenError');
  const { account } = found;
  if (account.status !== 0) throw new ApiError('JsonWebTokenError', 'Account disabled');
  let access: Promise<Access> | null = null;
  return { account, claims, access: () => (access ??= Promise.resolve(found.access())) };
}

/** For handlers of non-public routes: the hook guarantees auth is set. */
export function authOf(req: FastifyRequest): Auth {
  if (!req.auth) throw new ApiError('JsonWebTokenError');
  return req.auth;
}
