import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { idParam } from '../../contract/common';
import {
  consultationMembersInput, consultationSuggestionInput, type ConsultationDetail, type ConsultationTrace,
} from '../../contract/consultations';
import { isBlankReportHtml, sanitizeReportHtml } from '../../contract/reportHtml';
import { auditTrail } from '../audit/record';
import { authOf } from '../auth/plugin';
import { bucketMembers, consultationMembers, consultationSuggestions } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { parse } from '../http/validate';
import { buildDetail } from './detail';
import { inConsultation, loadConsultation, type Tx } from './load';
import { peopleById } from './parts';
import { auditWrite } from './write';

const paramsError = (path: string, message: string) => new ApiError('ParamsError', undefined, { fields: [{ path, message }] });

type MemberInput = { accountId: number; role: 'member' | 'expert' };

/**
 * docs/decisions.md "Consultations": experts come from the target organisation only; members from any organisation
 * of the consultation (applicant, target, joined). Each account once.
 */
export async function checkMembers(tx: Tx, where: { orgs: readonly number[]; targetBucketId: number }, members: readonly MemberInput[]): Promise<void> {
  const seen = new Set<number>();
  members.forEach((m, i) => {
    if (seen.has(m.accountId)) throw paramsError(`members.${i}.accountId`, 'listed twice');
    seen.add(m.accountId);
  });
  if (members.length === 0) return;
  const rows = await tx.select({ accountId: bucketMembers.accountId, bucketId: bucketMembers.bucketId }).from(bucketMembers)
    .where(and(inArray(bucketMembers.bucketId, [...where.orgs]), inArray(bucketMembers.accountId, [...seen])));
  members.forEach((m, i) => {
    const of = rows.filter((r) => r.accountId === m.accountId).map((r) => r.bucketId);
    if (m.role === 'expert' && !of.includes(where.targetBucketId)) throw paramsError(`members.${i}.accountId`, 'an expert must belong to the target organisation');
    if (of.length === 0) throw paramsError(`members.${i}.accountId`, 'not a member of the consultation\'s organisations');
  });
}

/** Reading one consultation, and the writes of its discussion: members, suggestions; its log. */
export async function consultationDiscussionRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  const { db, storage } = deps;

  app.get('/consultations/:id', async (req): Promise<ConsultationDetail> => {
    const { id } = parse(idParam, req.params);
    const access = await authOf(req).access();
    return buildDetail(db, storage, await loadConsultation(db, access, id));
  });

  // The whole list at once (areas §3 members and experts).
  app.put('/consultations/:id/members', async (req): Promise<ConsultationDetail> => {
    const { id } = parse(idParam, req.params);
    const input = parse(consultationMembersInput, req.body);
    const access = await authOf(req).access();
    return inConsultation(deps, access, id, 'editMembers', async (tx, c) => {
      await checkMembers(tx, { orgs: [c.row.appliedBucketId, c.row.targetBucketId, ...c.joinedBucketIds], targetBucketId: c.row.targetBucketId }, input.members);
      const before = await tx.select({ accountId: consultationMembers.accountId, role: consultationMembers.role })
        .from(consultationMembers).where(eq(consultationMembers.consultationId, id));
      await tx.delete(consultationMembers).where(eq(consultationMembers.consultationId, id));
      const now = deps.clock.now();
      if (input.members.length > 0) {
        await tx.insert(consultationMembers).values(input.members.map((m) => ({
          consultationId: id, accountId: m.accountId, role: m.role, addedBy: access.accountId, created: now,
        })));
      }
      await auditWrite(tx, deps, access, c, { action: 'members', before: { members: before }, after: { members: input.members } }, now);
      return buildDetail(tx, storage, c);
    });
  });

  // A suggestion (consultation_submitSuggestion): sanitised as report HTML, never empty.
  app.post('/consultations/:id/suggestion', async (req, reply): Promise<ConsultationDetail> => {
    const { id } = parse(idParam, req.params);
    const input = parse(consultationSuggestionInput, req.body);
    const content = sanitizeReportHtml(input.content);
    if (isBlankReportHtml(content)) throw paramsError('content', 'a suggestion cannot be empty');
    const access = await authOf(req).access();
    const detail = await inConsultation(deps, access, id, 'suggest', async (tx, c) => {
      const now = deps.clock.now();
      const [row] = await tx.insert(consultationSuggestions).values({ consultationId: id, accountId: access.accountId, content, created: now })
        .returning({ id: consultationSuggestions.id });
      await auditWrite(tx, deps, access, c, { action: 'suggestion', after: { suggestionId: row!.id, content } }, now);
      return buildDetail(tx, storage, c);
    });
    reply.code(201);
    return detail;
  });

  // Areas §3 "log": every change, who and when, oldest first.
  app.get('/consultations/:id/traces', async (req): Promise<ConsultationTrace[]> => {
    const { id } = parse(idParam, req.params);
    const access = await authOf(req).access();
    await loadConsultation(db, access, id);
    const events = await auditTrail(db, 'consultation', id);
    const people = await peopleById(db, events.map((e) => e.actorId).filter((a): a is number => a !== null));
    return events.map((e) => ({
      id: e.id,
      at: e.at.toISOString(),
      action: e.action,
      actor: e.actorId === null ? null : people.get(e.actorId) ?? { id: e.actorId, name: '', techTitle: null, bucketName: '' },
      before: e.before ?? null,
      after: e.after ?? null,
    }));
  });
}
