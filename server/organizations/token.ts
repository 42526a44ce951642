import { randomBytes } from 'node:crypto';

/** A public upload token: 24 random bytes, base64url (32 characters; server/uploads accepts 16 to 64). */
export function newUploadToken(): string {
  return randomBytes(24).toString('base64url');
}
