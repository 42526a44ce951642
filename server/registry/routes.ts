import { asc, eq, and } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { decimalInt, ID_MAX, idParam, idValue } from '../../contract/common';
import type { RegistrySetup } from '../../contract/registry';
import {
  examStatusInput, matchInput, patientLookupInput, registryCreateInput, registryExamLine, registryPageQuery, registryUpdateInput,
  scheduledActionInput, scheduledCancelInput, scheduledExtensionInput, scheduleExportInput,
} from '../../contract/registry';
import { authOf } from '../auth/plugin';
import { procedureSteps, registrations } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { parse } from '../http/validate';
import { registryDesk } from './access';
import { scheduleWorkbook } from './export';
import { loadRegistration } from './lines';
import { lookupPatients } from './lookup';
import { queryRegistry } from './query';
import { openSchedules, scheduleForExam } from './schedules';
import { cancelLine, deleteLine, extendLine, matchLine, revokeLine, setStatus } from './status';
import { createRegistration, updateRegistration } from './write';

/** The registry area (areas §7 "Registry"): the desk's setup, list, look-up, registrations, line actions, export. */
const bucketParam = z.object({ id: idValue });
const versionQuery = z.object({ version: decimalInt(0, ID_MAX) });
const pairParams = z.object({ id: idValue, scheduledId: idValue });
const orderQuery = z.object({ bucketId: idValue, orderId: z.string().trim().min(1).max(64) });
const schedulesInput = z.object({ exams: z.array(registryExamLine).min(1).max(50) });

/** Areas §5: the registry query without a current organisation answers 'params error'. */
const paramsError = () => new ApiError('ParamsError', 'params error');
function organisationOf(params: unknown): number {
  const parsed = bucketParam.safeParse(params);
  if (!parsed.success || parsed.data.id <= 0) throw paramsError();
  return parsed.data.id;
}

export async function registryRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  const { db } = deps;

  app.get('/buckets/:id/registry/setup', async (req): Promise<RegistrySetup> => {
    const desk = await registryDesk(db, await authOf(req).access(), organisationOf(req.params));
    const steps = await db.select().from(procedureSteps).where(eq(procedureSteps.bucketId, desk.bucketId)).orderBy(asc(procedureSteps.sortOrder), asc(procedureSteps.id));
    return {
      bucketId: desk.bucketId, timeZone: desk.timeZone, isPet: desk.isPet, matchDob: desk.matchDob, actions: desk.rights,
      steps: steps.map((s) => ({ id: s.id, name: s.name, modality: s.modality, bodyPart: s.bodyPart, reportDuringExam: s.reportDuringExam })),
    };
  });

  app.post('/buckets/:id/registry/query', async (req) => {
    const bucketId = organisationOf(req.params);
    const input = parse(registryPageQuery, req.body ?? {});
    // Not one of the caller's registry organisations is no current organisation either; missing rights stay 403.
    return queryRegistry(db, await registryDesk(db, await authOf(req).access(), bucketId, undefined, paramsError), input);
  });

  app.post('/buckets/:id/registry/patients', async (req) => {
    const bucketId = organisationOf(req.params);
    const input = parse(patientLookupInput, req.body);
    return lookupPatients(db, await registryDesk(db, await authOf(req).access(), bucketId), input);
  });

  app.post('/registry', async (req) => createRegistration(deps, await authOf(req).access(), parse(registryCreateInput, req.body)));
  app.put('/registry', async (req) => updateRegistration(deps, await authOf(req).access(), parse(registryUpdateInput, req.body)));

  app.get('/registry/findbyorderid', async (req) => {
    const query = parse(orderQuery, req.query);
    const desk = await registryDesk(db, await authOf(req).access(), query.bucketId);
    const [reg] = await db.select({ id: registrations.id }).from(registrations)
      .where(and(eq(registrations.bucketId, desk.bucketId), eq(registrations.orderId, query.orderId))).orderBy(asc(registrations.id)).limit(1);
    if (!reg) throw new ApiError('NotFound');
    return loadRegistration(db, reg.id, desk.rights);
  });

  app.post('/exam/status', async (req) => {
    const input = parse(examStatusInput, req.body);
    return setStatus(deps, await authOf(req).access(), input.examId, input.status, input.version);
  });

  app.post('/scheduled-exams/:id/revoke', async (req) => {
    const { id } = parse(idParam, req.params);
    return revokeLine(deps, await authOf(req).access(), id, parse(scheduledActionInput, req.body).version);
  });
  app.post('/scheduled-exams/:id/cancel', async (req) => {
    const { id } = parse(idParam, req.params);
    const input = parse(scheduledCancelInput, req.body);
    return cancelLine(deps, await authOf(req).access(), id, input.version, input.reason);
  });
  app.post('/scheduled-exams/:id/extension', async (req) => {
    const { id } = parse(idParam, req.params);
    const input = parse(scheduledExtensionInput, req.body);
    return extendLine(deps, await authOf(req).access(), id, input.version, input.extension);
  });
  app.delete('/scheduled-exams/:id', async (req) => {
    const { id } = parse(idParam, req.params);
    return deleteLine(deps, await authOf(req).access(), id, parse(versionQuery, req.query).version);
  });

  // An exam's patient: the lines still to come, and booking more.
  app.get('/exams/:id/schedules', async (req) => openSchedules(deps, await authOf(req).access(), parse(idParam, req.params).id));
  app.post('/exams/:id/schedules', async (req) => {
    const { id } = parse(idParam, req.params);
    return scheduleForExam(deps, await authOf(req).access(), id, parse(schedulesInput, req.body).exams);
  });
  app.post('/exams/:id/match/:scheduledId', async (req) => {
    const { id, scheduledId } = parse(pairParams, req.params);
    return matchLine(deps, await authOf(req).access(), id, scheduledId, parse(matchInput, req.body).version);
  });

  app.post('/exports/schedules', async (req, reply) => {
    const input = parse(scheduleExportInput, req.body);
    const desk = await registryDesk(db, await authOf(req).access(), input.bucketId);
    const file = await scheduleWorkbook(db, desk, input);
    return reply
      .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header('content-disposition', `attachment; filename="schedule-${desk.bucketId}.xlsx"`)
      .send(file);
  });

}
