import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Short-lived signed tokens: base64url(JSON claims) + '.' + base64url(HMAC-SHA256). Each token names
 * its use (`t`) and its expiry (`x`, unix seconds), so a download token cannot be replayed as upload
 * credentials and nothing lives longer than it was issued for. Stateless: any API process checks it.
 */
export interface Signer {
  sign<C extends object>(use: string, claims: C, expiresAt: number): string;
  /** The claims, or why not: 'invalid' (forged, damaged, another use) or 'expired'. */
  verify<C extends object>(use: string, token: string, nowSeconds: number): { ok: true; claims: C; expires: number } | { ok: false; reason: 'invalid' | 'expired' };
}

export function createSigner(secret: string): Signer {
  const key = createHmac('sha256', 'rad-workstation/files').update(secret).digest();
  const mac = (body: string) => createHmac('sha256', key).update(body).digest();
  return {
    sign(use, claims, expiresAt) {
      const body = Buffer.from(JSON.stringify({ ...claims, t: use, x: expiresAt })).toString('base64url');
      return `${body}.${mac(body).toString('base64url')}`;
    },
    verify<C extends object>(use: string, token: string, nowSeconds: number) {
      const invalid = { ok: false as const, reason: 'invalid' as const };
      if (typeof token !== 'string' || token.length > 4096) return invalid;
      const [body, signature, extra] = token.split('.');
      if (!body || !signature || extra !== undefined) return invalid;
      const given = Buffer.from(signature, 'base64url');
      const expected = mac(body);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return invalid;
      // Node's base64url decoding ignores the last character's unused bits (and stray characters): only the form the
      // signature was issued in is accepted, so a token cannot be altered into another string that still verifies.
      if (given.toString('base64url') !== signature) return invalid;
      let claims: { t?: unknown; x?: unknown } & Record<string, unknown>;
      try { claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')); } catch { return invalid; }
      if (claims.t !== use || typeof claims.x !== 'number') return invalid;
      if (claims.x <= nowSeconds) return { ok: false as const, reason: 'expired' as const };
      return { ok: true as const, claims: claims as unknown as C, expires: claims.x };
    },
  };
}
