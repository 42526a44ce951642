import { and, asc, count, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { pageQuerySchema, type Page } from '../../contract/common';
import {
  HL7_MESSAGE_FILTER_FIELDS, HL7_MESSAGE_SORT_FIELDS, hl7SettingsInput,
  type Hl7MessageFilterField, type Hl7MessageRow, type Hl7Outcome, type Hl7Settings,
} from '../../contract/hl7';
import { accounts, hl7Facilities, hl7Messages, hl7Settings } from '../db/schema';
import type { Db } from '../db/client';
import type { Deps } from '../deps';
import { compileListFilters, orderOf, valueKinds, type ListOrder, type ListQuery } from '../http/pageQuery';
import { parse } from '../http/validate';
import { adminWrite, orgOf } from '../organizations/resource';

/**
 * HL7 orders in as an organisation admin sees them (issue 36): the listener's port, the switch and the sending
 * facilities (settings), and the inbound message log on the shared page-query engine. Admins only, reads included
 * (the log holds patients' names). Saving the settings makes the saver the account orders are registered as.
 */
const LIST: ListQuery<Hl7MessageFilterField> = {
  resource: 'hl7-messages',
  fields: HL7_MESSAGE_FILTER_FIELDS,
  kinds: { text: valueKinds.text, time: valueKinds.time },
  columns: {
    controlId: hl7Messages.controlId, messageType: hl7Messages.messageType, outcome: hl7Messages.outcome,
    patientId: hl7Messages.patientId, orderId: hl7Messages.orderId, created: hl7Messages.created,
  },
};
const ORDER: ListOrder<(typeof HL7_MESSAGE_SORT_FIELDS)[number]> = {
  resource: 'hl7-messages', fields: HL7_MESSAGE_SORT_FIELDS,
  columns: { created: hl7Messages.created, id: hl7Messages.id },
  defaultSort: { field: 'created', direction: 'desc' }, tieBreak: 'id',
};

async function settingsOf(db: Db, deps: Deps, bucketId: number): Promise<Hl7Settings> {
  const [row] = await db.select({ enabled: hl7Settings.enabled, accountId: hl7Settings.actingAccountId, name: accounts.name })
    .from(hl7Settings).leftJoin(accounts, eq(accounts.id, hl7Settings.actingAccountId)).where(eq(hl7Settings.bucketId, bucketId));
  const facilities = await db.select({ facility: hl7Facilities.facility, application: hl7Facilities.application })
    .from(hl7Facilities).where(eq(hl7Facilities.bucketId, bucketId)).orderBy(asc(hl7Facilities.id));
  return {
    enabled: row?.enabled ?? false,
    facilities,
    actingAccount: row?.accountId ? { id: row.accountId, name: row.name ?? '' } : null,
    listener: { port: deps.hl7Node?.port ?? null, tls: deps.hl7Node?.tls ?? false },
  };
}

export function hl7Routes(app: FastifyInstance, deps: Deps): void {
  const { db } = deps;

  app.get('/buckets/:id/hl7/settings', async (req): Promise<Hl7Settings> => {
    const { bucketId } = await orgOf(deps, req, 'admin');
    return settingsOf(db, deps, bucketId);
  });

  // A facility another organisation already maps is a 409 DuplicateName (adminWrite's unique-violation answer).
  app.put('/buckets/:id/hl7/settings', async (req): Promise<Hl7Settings> => {
    await adminWrite(deps, req, async (tx, ctx, audit) => {
      const input = parse(hl7SettingsInput, req.body);
      const before = await settingsOf(tx, deps, ctx.bucketId);
      const seen = new Set<string>();
      const facilities = input.facilities.filter((f) => {
        const key = `${f.facility}\u0000${f.application}`;
        return seen.has(key) ? false : (seen.add(key), true);
      });
      await tx.insert(hl7Settings).values({ bucketId: ctx.bucketId, enabled: input.enabled, actingAccountId: ctx.actorId, updated: deps.clock.now() })
        .onConflictDoUpdate({ target: hl7Settings.bucketId, set: { enabled: input.enabled, actingAccountId: ctx.actorId, updated: deps.clock.now() } });
      await tx.delete(hl7Facilities).where(eq(hl7Facilities.bucketId, ctx.bucketId));
      if (facilities.length > 0) await tx.insert(hl7Facilities).values(facilities.map((f) => ({ bucketId: ctx.bucketId, ...f })));
      await audit({
        action: 'hl7-settings', objectType: 'bucket', objectId: ctx.bucketId,
        before: { enabled: before.enabled, facilities: before.facilities, actingAccountId: before.actingAccount?.id ?? null },
        after: { enabled: input.enabled, facilities, actingAccountId: ctx.actorId },
      });
    });
    const { bucketId } = await orgOf(deps, req, 'admin');
    return settingsOf(db, deps, bucketId);
  });

  app.post('/buckets/:id/hl7/messages/query', async (req): Promise<Page<Hl7MessageRow>> => {
    const { bucketId } = await orgOf(deps, req, 'admin');
    const q = parse(pageQuerySchema, req.body ?? {});
    const where = and(eq(hl7Messages.bucketId, bucketId), ...compileListFilters(LIST, q.filters));
    const rows = await db.select().from(hl7Messages).where(where).orderBy(...orderOf(ORDER, q.sorts)).limit(q.limit).offset(q.skip);
    const [{ total }] = await db.select({ total: count() }).from(hl7Messages).where(where) as [{ total: number }];
    return {
      total,
      items: rows.map((r) => ({
        id: r.id, direction: 'in', created: r.created.toISOString(), controlId: r.controlId, messageType: r.messageType, facility: r.facility,
        application: r.application, patientId: r.patientId, orderId: r.orderId, charset: r.charset, peer: r.peer,
        outcome: r.outcome as Hl7Outcome, ackCode: r.ackCode, errorCode: r.errorCode, error: r.error, registrationId: r.registrationId,
        repeats: r.repeats, raw: r.raw, ack: r.ack,
      })),
    };
  });
}
