import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import {
  criticalValueInput, doctorInput, extensionInput, nameInput, packageInput,
  type Bodypart, type BucketExtension, type CriticalValue, type Department, type Doctor, type ExtensionPackage, type PackageType,
} from '../../contract/organizations';
import type { Db } from '../db/client';
import { bodyparts, bucketExtensions, criticalValues, departments, doctors, extensionPackages } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { registerResource, type Tx } from './resource';

/**
 * An organisation's dictionaries (areas §3): departments, body parts (no repeats, any case: §5), doctors (departmentId 0 =
 * none, else one of the organisation's departments), critical values (unique), extension keys (alpha_dash, unique) and
 * report extension packages (name unique in any case: §5 "a duplicate extension package name is rejected").
 */
type Reader = Db | Tx;
const notSelf = (col: AnyPgColumn, itemId: number | null) => (itemId === null ? undefined : ne(col, itemId));

export function dictionaryRoutes(app: FastifyInstance, deps: Deps): void {
  registerResource<Department, { name: string }>(app, deps, {
    path: 'departments', param: 'itemId', objectType: 'department', input: nameInput,
    list: (db: Reader, b) => db.select({ id: departments.id, name: departments.name }).from(departments).where(eq(departments.bucketId, b)).orderBy(asc(departments.id)),
    find: async (tx, b, id) => (await tx.select({ id: departments.id, name: departments.name }).from(departments).where(and(eq(departments.bucketId, b), eq(departments.id, id))))[0],
    insert: async (tx, b, v) => (await tx.insert(departments).values({ bucketId: b, name: v.name }).returning({ id: departments.id, name: departments.name }))[0]!,
    update: async (tx, b, id, v) => (await tx.update(departments).set({ name: v.name }).where(and(eq(departments.bucketId, b), eq(departments.id, id))).returning({ id: departments.id, name: departments.name }))[0],
    // Doctors of a removed department show "none" (departmentId 0), as areas §3 draws a doctor without one.
    remove: async (tx, b, id) => {
      await tx.update(doctors).set({ departmentId: 0 }).where(and(eq(doctors.bucketId, b), eq(doctors.departmentId, id)));
      await tx.delete(departments).where(and(eq(departments.bucketId, b), eq(departments.id, id)));
    },
  });

  registerResource<Bodypart, { name: string }>(app, deps, {
    path: 'bodyparts', param: 'itemId', objectType: 'bodypart', input: nameInput,
    list: (db: Reader, b) => db.select({ id: bodyparts.id, name: bodyparts.name }).from(bodyparts).where(eq(bodyparts.bucketId, b)).orderBy(asc(bodyparts.id)),
    check: async (tx, b, v, itemId) => {
      const [dup] = await tx.select({ id: bodyparts.id }).from(bodyparts)
        .where(and(eq(bodyparts.bucketId, b), sql`lower(${bodyparts.name}) = lower(${v.name})`, notSelf(bodyparts.id, itemId)));
      if (dup) throw new ApiError('DuplicateName', undefined, { field: 'name' });
    },
    find: async (tx, b, id) => (await tx.select({ id: bodyparts.id, name: bodyparts.name }).from(bodyparts).where(and(eq(bodyparts.bucketId, b), eq(bodyparts.id, id))))[0],
    insert: async (tx, b, v) => (await tx.insert(bodyparts).values({ bucketId: b, name: v.name }).returning({ id: bodyparts.id, name: bodyparts.name }))[0]!,
    update: async (tx, b, id, v) => (await tx.update(bodyparts).set({ name: v.name }).where(and(eq(bodyparts.bucketId, b), eq(bodyparts.id, id))).returning({ id: bodyparts.id, name: bodyparts.name }))[0],
    remove: async (tx, b, id) => { await tx.delete(bodyparts).where(and(eq(bodyparts.bucketId, b), eq(bodyparts.id, id))); },
  });

  const doctorRows = (db: Reader, b: number, id?: number) => db.select({
    id: doctors.id, name: doctors.name, departmentId: doctors.departmentId, departmentName: departments.name, physicianType: doctors.physicianType,
  }).from(doctors).leftJoin(departments, and(eq(departments.id, doctors.departmentId), eq(departments.bucketId, doctors.bucketId)))
    .where(and(eq(doctors.bucketId, b), id === undefined ? undefined : eq(doctors.id, id))).orderBy(asc(doctors.id));
  registerResource<Doctor, { name: string; departmentId: number; physicianType: number }>(app, deps, {
    path: 'doctors', param: 'itemId', objectType: 'doctor', input: doctorInput,
    list: (db, b) => doctorRows(db, b),
    check: async (tx, b, v) => {
      if (v.departmentId === 0) return;
      const [dep] = await tx.select({ id: departments.id }).from(departments).where(and(eq(departments.bucketId, b), eq(departments.id, v.departmentId)));
      if (!dep) throw new ApiError('UnknownReference', undefined, { field: 'departmentId' });
    },
    find: async (tx, b, id) => (await doctorRows(tx, b, id))[0],
    insert: async (tx, b, v) => {
      const [row] = await tx.insert(doctors).values({ bucketId: b, ...v }).returning({ id: doctors.id });
      return (await doctorRows(tx, b, row!.id))[0]!;
    },
    update: async (tx, b, id, v) => {
      await tx.update(doctors).set(v).where(and(eq(doctors.bucketId, b), eq(doctors.id, id)));
      return (await doctorRows(tx, b, id))[0];
    },
    remove: async (tx, b, id) => { await tx.delete(doctors).where(and(eq(doctors.bucketId, b), eq(doctors.id, id))); },
  });

  const cv = { id: criticalValues.id, name: criticalValues.name };
  registerResource<CriticalValue, { name: string }>(app, deps, {
    path: 'critical-values', param: 'itemId', objectType: 'critical-value', input: criticalValueInput,
    list: (db: Reader, b) => db.select(cv).from(criticalValues).where(eq(criticalValues.bucketId, b)).orderBy(asc(criticalValues.sortOrder), asc(criticalValues.id)),
    check: async (tx, b, v, itemId) => {
      const [dup] = await tx.select({ id: criticalValues.id }).from(criticalValues).where(and(eq(criticalValues.bucketId, b), eq(criticalValues.name, v.name), notSelf(criticalValues.id, itemId)));
      if (dup) throw new ApiError('DuplicateName', undefined, { field: 'name' });
    },
    find: async (tx, b, id) => (await tx.select(cv).from(criticalValues).where(and(eq(criticalValues.bucketId, b), eq(criticalValues.id, id))))[0],
    insert: async (tx, b, v) => (await tx.insert(criticalValues).values({ bucketId: b, name: v.name }).returning(cv))[0]!,
    update: async (tx, b, id, v) => (await tx.update(criticalValues).set({ name: v.name }).where(and(eq(criticalValues.bucketId, b), eq(criticalValues.id, id))).returning(cv))[0],
    remove: async (tx, b, id) => { await tx.delete(criticalValues).where(and(eq(criticalValues.bucketId, b), eq(criticalValues.id, id))); },
  });

  const ext = { id: bucketExtensions.id, key: bucketExtensions.key, label: bucketExtensions.label };
  registerResource<BucketExtension, { key: string; label: string }>(app, deps, {
    path: 'extensions', param: 'itemId', objectType: 'extension', input: extensionInput,
    list: (db: Reader, b) => db.select(ext).from(bucketExtensions).where(eq(bucketExtensions.bucketId, b)).orderBy(asc(bucketExtensions.id)),
    check: async (tx, b, v, itemId) => {
      const [dup] = await tx.select({ id: bucketExtensions.id }).from(bucketExtensions).where(and(eq(bucketExtensions.bucketId, b), eq(bucketExtensions.key, v.key), notSelf(bucketExtensions.id, itemId)));
      if (dup) throw new ApiError('DuplicateName', undefined, { field: 'key' });
    },
    find: async (tx, b, id) => (await tx.select(ext).from(bucketExtensions).where(and(eq(bucketExtensions.bucketId, b), eq(bucketExtensions.id, id))))[0],
    insert: async (tx, b, v) => (await tx.insert(bucketExtensions).values({ bucketId: b, ...v }).returning(ext))[0]!,
    update: async (tx, b, id, v) => (await tx.update(bucketExtensions).set(v).where(and(eq(bucketExtensions.bucketId, b), eq(bucketExtensions.id, id))).returning(ext))[0],
    remove: async (tx, b, id) => { await tx.delete(bucketExtensions).where(and(eq(bucketExtensions.bucketId, b), eq(bucketExtensions.id, id))); },
  });

  const pkg = { id: extensionPackages.id, name: extensionPackages.name, type: extensionPackages.type, fields: extensionPackages.fields };
  const presentPackage = (r: { id: number; name: string; type: string; fields: { name: string; unit: string | null }[] }): ExtensionPackage =>
    ({ id: r.id, name: r.name, type: r.type as PackageType, fields: r.fields });
  type PackageValues = { name: string; type: PackageType; fields: { name: string; unit: string | null }[] };
  registerResource<ExtensionPackage, PackageValues>(app, deps, {
    path: 'extension-packages', param: 'itemId', objectType: 'extension-package', input: packageInput, onDuplicate: 'DuplicatePackageName',
    list: async (db: Reader, b) => (await db.select(pkg).from(extensionPackages).where(eq(extensionPackages.bucketId, b)).orderBy(asc(extensionPackages.id))).map(presentPackage),
    check: async (tx, b, v, itemId) => {
      const [dup] = await tx.select({ id: extensionPackages.id }).from(extensionPackages)
        .where(and(eq(extensionPackages.bucketId, b), sql`lower(${extensionPackages.name}) = lower(${v.name})`, notSelf(extensionPackages.id, itemId)));
      if (dup) throw new ApiError('DuplicatePackageName');
    },
    find: async (tx, b, id) => (await tx.select(pkg).from(extensionPackages).where(and(eq(extensionPackages.bucketId, b), eq(extensionPackages.id, id)))).map(presentPackage)[0],
    insert: async (tx, b, v) => presentPackage((await tx.insert(extensionPackages).values({ bucketId: b, ...v }).returning(pkg))[0]!),
    update: async (tx, b, id, v) => (await tx.update(extensionPackages).set(v).where(and(eq(extensionPackages.bucketId, b), eq(extensionPackages.id, id))).returning(pkg)).map(presentPackage)[0],
    remove: async (tx, b, id) => { await tx.delete(extensionPackages).where(and(eq(extensionPackages.bucketId, b), eq(extensionPackages.id, id))); },
  });
}
