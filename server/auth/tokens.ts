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

export function createTokens(secret: string, ttlSeconds: number): Tokens {
  const key = new TextEncoder().encode(secret);
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
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], currentDate: new Date(now * 1000) });
        const sub = Number(payload.sub);
        if (!Number.isInteger(sub) || typeof payload.tv !== 'number' || typeof payload.exp !== 'number') throw new ApiError('JsonWebTokenError');
        return { sub, tv: payload.tv, loginType: payload.lt === 'scan' ? 'scan' : 'normal', exp: payload.exp };
      } catch (err) {
        if (err instanceof ApiError) throw err;
        if (err instanceof errors.JWTExpired) throw new ApiError('TokenExpiredError');
        throw new ApiError('JsonWebTokenError');
      }
    },
  };
}
