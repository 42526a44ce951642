import { and, count, eq, ilike, or, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { pageQuerySchema, type Page } from '../../../contract/common';
import {
  HL7_OUTBOX_FILTER_FIELDS, HL7_OUTBOX_SORT_FIELDS, HL7_OUTBOX_STATUSES, hl7DestinationInput,
  type Hl7Charset, type Hl7Destination, type Hl7OutboxFilterField, type Hl7OutboxItem, type Hl7OutboxStatus,
} from '../../../contract/hl7Outbound';
import { hl7Destinations, hl7Outbox } from '../../db/schema';
import type { Deps } from '../../deps';
import { ApiError } from '../../http/errors';
import { compileListFilters, containsPattern, oneOf, orderOf, valueKinds, type ListOrder, type ListQuery } from '../../http/pageQuery';
import { parse } from '../../http/validate';
import { adminWrite, itemParams, orgOf } from '../../organizations/resource';
import type { DestinationRow, OutboxRow } from './outbox';

const LIST: ListQuery<Hl7OutboxFilterField> = {
  resource: 'hl7-outbox',
  fields: HL7_OUTBOX_FILTER_FIELDS,
  kinds: { status: oneOf(HL7_OUTBOX_STATUSES), int: valueKinds.int, time: valueKinds.time, text: valueKinds.text },
  columns: { status: hl7Outbox.status, reportId: hl7Outbox.reportId, created: hl7Outbox.created },
};
const ORDER: ListOrder<(typeof HL7_OUTBOX_SORT_FIELDS)[number]> = {
  resource: 'hl7-outbox', fields: HL7_OUTBOX_SORT_FIELDS,
  columns: { created: hl7Outbox.created, id: hl7Outbox.id, nextAttemptAt: hl7Outbox.nextAttemptAt },
  defaultSort: { field: 'created', direction: 'desc' }, tieBreak: 'id',
};

const DEFAULTS: Hl7Destination = {
  enabled: false, host: '', port: 2575, sendingApplication: 'RADWS', sendingFacility: '', receivingApplication: '', receivingFacility: '',
  charset: 'UNICODE UTF-8', tls: false, tlsCa: null, maxAttempts: 10, ackTimeoutMs: 10_000,
};

function present(row: DestinationRow | undefined): Hl7Destination {
  if (!row) return DEFAULTS;
  const { bucketId: _bucket, ...rest } = row;
  return { ...rest, charset: rest.charset as Hl7Charset };
}

export function outboxItem(r: OutboxRow): Hl7OutboxItem {
  return {
    id: r.id, reportId: r.reportId, reportVersion: r.reportVersion, examId: r.examId, resultStatus: r.resultStatus as 'F' | 'C',
    controlId: r.controlId, patientName: r.patientName, accessionNumber: r.accessionNumber, status: r.status as Hl7OutboxStatus,
    attempts: r.attempts, nextAttemptAt: r.nextAttemptAt.toISOString(), destination: r.destination, lastError: r.lastError,
    ackCode: r.ackCode, ack: r.ack, sentAt: r.sentAt?.toISOString() ?? null, created: r.created.toISOString(), message: r.message,
  };
}

/**
 * Results out as an organisation admin sees them (issue 36): the destination, the outbox with its dead letters, and
 * resend. Organisation admins only (404 for an organisation the caller cannot see, 403 for a member who is not its
 * admin); every write is audited in its transaction.
 */
export function hl7OutboundRoutes(app: FastifyInstance, deps: Deps): void {
  const { db } = deps;

  app.get('/buckets/:id/hl7/destination', async (req): Promise<Hl7Destination> => {
    const { bucketId } = await orgOf(deps, req, 'admin');
    const [row] = await db.select().from(hl7Destinations).where(eq(hl7Destinations.bucketId, bucketId));
    return present(row);
  });

  app.put('/buckets/:id/hl7/destination', async (req): Promise<Hl7Destination> => adminWrite(deps, req, async (tx, ctx, audit) => {
    const input = parse(hl7DestinationInput, req.body);
    const [before] = await tx.select().from(hl7Destinations).where(eq(hl7Destinations.bucketId, ctx.bucketId)).for('update');
    const [row] = await tx.insert(hl7Destinations).values({ bucketId: ctx.bucketId, ...input })
      .onConflictDoUpdate({ target: hl7Destinations.bucketId, set: input }).returning();
    // The CA is public material, but long: the trail records whether it changed, not the PEM.
    const trail = (d: Hl7Destination) => ({ ...d, tlsCa: d.tlsCa ? 'set' : null });
    await audit({ action: 'hl7-destination', objectType: 'bucket', objectId: ctx.bucketId, before: trail(present(before)), after: trail(present(row)) });
    return present(row);
  }));

  app.post('/buckets/:id/hl7/outbox/query', async (req): Promise<Page<Hl7OutboxItem>> => {
    const { bucketId } = await orgOf(deps, req, 'admin');
    const q = parse(pageQuerySchema, req.body ?? {});
    const where = and(eq(hl7Outbox.bucketId, bucketId), ...compileListFilters(LIST, q.filters, {
      text: (f): SQL | undefined => {
        const pattern = containsPattern(String(f.values[0] ?? ''));
        return or(ilike(hl7Outbox.patientName, pattern), ilike(hl7Outbox.accessionNumber, pattern), ilike(hl7Outbox.controlId, pattern));
      },
    }));
    const rows = await db.select().from(hl7Outbox).where(where).orderBy(...orderOf(ORDER, q.sorts)).limit(q.limit).offset(q.skip);
    const [{ total }] = await db.select({ total: count() }).from(hl7Outbox).where(where) as [{ total: number }];
    return { total, items: rows.map(outboxItem) };
  });

  app.post('/buckets/:id/hl7/outbox/:rowId/resend', async (req): Promise<Hl7OutboxItem> => {
    const { rowId } = parse(itemParams('rowId'), req.params);
    return adminWrite(deps, req, async (tx, ctx, audit) => {
      const [row] = await tx.select().from(hl7Outbox).where(and(eq(hl7Outbox.id, rowId), eq(hl7Outbox.bucketId, ctx.bucketId))).for('update');
      if (!row) throw new ApiError('NotFound');
      // A pending row is queued already (and may be on the wire): a second copy would only race it.
      if (row.status === 'pending') throw new ApiError('InvalidTransition', 'The message is queued already', { status: row.status });
      const [after] = await tx.update(hl7Outbox).set({
        status: 'pending', attempts: 0, nextAttemptAt: deps.clock.now(), leasedUntil: null, resentBy: ctx.actorId,
      }).where(eq(hl7Outbox.id, rowId)).returning();
      await audit({ action: 'hl7-resend', objectType: 'hl7-outbox', objectId: rowId, before: { status: row.status, attempts: row.attempts }, after: { status: 'pending' } });
      return outboxItem(after!);
    });
  });
}
