import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { ScreenToken } from '../../contract/calling';
import type { Db } from '../db/client';
import { screenTokens } from '../db/schema';

/** Waiting-room screens sign in with a long-lived token of one organisation, stored as its SHA-256 and revocable. */
export const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

export async function issueToken(db: Db, bucketId: number, name: string, createdBy: number, now: Date): Promise<ScreenToken> {
  const token = `scr_${randomBytes(24).toString('base64url')}`;
  const [row] = await db.insert(screenTokens).values({ bucketId, name, tokenHash: tokenHash(token), createdBy, created: now }).returning();
  return { id: row!.id, name, created: row!.created.toISOString(), revoked: false, token };
}

export async function listTokens(db: Db, bucketId: number): Promise<ScreenToken[]> {
  const rows = await db.select().from(screenTokens).where(eq(screenTokens.bucketId, bucketId)).orderBy(desc(screenTokens.id));
  return rows.map((r) => ({ id: r.id, name: r.name, created: r.created.toISOString(), revoked: r.revokedAt !== null }));
}

export async function revokeToken(db: Db, bucketId: number, id: number, now: Date): Promise<boolean> {
  const rows = await db.update(screenTokens).set({ revokedAt: now })
    .where(and(eq(screenTokens.id, id), eq(screenTokens.bucketId, bucketId), isNull(screenTokens.revokedAt))).returning({ id: screenTokens.id });
  return rows.length > 0;
}

/** Whether `token` is a live screen token of `bucketId`. */
export async function screenTokenValid(db: Db, bucketId: number, token: string): Promise<boolean> {
  if (!token.startsWith('scr_') || token.length > 128) return false;
  const [row] = await db.select({ id: screenTokens.id }).from(screenTokens)
    .where(and(eq(screenTokens.tokenHash, tokenHash(token)), eq(screenTokens.bucketId, bucketId), isNull(screenTokens.revokedAt)));
  return row !== undefined;
}

/** The organisation whose live screen token `token` is, or null (a forged, revoked or malformed token). */
export async function screenTokenBucket(db: Db, token: string): Promise<number | null> {
  if (!token.startsWith('scr_') || token.length > 128) return null;
  const [row] = await db.select({ bucketId: screenTokens.bucketId }).from(screenTokens)
    .where(and(eq(screenTokens.tokenHash, tokenHash(token)), isNull(screenTokens.revokedAt)));
  return row?.bucketId ?? null;
}

export async function liveTokenCount(db: Db, bucketId: number): Promise<number> {
  const rows = await db.select({ id: screenTokens.id }).from(screenTokens).where(and(eq(screenTokens.bucketId, bucketId), isNull(screenTokens.revokedAt)));
  return rows.length;
}
