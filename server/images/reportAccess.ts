import { eq } from 'drizzle-orm';
import { isAllowed, refusalFor } from '../../machines/reportTransitions';
import { assertCan, type Access } from '../access/access';
import type { Db } from '../db/client';
import { accounts } from '../db/schema';
import { ApiError } from '../http/errors';
import { actorIn, assertCanRead, loadReport, type LoadedReport } from '../reports/load';

/** A report that exists and is not deleted, with its exam; 404 otherwise. */
export async function liveReport(db: Db, reportId: number, opts: { forUpdate?: boolean } = {}): Promise<LoadedReport> {
  const loaded = await loadReport(db, reportId, opts);
  if (!loaded || loaded.row.deletedTime || loaded.exam.deletedTime) throw new ApiError('NotFound');
  return loaded;
}

export async function readable(db: Db, access: Access, reportId: number): Promise<LoadedReport> {
  const loaded = await liveReport(db, reportId);
  assertCanRead(access, loaded.row.bucketId);
  return loaded;
}

/**
 * Key images are part of the report's content: only someone who may edit it adds or removes them,
 * which is the report machine's answer to "may this account save now" (report_upsert, the creator,
 * the lock, the status). A refusal carries the machine's reason (ReportLocked with the locker's name).
 */
export async function assertMayEdit(db: Db, access: Access, loaded: LoadedReport): Promise<void> {
  assertCan(access, 'report_upsert', loaded.row.bucketId);
  const actor = actorIn(access, loaded.row.bucketId);
  if (isAllowed(loaded.state, actor, 'save')) return;
  const reason = refusalFor(loaded.state, actor, 'save');
  if (reason === 'ReportLocked' && loaded.row.lockedById !== null) {
    const [locker] = await db.select({ name: accounts.name }).from(accounts).where(eq(accounts.id, loaded.row.lockedById));
    throw new ApiError('ReportLocked', undefined, { name: locker?.name ?? '' });
  }
  throw new ApiError(reason);
}
