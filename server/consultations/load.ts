import { eq } from 'drizzle-orm';
import type { Action } from '../../contract/actions';
import type { ConsultationAction, ConsultationStatus } from '../../contract/consultations';
import type { ConsultationActor, ConsultationSide } from '../../machines/consultation';
import {
  isAllowed, refusalFor, statusName, transitionsFor, type ConsultationState, type EventInput,
} from '../../machines/consultationTransitions';
import type { Access } from '../access/access';
import type { Db } from '../db/client';
import { buckets, consultationBuckets, consultations, groups } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';

export type ConsultationRow = typeof consultations.$inferSelect;

/** One consultation as its reader sees it: the row, the account's sides and the rights each side gives. */
export interface LoadedConsultation {
  row: ConsultationRow;
  /** The applicant organisation's group: its enableConsultation flag gates the feature (areas §6). */
  groupId: number;
  /** The organisations that joined (consultation_buckets, the target among them). */
  joinedBucketIds: readonly number[];
  sides: Record<ConsultationSide, boolean>;
  /** The union over the account's sides. */
  rights: ReadonlySet<Action>;
  sideRights: Record<ConsultationSide, ReadonlySet<Action>>;
  /** The account as the machine sees it. */
  actor: ConsultationActor;
  /** The machine's state of the row. */
  state: ConsultationState;
}

const NONE: ReadonlySet<Action> = new Set();

/**
 * The consultation `id` for `access`: 404 NotFound when missing or when the account is on none of its sides (ids from
 * elsewhere reveal nothing), 403 Forbidden when the group has consultations switched off. `lock` takes the row
 * FOR UPDATE so writes to one consultation (status changes and parts) run one at a time.
 */
export async function loadConsultation(db: Db, access: Access, id: number, opts: { lock?: boolean } = {}): Promise<LoadedConsultation> {
  const query = db.select().from(consultations).where(eq(consultations.id, id));
  const [row] = opts.lock ? await query.for('update') : await query;
  if (!row) throw new ApiError('NotFound');
  const joined = await db.select({ bucketId: consultationBuckets.bucketId }).from(consultationBuckets)
    .where(eq(consultationBuckets.consultationId, id));
  const joinedBucketIds = joined.map((j) => j.bucketId);
  const c = consultationFor(access, row, joinedBucketIds, 0);
  if (!c.sides.applicant && !c.sides.target && !c.sides.joined) throw new ApiError('NotFound');
  const [group] = await db.select({ id: groups.id, on: groups.enableConsultation }).from(buckets)
    .innerJoin(groups, eq(groups.id, buckets.groupId)).where(eq(buckets.id, row.appliedBucketId));
  if (!group?.on) throw new ApiError('Forbidden', 'Consultations are not enabled for this group');
  return { ...c, groupId: group.id };
}

/** The sides and rights of `access` on one row, without reading anything (the list and the detail share it). */
export function consultationFor(access: Access, row: ConsultationRow, joinedBucketIds: readonly number[], groupId: number): LoadedConsultation {
  const actionsIn = (bucketId: number): ReadonlySet<Action> | null => access.buckets.get(bucketId)?.actions ?? null;
  const applicant = actionsIn(row.appliedBucketId);
  const target = actionsIn(row.targetBucketId);
  const others = joinedBucketIds.filter((b) => b !== row.appliedBucketId && b !== row.targetBucketId).map(actionsIn)
    .filter((a): a is ReadonlySet<Action> => a !== null);
  const joined = others.length === 0 ? null : new Set(others.flatMap((a) => [...a]));
  const sideRights = { applicant: applicant ?? NONE, target: target ?? NONE, joined: joined ?? NONE };
  const sides = { applicant: applicant !== null, target: target !== null, joined: joined !== null };
  const rights = new Set([...sideRights.applicant, ...sideRights.target, ...sideRights.joined]);
  const actor: ConsultationActor = {
    id: access.accountId,
    reader: sides.applicant || sides.target || sides.joined,
    sides: { applicant: [...sideRights.applicant], target: [...sideRights.target], joined: [...sideRights.joined] },
  };
  return { row, groupId, joinedBucketIds, sides, rights, sideRights, actor, state: stateFromRow(row) };
}

export function stateFromRow(row: Pick<ConsultationRow, 'status' | 'rating' | 'paymentStatus'>): ConsultationState {
  // The table's check constraint holds status to areas §4's five numbers.
  return { status: statusName(row.status as ConsultationStatus), rated: row.rating !== null, paymentStatus: row.paymentStatus };
}

/** What the account may do now: the detail's `transitions`, the machine's answer. */
export function transitionsOf(c: LoadedConsultation): ConsultationAction[] {
  return transitionsFor(c.state, c.actor);
}

/**
 * The machine's yes, or its reason for no: 403 Forbidden when the right is missing, 409 InvalidTransition when the
 * state forbids it, 409 ConsultationRated for a second rating. `input` asks with the request's own values.
 */
export function assertConsultationAction(c: LoadedConsultation, action: ConsultationAction, input: EventInput = {}): void {
  if (isAllowed(c.state, c.actor, action, input)) return;
  const refusal = refusalFor(c.state, c.actor, action);
  throw new ApiError(refusal, undefined, { action, status: c.row.status });
}

/** A transaction, a database or a transaction's handle: both query the same way. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * A write to one consultation's parts: in a transaction, the row locked (so it serialises with status changes),
 * the action asked of the machine, then `write`.
 */
export async function inConsultation<T>(deps: Deps, access: Access, id: number, action: ConsultationAction,
  write: (tx: Tx, c: LoadedConsultation) => Promise<T>): Promise<T> {
  return deps.db.transaction(async (tx) => {
    const c = await loadConsultation(tx, access, id, { lock: true });
    assertConsultationAction(c, action);
    return write(tx, c);
  });
}
