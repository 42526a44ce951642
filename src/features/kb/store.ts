import type { Permissions } from '../../../contract/accounts';
import { KB_READ_ACTIONS, KB_WRITE_ACTION, type KbItem } from '../../../contract/kb';
import { registerModuleReset } from '@/lib/session';
import { kbApi } from './api';

/**
 * The organisations' trees as the palette searches them: read once and kept a short while, dropped when the
 * knowledge-base screen writes (`forgetTree`) and at logout. The screen itself always reads afresh.
 */
const MAX_AGE_MS = 30_000;
const cache = new Map<number, { at: number; pending: Promise<KbItem[]> }>();
registerModuleReset(() => cache.clear());

export function loadTree(bucketId: number): Promise<KbItem[]> {
  const hit = cache.get(bucketId);
  if (hit && Date.now() - hit.at < MAX_AGE_MS) return hit.pending;
  // Not tied to one search's signal: the next keystroke reuses the same answer.
  const pending = kbApi.query(bucketId).then((page) => page.items);
  pending.catch(() => cache.delete(bucketId));
  cache.set(bucketId, { at: Date.now(), pending });
  return pending;
}

export function forgetTree(bucketId: number): void {
  cache.delete(bucketId);
}

/** The organisations whose knowledge base the account may read. */
export function readableBuckets(permissions: Permissions | null): number[] {
  return Object.entries(permissions ?? {})
    .filter(([, entry]) => KB_READ_ACTIONS.some((a) => entry.actions.includes(a)))
    .map(([id]) => Number(id))
    .filter((id) => Number.isInteger(id) && id > 0);
}

export function canWrite(permissions: Permissions | null, bucketId: number): boolean {
  return permissions?.[String(bucketId)]?.actions.includes(KB_WRITE_ACTION) ?? false;
}
