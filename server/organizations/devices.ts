import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { deviceGroupInput, deviceInput, type Device, type DeviceGroup } from '../../contract/organizations';
import type { Db } from '../db/client';
import { deviceGroups, devices } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import type { OrderedList } from '../http/order';
import { registerResource, type Tx } from './resource';

/**
 * Device groups and devices of an organisation, both ordered. A device's group must be one of the organisation's;
 * deleting a group leaves its devices without one (device_group_id is set null).
 */
type Reader = Db | Tx;
const G = { id: deviceGroups.id, name: deviceGroups.name, sortOrder: deviceGroups.sortOrder };
const D = {
  id: devices.id, name: devices.name, modality: devices.modality, aeTitle: devices.aeTitle, host: devices.host, port: devices.port, room: devices.room,
  deviceGroupId: devices.deviceGroupId, sortOrder: devices.sortOrder,
};
export const DEVICE_GROUP_ORDER: OrderedList = { table: deviceGroups, id: deviceGroups.id, bucketId: deviceGroups.bucketId, sortOrder: deviceGroups.sortOrder };
export const DEVICE_ORDER: OrderedList = { table: devices, id: devices.id, bucketId: devices.bucketId, sortOrder: devices.sortOrder };

type DeviceValues = { name: string; modality: string; aeTitle: string | null; host: string | null; port: number | null; room: string | null; deviceGroupId: number | null };

export function deviceRoutes(app: FastifyInstance, deps: Deps): void {
  registerResource<DeviceGroup, { name: string }>(app, deps, {
    path: 'device-groups', param: 'deviceGroupId', objectType: 'device-group', input: deviceGroupInput, ordered: DEVICE_GROUP_ORDER,
    list: (db: Reader, b) => db.select(G).from(deviceGroups).where(eq(deviceGroups.bucketId, b)).orderBy(asc(deviceGroups.sortOrder), asc(deviceGroups.id)),
    find: async (tx, b, id) => (await tx.select(G).from(deviceGroups).where(and(eq(deviceGroups.bucketId, b), eq(deviceGroups.id, id))))[0],
    insert: async (tx, b, v, sortOrder) => (await tx.insert(deviceGroups).values({ bucketId: b, name: v.name, sortOrder }).returning(G))[0]!,
    update: async (tx, b, id, v) => (await tx.update(deviceGroups).set({ name: v.name }).where(and(eq(deviceGroups.bucketId, b), eq(deviceGroups.id, id))).returning(G))[0],
    remove: async (tx, b, id) => { await tx.delete(deviceGroups).where(and(eq(deviceGroups.bucketId, b), eq(deviceGroups.id, id))); },
  });

  registerResource<Device, DeviceValues>(app, deps, {
    path: 'devices', param: 'deviceId', objectType: 'device', input: deviceInput, ordered: DEVICE_ORDER,
    list: (db: Reader, b) => db.select(D).from(devices).where(eq(devices.bucketId, b)).orderBy(asc(devices.sortOrder), asc(devices.id)),
    check: async (tx, b, v) => {
      if (v.deviceGroupId === null) return;
      const [g] = await tx.select({ id: deviceGroups.id }).from(deviceGroups).where(and(eq(deviceGroups.bucketId, b), eq(deviceGroups.id, v.deviceGroupId)));
      if (!g) throw new ApiError('UnknownReference', undefined, { field: 'deviceGroupId' });
    },
    find: async (tx, b, id) => (await tx.select(D).from(devices).where(and(eq(devices.bucketId, b), eq(devices.id, id))))[0],
    insert: async (tx, b, v, sortOrder) => (await tx.insert(devices).values({ bucketId: b, ...v, sortOrder }).returning(D))[0]!,
    update: async (tx, b, id, v) => (await tx.update(devices).set(v).where(and(eq(devices.bucketId, b), eq(devices.id, id))).returning(D))[0],
    remove: async (tx, b, id) => { await tx.delete(devices).where(and(eq(devices.bucketId, b), eq(devices.id, id))); },
  });
}
