import { and, eq } from 'drizzle-orm';
import type { ConsultationAction, ConsultationDetail } from '../../contract/consultations';
import type { ConsultationEvent } from '../../machines/consultation';
import { applyEvent, eventFor, statusNumber, type EventInput } from '../../machines/consultationTransitions';
import type { Access } from '../access/access';
import { recordAudit } from '../audit/record';
import { consultations } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { buildDetail } from './detail';
import { assertConsultationAction, consultationFor, loadConsultation, type ConsultationRow, type LoadedConsultation, type Tx } from './load';

export type RowUpdate = Partial<Omit<typeof consultations.$inferInsert, 'id' | 'version' | 'updated'>>;

export interface RowWrite {
  action: ConsultationAction;
  /** The request's own values the machine reads (the start time, the rating...). */
  input?: EventInput;
  /** The version the writer read (docs/decisions.md "Consultations": two experts concluding at once, one wins). */
  version: number;
  /** The audit trail's word for it: 'update', 'schedule', 'result'... */
  audit: string;
  /** The columns besides status, version and updated. */
  columns: (c: LoadedConsultation, now: Date) => RowUpdate;
}

const pick = (row: ConsultationRow, keys: readonly string[]): Record<string, unknown> =>
  Object.fromEntries(keys.map((k) => [k, (row as unknown as Record<string, unknown>)[k]]));

/**
 * A write to the consultation row itself: in one transaction the row is locked, the machine asked (403 / 409
 * InvalidTransition), the version compared (409 VersionConflict), the status the machine gives and the columns
 * written with the version bumped, and the audit event recorded. Answers the detail as the writer now sees it.
 */
export async function writeConsultation(deps: Deps, access: Access, id: number, w: RowWrite): Promise<ConsultationDetail> {
  return deps.db.transaction(async (tx) => {
    const c = await loadConsultation(tx, access, id, { lock: true });
    assertConsultationAction(c, w.action, w.input);
    if (w.version !== c.row.version) {
      throw new ApiError('VersionConflict', undefined, { version: c.row.version, status: c.row.status });
    }
    const event: ConsultationEvent = eventFor(w.action, c.actor, w.input);
    const next = applyEvent(c.state, event);
    // assertConsultationAction said yes to the same event; a null here would be a machine that contradicts itself.
    if (!next) throw new ApiError('InvalidTransition', undefined, { action: w.action, status: c.row.status });
    const now = deps.clock.now();
    const columns = { ...w.columns(c, now), status: statusNumber(next.status) };
    const [written] = await tx.update(consultations).set({ ...columns, version: c.row.version + 1, updated: now })
      .where(and(eq(consultations.id, id), eq(consultations.version, c.row.version))).returning();
    // The row is locked FOR UPDATE, so this only happens if a writer bypassed the lock; refuse rather than overwrite.
    if (!written) throw new ApiError('VersionConflict', undefined, { version: c.row.version });
    const keys = Object.keys(columns);
    await auditWrite(tx, deps, access, c, { action: w.audit, before: pick(c.row, keys), after: pick(written, keys) }, now);
    return buildDetail(tx, deps.storage, consultationFor(access, written, c.joinedBucketIds, c.groupId));
  });
}

/** The consultation's audit event, in the transaction of the change (docs/consultations: one per write). */
export function auditWrite(tx: Tx, deps: Deps, access: Access, c: LoadedConsultation,
  change: { action: string; before?: Record<string, unknown> | null; after?: Record<string, unknown> | null }, now = deps.clock.now()): Promise<void> {
  return recordAudit(tx, {
    area: 'consultations', objectType: 'consultation', objectId: String(c.row.id), bucketId: c.row.appliedBucketId,
    actorId: access.accountId, at: now, ...change,
  });
}
