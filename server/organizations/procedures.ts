import { and, asc, eq, ne } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { procedureInput, stepInput, type Procedure, type ProcedureStep } from '../../contract/organizations';
import type { Db } from '../db/client';
import { exams, procedures, procedureSteps } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import type { OrderedList } from '../http/order';
import { registerResource, type Tx } from './resource';

/**
 * Procedure groups (code unique per organisation, price ≥ 0) and procedure steps, both ordered (areas §7). Deleting is
 * refused while something uses the item (409 InUse): a procedure that steps belong to, a step that exams were
 * registered with (exams.procedure_step_id) — the exam keeps what it was registered as, so the step stays.
 */
type Reader = Db | Tx;
const P = {
  id: procedures.id, code: procedures.code, name: procedures.name, enDescription: procedures.enDescription,
  modality: procedures.modality, price: procedures.price, sortOrder: procedures.sortOrder,
};
const S = {
  id: procedureSteps.id, name: procedureSteps.name, modality: procedureSteps.modality, bodyPart: procedureSteps.bodyPart,
  procedureId: procedureSteps.procedureId, reportDuringExam: procedureSteps.reportDuringExam, showLocalVideo: procedureSteps.showLocalVideo,
  sortOrder: procedureSteps.sortOrder,
};
export const PROCEDURE_ORDER: OrderedList = { table: procedures, id: procedures.id, bucketId: procedures.bucketId, sortOrder: procedures.sortOrder };
export const STEP_ORDER: OrderedList = { table: procedureSteps, id: procedureSteps.id, bucketId: procedureSteps.bucketId, sortOrder: procedureSteps.sortOrder };

type ProcedureValues = { code: string; name: string; enDescription: string | null; modality: string; price: number };
type StepValues = { name: string; modality: string; bodyPart: string | null; procedureId: number | null; reportDuringExam: boolean; showLocalVideo: boolean };

export function procedureRoutes(app: FastifyInstance, deps: Deps): void {
  registerResource<Procedure, ProcedureValues>(app, deps, {
    path: 'procedures', param: 'procedureId', objectType: 'procedure', input: procedureInput, onDuplicate: 'DuplicateCode', ordered: PROCEDURE_ORDER,
    list: (db: Reader, b) => db.select(P).from(procedures).where(eq(procedures.bucketId, b)).orderBy(asc(procedures.sortOrder), asc(procedures.id)),
    check: async (tx, b, v, itemId) => {
      const [dup] = await tx.select({ id: procedures.id }).from(procedures)
        .where(and(eq(procedures.bucketId, b), eq(procedures.code, v.code), itemId === null ? undefined : ne(procedures.id, itemId)));
      if (dup) throw new ApiError('DuplicateCode', undefined, { field: 'code' });
    },
    find: async (tx, b, id) => (await tx.select(P).from(procedures).where(and(eq(procedures.bucketId, b), eq(procedures.id, id))))[0],
    insert: async (tx, b, v, sortOrder) => (await tx.insert(procedures).values({ bucketId: b, ...v, sortOrder }).returning(P))[0]!,
    update: async (tx, b, id, v) => (await tx.update(procedures).set(v).where(and(eq(procedures.bucketId, b), eq(procedures.id, id))).returning(P))[0],
    beforeDelete: async (tx, b, id) => {
      const [used] = await tx.select({ id: procedureSteps.id }).from(procedureSteps).where(and(eq(procedureSteps.bucketId, b), eq(procedureSteps.procedureId, id))).limit(1);
      if (used) throw new ApiError('InUse', undefined, { usedBy: 'steps' });
    },
    remove: async (tx, b, id) => { await tx.delete(procedures).where(and(eq(procedures.bucketId, b), eq(procedures.id, id))); },
  });

  registerResource<ProcedureStep, StepValues>(app, deps, {
    path: 'steps', param: 'stepId', objectType: 'procedure-step', input: stepInput, ordered: STEP_ORDER,
    list: (db: Reader, b) => db.select(S).from(procedureSteps).where(eq(procedureSteps.bucketId, b)).orderBy(asc(procedureSteps.sortOrder), asc(procedureSteps.id)),
    check: async (tx, b, v) => {
      if (v.procedureId === null) return;
      const [p] = await tx.select({ id: procedures.id }).from(procedures).where(and(eq(procedures.bucketId, b), eq(procedures.id, v.procedureId)));
      if (!p) throw new ApiError('UnknownReference', undefined, { field: 'procedureId' });
    },
    find: async (tx, b, id) => (await tx.select(S).from(procedureSteps).where(and(eq(procedureSteps.bucketId, b), eq(procedureSteps.id, id))))[0],
    insert: async (tx, b, v, sortOrder) => (await tx.insert(procedureSteps).values({ bucketId: b, ...v, sortOrder }).returning(S))[0]!,
    update: async (tx, b, id, v) => (await tx.update(procedureSteps).set(v).where(and(eq(procedureSteps.bucketId, b), eq(procedureSteps.id, id))).returning(S))[0],
    beforeDelete: async (tx, b, id) => {
      const [used] = await tx.select({ id: exams.id }).from(exams).where(and(eq(exams.bucketId, b), eq(exams.procedureStepId, id))).limit(1);
      if (used) throw new ApiError('InUse', undefined, { usedBy: 'exams' });
    },
    remove: async (tx, b, id) => { await tx.delete(procedureSteps).where(and(eq(procedureSteps.bucketId, b), eq(procedureSteps.id, id))); },
  });
}
