import { eq, sql } from 'drizzle-orm';
import { devices, dicomAssociations, dicomSettings } from '../db/schema';
import type { Deps } from '../deps';

/**
 * Who may associate, and the record of every association. The calling AE title is looked up among the organisations'
 * devices and decides the organisation the association works for (what it stores, the worklist it reads). A title
 * no device has is refused unless exactly one organisation accepts unknown senders (dicom_settings); a title that
 * devices of several organisations share is refused too: which organisation would get the images is not ours to guess.
 */
export type Caller =
  | { ok: true; bucketId: number; deviceId: number | null; known: boolean }
  | { ok: false; reason: 'unknownCallingAe' | 'ambiguousCallingAe' };

export async function callerOf(deps: Pick<Deps, 'db'>, callingAe: string): Promise<Caller> {
  const ae = callingAe.trim().toUpperCase();
  const rows = ae === '' ? [] : await deps.db.select({ id: devices.id, bucketId: devices.bucketId }).from(devices)
    .where(sql`upper(trim(${devices.aeTitle})) = ${ae}`).orderBy(devices.sortOrder, devices.id);
  const buckets = [...new Set(rows.map((r) => r.bucketId))];
  if (buckets.length === 1) return { ok: true, bucketId: buckets[0]!, deviceId: rows[0]!.id, known: true };
  if (buckets.length > 1) return { ok: false, reason: 'ambiguousCallingAe' };
  const open = await deps.db.select({ bucketId: dicomSettings.bucketId }).from(dicomSettings).where(eq(dicomSettings.acceptUnknownSenders, true)).limit(2);
  if (open.length === 1) return { ok: true, bucketId: open[0]!.bucketId, deviceId: null, known: false };
  return { ok: false, reason: 'unknownCallingAe' };
}

/** What one association did, kept in memory while it lasts and written when it opens and when it ends. */
export class AssociationRecord {
  id: number | null = null;
  bucketId: number | null = null;
  readonly services = new Set<string>();
  stored = 0;
  failed = 0;
  found = 0;
  sent = 0;
  readonly errors: string[] = [];
  outcome: 'accepted' | 'rejected' | 'released' | 'aborted' = 'accepted';
  private ended = false;
  private opening: Promise<void> | null = null;
  readonly startedMs: number;

  constructor(private readonly deps: Pick<Deps, 'db' | 'clock'>, readonly started: Date, readonly peer: string) {
    this.startedMs = performance.now();
  }

  error(message: string) {
    if (this.errors.length < 20) this.errors.push(message.slice(0, 300));
  }

  /** The row, once the association request has been read (accepted or rejected). */
  open(callingAe: string, calledAe: string, outcome: 'accepted' | 'rejected', bucketId: number | null): Promise<void> {
    this.outcome = outcome;
    this.bucketId = bucketId;
    this.opening = this.deps.db.insert(dicomAssociations).values({
      started: this.started, callingAe: callingAe.slice(0, 16), calledAe: calledAe.slice(0, 16), peer: this.peer.slice(0, 64), bucketId, outcome,
      errors: this.errors,
    }).returning({ id: dicomAssociations.id }).then(async ([row]) => {
      this.id = row?.id ?? null;
      // The connection may have gone while the row was being written (or before the request was decided).
      if (this.ended) await this.writeEnd();
    });
    return this.opening;
  }

  /** The association is over (released, aborted, or the connection gone): its counts, errors and duration. */
  async close(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    // Not opened yet: open() writes the end when its row is in.
    if (!this.opening) return;
    await this.opening.catch(() => undefined);
    await this.writeEnd();
  }

  private wrote = false;

  private async writeEnd(): Promise<void> {
    if (this.id === null || this.wrote) return;
    this.wrote = true;
    await this.deps.db.update(dicomAssociations).set({
      ended: this.deps.clock.now(), outcome: this.outcome, services: [...this.services], stored: this.stored, failed: this.failed,
      found: this.found, sent: this.sent, errors: this.errors, durationMs: Math.round(performance.now() - this.startedMs),
    }).where(eq(dicomAssociations.id, this.id));
  }
}
