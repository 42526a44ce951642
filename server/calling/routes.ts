import { and, asc, desc, eq, gte, inArray, isNull, notExists, or, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  callingSettingsInput, callNextInput, checkInInput, queueActionInput, queueTypeInput, resortInput, SCREEN_TOKENS_MAX, screenTokenInput,
  type CheckInCandidate, type QueueEntry,
} from '../../contract/calling';
import { idParam, idValue, pageQuerySchema } from '../../contract/common';
import { resortIdsInput } from '../../contract/organizations';
import { instantOf } from '../../contract/days';
import { authOf } from '../auth/plugin';
import { recordAudit } from '../audit/record';
import { callingSettings, exams, queueEntries, queueTypes } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { parse } from '../http/validate';
import { nextSortOrder, resortList } from '../http/order';
import { callingDesk, QUEUE_TYPE_ORDER } from './access';
import { act, callNext, resort } from './actions';
import { checkIn } from './checkIn';
import { queryEntries } from './query';
import { createHub } from './hub';
import { loadBoard, presentEntry, presentType, selectEntries, today } from './present';
import { screenRoutes } from './screen';
import { issueToken, listTokens, liveTokenCount, revokeToken } from './screenTokens';

/** The call queue (areas §7 "Call queue"): queue types, today's entries and their actions, screen tokens, the screens' stream, speech. */
const bucketParam = z.object({ id: idValue });
const typeParams = z.object({ id: idValue, typeId: idValue });
const tokenParams = z.object({ id: idValue, tokenId: idValue });
const candidateQuery = z.object({ q: z.string().trim().max(64).default('') });

export async function callingRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  const { db } = deps;
  const hub = createHub(db, deps.dbKind === 'postgres' ? deps.config.databaseUrl ?? null : null);
  app.addHook('onClose', async () => hub.close());
  const access = (req: FastifyRequest) => authOf(req).access();

  // Queue types.
  app.get('/buckets/:id/queue-types', async (req) => {
    const desk = await callingDesk(db, await access(req), parse(bucketParam, req.params).id);
    return (await db.select().from(queueTypes).where(eq(queueTypes.bucketId, desk.bucketId)).orderBy(asc(queueTypes.sortOrder), asc(queueTypes.id))).map(presentType);
  });
  app.post('/buckets/:id/queue-types', async (req) => {
    const a = await access(req);
    const desk = await callingDesk(db, a, parse(bucketParam, req.params).id, 'calling_manage_queue');
    const input = parse(queueTypeInput, req.body);
    // New queues go last (areas §2: queue types are ordered).
    const row = await db.transaction(async (tx) => {
      const [created] = await tx.insert(queueTypes).values({ bucketId: desk.bucketId, ...input, sortOrder: await nextSortOrder(tx, QUEUE_TYPE_ORDER, desk.bucketId) }).returning();
      await recordAudit(tx, { at: deps.clock.now(), actorId: a.accountId, bucketId: desk.bucketId, area: 'calling', action: 'queue-type-create', objectType: 'queue-type', objectId: created!.id, after: input });
      return created;
    });
    await hub.publish(desk.bucketId);
    return presentType(row!);
  });
  app.put('/buckets/:id/queue-types/:typeId', async (req) => {
    const { id, typeId } = parse(typeParams, req.params);
    const a = await access(req);
    const desk = await callingDesk(db, a, id, 'calling_manage_queue');
    const input = parse(queueTypeInput, req.body);
    const [row] = await db.update(queueTypes).set(input).where(and(eq(queueTypes.id, typeId), eq(queueTypes.bucketId, desk.bucketId))).returning();
    if (!row) throw new ApiError('NotFound');
    await recordAudit(db, { at: deps.clock.now(), actorId: a.accountId, bucketId: desk.bucketId, area: 'calling', action: 'queue-type-update', objectType: 'queue-type', objectId: typeId, after: input });
    await hub.publish(desk.bucketId);
    return presentType(row);
  });
  // The complete list of the organisation's queue type ids in their new order (the one re-sort rule: ../organizations/order.ts).
  app.post('/buckets/:id/queue-types/resort', async (req) => {
    const a = await access(req);
    const desk = await callingDesk(db, a, parse(bucketParam, req.params).id, 'calling_manage_queue');
    const { ids } = parse(resortIdsInput, req.body);
    const rows = await db.transaction(async (tx) => {
      await resortList(tx, QUEUE_TYPE_ORDER, desk.bucketId, ids);
      await recordAudit(tx, { at: deps.clock.now(), actorId: a.accountId, bucketId: desk.bucketId, area: 'calling', action: 'queue-type-resort', objectType: 'bucket', objectId: desk.bucketId, after: { queueTypeIds: ids } });
      return tx.select().from(queueTypes).where(eq(queueTypes.bucketId, desk.bucketId)).orderBy(asc(queueTypes.sortOrder), asc(queueTypes.id));
    });
    await hub.publish(desk.bucketId);
    return rows.map(presentType);
  });
  app.delete('/buckets/:id/queue-types/:typeId', async (req) => {
    const { id, typeId } = parse(typeParams, req.params);
    const a = await access(req);
    const desk = await callingDesk(db, a, id, 'calling_manage_queue');
    const rows = await db.delete(queueTypes).where(and(eq(queueTypes.id, typeId), eq(queueTypes.bucketId, desk.bucketId))).returning({ id: queueTypes.id });
    if (rows.length === 0) throw new ApiError('NotFound');
    await recordAudit(db, { at: deps.clock.now(), actorId: a.accountId, bucketId: desk.bucketId, area: 'calling', action: 'queue-type-delete', objectType: 'queue-type', objectId: typeId });
    await hub.publish(desk.bucketId);
    return { deleted: true };
  });

  // Today's queues.
  app.get('/buckets/:id/queue-exams', async (req) => loadBoard(db, await callingDesk(db, await access(req), parse(bucketParam, req.params).id), deps.clock.now()));
  app.post('/buckets/:id/queue-exams/query', async (req) => {
    const desk = await callingDesk(db, await access(req), parse(bucketParam, req.params).id);
    return queryEntries(db, desk.bucketId, parse(pageQuerySchema, req.body ?? {}));
  });
  app.get('/buckets/:id/queue-exams/candidates', async (req): Promise<CheckInCandidate[]> => {
    const desk = await callingDesk(db, await access(req), parse(bucketParam, req.params).id, 'calling_manage_queue');
    const { q } = parse(candidateQuery, req.query);
    const now = deps.clock.now();
    const day = today(now, desk.timeZone);
    const start = instantOf(day, '00:00', desk.timeZone);
    const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const rows = await db.select().from(exams).where(and(
      eq(exams.bucketId, desk.bucketId), isNull(exams.deletedTime),
      q ? or(sql`${exams.patientName} ilike ${pattern}`, sql`${exams.accessionNumber} ilike ${pattern}`, eq(exams.patientId, q))
        : and(inArray(exams.examStatus, ['Arrived', 'Performed']), gte(exams.arrivedTime, start)),
      notExists(db.select({ one: sql`1` }).from(queueEntries).where(and(eq(queueEntries.examId, exams.id), eq(queueEntries.day, day)))),
    )).orderBy(desc(exams.arrivedTime), desc(exams.id)).limit(20);
    return rows.map((e) => ({
      examId: e.id, patientName: e.patientName, exam: e.studyDescription ?? [e.modality, e.bodyPart].filter(Boolean).join(' '), modality: e.modality,
      arrivedTime: e.arrivedTime ? e.arrivedTime.toISOString() : null,
    }));
  });
  app.post('/queue-exams/check-in', async (req) => checkIn(deps, hub, await access(req), parse(checkInInput, req.body)));
  app.post('/queue-exams/call-next', async (req) => callNext(deps, hub, await access(req), parse(callNextInput, req.body)));
  app.post('/queue-types/:id/call-next', async (req) => {
    const { id } = parse(idParam, req.params);
    const [type] = await db.select({ bucketId: queueTypes.bucketId }).from(queueTypes).where(eq(queueTypes.id, id));
    if (!type) throw new ApiError('NotFound');
    return callNext(deps, hub, await access(req), { bucketId: type.bucketId, queueTypeId: id });
  });
  app.post('/queue-exams/:id/action', async (req) => act(deps, hub, await access(req), parse(idParam, req.params).id, parse(queueActionInput, req.body)));
  app.post('/queue-exams/:id/resort', async (req) => {
    const input = parse(resortInput, req.body);
    return resort(deps, hub, await access(req), parse(idParam, req.params).id, input.targetNumber, input.version);
  });
  // The called patient and the missed area of one queue today.
  const ofType = async (req: FastifyRequest, status: 'called' | 'passed'): Promise<QueueEntry[]> => {
    const { id } = parse(idParam, req.params);
    const [type] = await db.select().from(queueTypes).where(eq(queueTypes.id, id));
    if (!type) throw new ApiError('NotFound');
    const desk = await callingDesk(db, await access(req), type.bucketId);
    const rows = await selectEntries(db).where(and(eq(queueEntries.queueTypeId, id), eq(queueEntries.day, today(deps.clock.now(), desk.timeZone)), eq(queueEntries.status, status)))
      .orderBy(status === 'called' ? desc(queueEntries.calledTime) : asc(queueEntries.position));
    return rows.map(presentEntry);
  };
  app.get('/queue-types/:id/calling', async (req) => (await ofType(req, 'called'))[0] ?? null);
  app.get('/queue-types/:id/missed', async (req) => ofType(req, 'passed'));

  // Settings and screen tokens.
  app.get('/buckets/:id/calling-settings', async (req) => {
    const desk = await callingDesk(db, await access(req), parse(bucketParam, req.params).id);
    return { privacy: desk.privacy, language: desk.language };
  });
  app.put('/buckets/:id/calling-settings', async (req) => {
    const a = await access(req);
    const desk = await callingDesk(db, a, parse(bucketParam, req.params).id, 'calling_manage_queue');
    const input = parse(callingSettingsInput, req.body);
    const language = input.language ?? desk.language;
    await db.insert(callingSettings).values({ bucketId: desk.bucketId, privacy: input.privacy, language })
      .onConflictDoUpdate({ target: callingSettings.bucketId, set: { privacy: input.privacy, language } });
    await recordAudit(db, { at: deps.clock.now(), actorId: a.accountId, bucketId: desk.bucketId, area: 'calling', action: 'settings', objectType: 'bucket', objectId: desk.bucketId,
      before: { privacy: desk.privacy, language: desk.language }, after: { privacy: input.privacy, language } });
    await hub.publish(desk.bucketId);
    return { privacy: input.privacy, language };
  });
  app.get('/buckets/:id/screen-tokens', async (req) => {
    const desk = await callingDesk(db, await access(req), parse(bucketParam, req.params).id, 'calling_manage_queue');
    return listTokens(db, desk.bucketId);
  });
  app.post('/buckets/:id/screen-tokens', async (req) => {
    const a = await access(req);
    const desk = await callingDesk(db, a, parse(bucketParam, req.params).id, 'calling_manage_queue');
    if ((await liveTokenCount(db, desk.bucketId)) >= SCREEN_TOKENS_MAX) throw new ApiError('ParamsError', `At most ${SCREEN_TOKENS_MAX} screen tokens; revoke one first`);
    const token = await issueToken(db, desk.bucketId, parse(screenTokenInput, req.body).name, a.accountId, deps.clock.now());
    await recordAudit(db, { at: deps.clock.now(), actorId: a.accountId, bucketId: desk.bucketId, area: 'calling', action: 'screen-token-issue', objectType: 'screen-token', objectId: token.id, after: { name: token.name } });
    return token;
  });
  app.delete('/buckets/:id/screen-tokens/:tokenId', async (req) => {
    const { id, tokenId } = parse(tokenParams, req.params);
    const a = await access(req);
    const desk = await callingDesk(db, a, id, 'calling_manage_queue');
    if (!(await revokeToken(db, desk.bucketId, tokenId, deps.clock.now()))) throw new ApiError('NotFound');
    await recordAudit(db, { at: deps.clock.now(), actorId: a.accountId, bucketId: desk.bucketId, area: 'calling', action: 'screen-token-revoke', objectType: 'screen-token', objectId: tokenId });
    // The screens re-check their tokens on the next change: this one ends the revoked screen's stream now.
    await hub.publish(desk.bucketId);
    return { revoked: true };
  });

  screenRoutes(app, deps, hub);
}
