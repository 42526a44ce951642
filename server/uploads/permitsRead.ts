import type { Db } from '../db/client';

/**
 * The session permits this process has read for an exam, with the exam's Study Instance UID as read (issue 18: the
 * read was one of the two statements of every file). Nothing here is ever believed alone: a file sent under a
 * remembered permit is written by a statement that checks the permit is still exactly this (server/uploads/
 * statements.ts insertInstanceChecked), and anything else reads it again. Forgetting costs one read.
 */
const MAX = 1000;
const byDb = new WeakMap<Db, Map<string, string | null>>();

export interface PermitKey { account: number; tokenVersion: number; bucket: number; exam: number }

const keyOf = (k: PermitKey) => `${k.account}:${k.tokenVersion}:${k.bucket}:${k.exam}`;

/** The Study UID read with this permit, or undefined when it was not read here (a study may have none: null). */
export function permitRead(db: Db, k: PermitKey): string | null | undefined {
  const map = byDb.get(db);
  const key = keyOf(k);
  return map?.has(key) ? map.get(key)! : undefined;
}

export function rememberPermit(db: Db, k: PermitKey, storeUid: string | null): void {
  const map = byDb.get(db) ?? new Map<string, string | null>();
  byDb.set(db, map);
  const key = keyOf(k);
  map.delete(key);
  map.set(key, storeUid);
  if (map.size > MAX) map.delete(map.keys().next().value!);
}
