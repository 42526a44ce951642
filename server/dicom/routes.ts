import { and, count, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { pageQuerySchema, type Page } from '../../contract/common';
import {
  ASSOCIATION_FILTER_FIELDS, ASSOCIATION_SORT_FIELDS, dicomSettingsInput,
  type AssociationFilterField, type DicomAssociation, type DicomNode, type DicomSettings, type EchoResult,
} from '../../contract/dicomAdmin';
import { dicomAssociations, dicomSettings, devices } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { compileListFilters, orderOf, valueKinds, type ListOrder, type ListQuery } from '../http/pageQuery';
import { parse } from '../http/validate';
import { adminWrite, itemParams, orgOf } from '../organizations/resource';
import { echo } from './echo';

/**
 * The listener as an organisation admin sees it (issue 33 "Screens"): this node's identity, the "accept unknown
 * senders" switch, a C-ECHO to a device, the recent associations. Organisation admins only (./organizations/access:
 * 404 for an organisation the caller cannot see, 403 for a member who is not its admin).
 */
const LIST: ListQuery<AssociationFilterField> = {
  resource: 'dicom-associations',
  fields: ASSOCIATION_FILTER_FIELDS,
  kinds: { text: valueKinds.text, time: valueKinds.time },
  columns: { callingAe: dicomAssociations.callingAe, outcome: dicomAssociations.outcome, started: dicomAssociations.started },
};
const ORDER: ListOrder<(typeof ASSOCIATION_SORT_FIELDS)[number]> = {
  resource: 'dicom-associations', fields: ASSOCIATION_SORT_FIELDS,
  columns: { started: dicomAssociations.started, id: dicomAssociations.id },
  defaultSort: { field: 'started', direction: 'desc' }, tieBreak: 'id',
};

/** The host a modality should call: DICOM_HOST, else PUBLIC_ORIGIN's host, else the host the admin reached us at. */
function nodeHost(deps: Deps, req: FastifyRequest): string {
  if (deps.dicomNode?.host) return deps.dicomNode.host;
  if (deps.config.publicOrigin) return new URL(deps.config.publicOrigin).hostname;
  return req.hostname.replace(/:\d+$/, '');
}

export function dicomAdminRoutes(app: FastifyInstance, deps: Deps): void {
  const { db } = deps;

  app.get('/buckets/:id/dicom/node', async (req): Promise<DicomNode> => {
    await orgOf(deps, req, 'admin');
    const node = deps.dicomNode;
    return { aeTitle: node?.aeTitle ?? null, host: nodeHost(deps, req), port: node?.port ?? null, listening: !!node };
  });

  app.get('/buckets/:id/dicom/settings', async (req): Promise<DicomSettings> => {
    const { bucketId } = await orgOf(deps, req, 'admin');
    const [row] = await db.select().from(dicomSettings).where(eq(dicomSettings.bucketId, bucketId));
    return { acceptUnknownSenders: row?.acceptUnknownSenders ?? false };
  });

  app.put('/buckets/:id/dicom/settings', async (req): Promise<DicomSettings> => adminWrite(deps, req, async (tx, ctx, audit) => {
    const input = parse(dicomSettingsInput, req.body);
    const [before] = await tx.select().from(dicomSettings).where(eq(dicomSettings.bucketId, ctx.bucketId)).for('update');
    const was = before?.acceptUnknownSenders ?? false;
    await tx.insert(dicomSettings).values({ bucketId: ctx.bucketId, acceptUnknownSenders: input.acceptUnknownSenders })
      .onConflictDoUpdate({ target: dicomSettings.bucketId, set: { acceptUnknownSenders: input.acceptUnknownSenders } });
    if (was !== input.acceptUnknownSenders) {
      await audit({ action: 'dicom-settings', objectType: 'bucket', objectId: ctx.bucketId,
        before: { acceptUnknownSenders: was }, after: { acceptUnknownSenders: input.acceptUnknownSenders } });
    }
    return { acceptUnknownSenders: input.acceptUnknownSenders };
  }));

  app.post('/buckets/:id/devices/:deviceId/echo', async (req): Promise<EchoResult> => {
    const { bucketId } = await orgOf(deps, req, 'admin');
    const { deviceId } = parse(itemParams('deviceId'), req.params);
    const [device] = await db.select({ aeTitle: devices.aeTitle, host: devices.host, port: devices.port })
      .from(devices).where(and(eq(devices.bucketId, bucketId), eq(devices.id, deviceId)));
    if (!device) throw new ApiError('NotFound');
    if (!device.host || !device.port) throw new ApiError('DeviceNoAddress');
    // A device without an AE title is called by the generic one many SCPs accept.
    return echo({ host: device.host, port: device.port, calledAe: device.aeTitle ?? 'ANY-SCP', callingAe: deps.dicomNode?.aeTitle ?? 'RADWS' });
  });

  app.post('/buckets/:id/dicom/associations/query', async (req): Promise<Page<DicomAssociation>> => {
    const { bucketId } = await orgOf(deps, req, 'admin');
    const q = parse(pageQuerySchema, req.body ?? {});
    const where = and(eq(dicomAssociations.bucketId, bucketId), ...compileListFilters(LIST, q.filters));
    const rows = await db.select().from(dicomAssociations).where(where).orderBy(...orderOf(ORDER, q.sorts)).limit(q.limit).offset(q.skip);
    const [{ total }] = await db.select({ total: count() }).from(dicomAssociations).where(where) as [{ total: number }];
    return {
      total,
      items: rows.map((r) => ({
        id: r.id, started: r.started.toISOString(), ended: r.ended?.toISOString() ?? null, callingAe: r.callingAe, calledAe: r.calledAe,
        peer: r.peer, outcome: r.outcome, services: r.services, stored: r.stored, failed: r.failed, found: r.found, errors: r.errors, durationMs: r.durationMs,
      })),
    };
  });
}
