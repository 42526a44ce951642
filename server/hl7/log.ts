import { and, eq, sql } from 'drizzle-orm';
import { hl7Messages } from '../db/schema';
import type { Deps } from '../deps';

/**
 * The inbound message log (hl7_messages). A message with a control id is first *claimed*: a row inserted under the
 * unique (direction, facility, control id) index before anything is applied. Whoever inserts it applies the message;
 * a repeat finds the row and answers its stored ACK (waiting while the first is still being applied). A write that
 * fails changes nothing (the registry's own transaction), and the row keeps the AE that says why.
 */
export type LogRow = typeof hl7Messages.$inferSelect;
type NewRow = typeof hl7Messages.$inferInsert;
/** A pending claim older than this was left by a process that stopped (applying one message takes well under). */
const STALE_MS = 60_000;

export async function claim(deps: Deps, row: NewRow): Promise<{ claimed: true; id: number } | { claimed: false; row: LogRow }> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const [inserted] = await deps.db.insert(hl7Messages).values(row).onConflictDoNothing().returning({ id: hl7Messages.id });
    if (inserted) return { claimed: true, id: inserted.id };
    const [found] = await deps.db.select().from(hl7Messages)
      .where(and(eq(hl7Messages.direction, 'in'), eq(hl7Messages.facility, row.facility ?? ''), eq(hl7Messages.controlId, row.controlId!)));
    if (found && found.ack !== null) {
      await deps.db.update(hl7Messages).set({ repeats: sql`${hl7Messages.repeats} + 1` }).where(eq(hl7Messages.id, found.id));
      return { claimed: false, row: found };
    }
    // A claim left pending by a process that died while applying: the repeat takes it over (once: the conditional
    // update lets one taker win) and applies the message; the registry's own checks (an order number already
    // registered) keep a write that did commit from being made twice.
    if (found && deps.clock.now().getTime() - found.created.getTime() > STALE_MS) {
      const [taken] = await deps.db.update(hl7Messages).set({ created: deps.clock.now(), raw: row.raw, peer: row.peer ?? '' })
        .where(and(eq(hl7Messages.id, found.id), eq(hl7Messages.outcome, 'pending'), eq(hl7Messages.created, found.created)))
        .returning({ id: hl7Messages.id });
      if (taken) return { claimed: true, id: taken.id };
    }
    // The first copy is still being applied (or its row vanished): wait for its ACK.
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the first copy of this message has no ACK after 10 s');
}

/** A row for a message that never got as far as a claim (unreadable, no control id). */
export async function record(deps: Deps, row: NewRow): Promise<void> {
  await deps.db.insert(hl7Messages).values(row);
}

export async function finish(deps: Deps, id: number, set: Partial<NewRow>): Promise<void> {
  await deps.db.update(hl7Messages).set(set).where(eq(hl7Messages.id, id));
}
