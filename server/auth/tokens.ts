import { SignJWT, errors, jwtVerify } from 'jose';
import { ApiError } from '../http/errors';

export interface TokenClaims {
  sub: number;
  /** The account's token version when issued; logout and disable bump it. */
  tv: number;
  loginType: 'normal' | 'scan';
}

/** What a verified token says: its claims and when it expires (unix seconds), the end of what it issues (permits). */
export interface VerifiedClaims extends TokenClaims {
  exp: number;
}

export interface Tokens {
  issue(claims: TokenClaims, nowSeconds: number): Promise<{ accessToken: string; expires: number }>;
  verify(token: string, nowSeconds: number): Promise<VerifiedClaims>;
}

/** How many verified tokens a process remembers (a few per signed-in workstation). */
const VERIFIED_MAX = 10_000;

export function createTokens(secret: string, ttlSeconds: number): Tokens {
  const key = new TextEncoder().encode(secret);
  /**
   * Tokens whose signature and claims were verified, by their exact text (signature included): a token's claims never
   * change, so verifying the same string again would give the same claims. Only the expiry depends on the time and is
   * checked on every use, as jose checks it (expired when exp <= now). Saves the HMAC key import and signature check on
   * every request (docs/decisions.md "Performance: what a request costs").
   */
  const verified = new Map<string, VerifiedClaims>();
  return {
    async issue(claims, now) {
      const expires = now + ttlSeconds;
      const accessToken = await new SignJWT({ tv: claims.tv, lt: claims.loginType })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(claims.sub))
        .setIssuedAt(now)
        .setExpirationTime(expires)
        .sign(key);
      return { accessToken, expires };
    },
    async verify(token, now) {
      const known = verified.get(token);
      if (known) {
        if (known.exp <= now) {
          verified.delete(token);
          throw new ApiError('TokenExpiredError');
        }
        return { ...known };
      }
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], currentDate: new Date(now * 1000) });
        const sub = Number(payload.sub);
        if (!Number.isInteger(sub) || typeof payload.tv !== 'number' || typeof payload.exp !== 'number') throw new ApiError('JsonWebTokenError');
        const claims: VerifiedClaims = { sub, tv: payload.tv, loginType: payload.lt === 'scan' ? 'scan' : 'normal', exp: payload.exp };
        // A token with a not-before time would also depend on the time: this server issues none, so it is not kept.
        if (payload.nbf === undefined) {
          if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value!);
          verified.set(token, { ...claims });
        }
        return claims;
      } catch (err) {
        if (err instanceof ApiError) throw err;
        if (err instanceof errors.JWTExpired) throw new ApiError('TokenExpiredError');
        throw new ApiError('JsonWebTokenError');
      }
    },
  };
}
