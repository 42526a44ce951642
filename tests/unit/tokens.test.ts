import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { createTokens } from '../../server/auth/tokens';
import { ApiError } from '../../server/http/errors';

/** The token module alone: what it accepts, and the exact code of each refusal (core §8). */
const SECRET = 'unit-test-secret';
const tokens = createTokens(SECRET, 600);
const NOW = 1_800_000_000;
const key = new TextEncoder().encode(SECRET);

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'accepted';
  } catch (err) {
    return err instanceof ApiError ? err.code : `not an ApiError: ${String(err)}`;
  }
}

describe('tokens', () => {
  it('verifies what it issued and returns the claims', async () => {
    const { accessToken, expires } = await tokens.issue({ sub: 7, tv: 3, loginType: 'scan' }, NOW);
    expect(expires).toBe(NOW + 600);
    await expect(tokens.verify(accessToken, NOW + 599)).resolves.toEqual({ sub: 7, tv: 3, loginType: 'scan', exp: NOW + 600 });
  });

  it('refuses a token at its expiry second with TokenExpiredError', async () => {
    const { accessToken } = await tokens.issue({ sub: 7, tv: 0, loginType: 'normal' }, NOW);
    expect(await codeOf(tokens.verify(accessToken, NOW + 600))).toBe('TokenExpiredError');
  });

  it('refuses HS512 even with the right secret (only HS256 is accepted)', async () => {
    const token = await new SignJWT({ tv: 0 }).setProtectedHeader({ alg: 'HS512' }).setSubject('7').setExpirationTime(NOW + 60).sign(key);
    expect(await codeOf(tokens.verify(token, NOW))).toBe('JsonWebTokenError');
  });

  it('refuses a correctly signed token without a token version', async () => {
    const token = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('7').setExpirationTime(NOW + 60).sign(key);
    expect(await codeOf(tokens.verify(token, NOW))).toBe('JsonWebTokenError');
  });

  it('refuses a correctly signed token whose subject is not an account id', async () => {
    const token = await new SignJWT({ tv: 0 }).setProtectedHeader({ alg: 'HS256' }).setSubject('admin').setExpirationTime(NOW + 60).sign(key);
    expect(await codeOf(tokens.verify(token, NOW))).toBe('JsonWebTokenError');
  });

  it('refuses a token of another secret with JsonWebTokenError, also when it has expired', async () => {
    const { accessToken } = await createTokens('other', 600).issue({ sub: 7, tv: 0, loginType: 'normal' }, NOW - 10_000);
    expect(await codeOf(tokens.verify(accessToken, NOW))).toBe('JsonWebTokenError');
  });

  it('reads an unknown login type as normal', async () => {
    const token = await new SignJWT({ tv: 0, lt: 'weird' }).setProtectedHeader({ alg: 'HS256' }).setSubject('7').setExpirationTime(NOW + 60).sign(key);
    await expect(tokens.verify(token, NOW)).resolves.toMatchObject({ loginType: 'normal' });
  });
});
