import { and, asc, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  consultationCreateInput, consultationPeopleQuery, consultationTargetsQuery,
  type ConsultationBucketRef, type ConsultationDetail, type ConsultationPerson, type ConsultationTargets,
} from '../../contract/consultations';
import { assertCan, type Access } from '../access/access';
import { authOf } from '../auth/plugin';
import type { Db } from '../db/client';
import {
  accounts, bucketMembers, buckets, consultationBuckets, consultationExams, consultationMembers, consultations, exams,
  groupConsultationTargets, groups, reports,
} from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { parse } from '../http/validate';
import { buildDetail } from './detail';
import { checkMembers } from './discussion';
import { loadConsultation } from './load';
import { consultationScope } from './scope';
import { auditWrite } from './write';

const paramsError = (path: string, message: string) => new ApiError('ParamsError', undefined, { fields: [{ path, message }] });

type Reader = Pick<Db, 'select'>;

/**
 * The exam a consultation starts from, for an account with consultation_create in its organisation (the applicant):
 * 404 when missing, deleted or outside the account's organisations, 403 without the right or with the group's
 * consultations switched off.
 */
async function applicantExam(db: Reader, access: Access, examId: number) {
  const [exam] = await db.select({
    id: exams.id, bucketId: exams.bucketId, patientName: exams.patientName, patientGender: exams.patientGender,
    visitAge: exams.visitAge, deletedTime: exams.deletedTime, groupId: buckets.groupId,
    enabled: groups.enableConsultation, defaultTarget: groups.defaultConsultationBucketId,
  }).from(exams).innerJoin(buckets, eq(buckets.id, exams.bucketId)).innerJoin(groups, eq(groups.id, buckets.groupId))
    .where(eq(exams.id, examId));
  if (!exam || exam.deletedTime !== null) throw new ApiError('NotFound');
  assertCan(access, 'consultation_create', exam.bucketId);
  if (!exam.enabled) throw new ApiError('Forbidden', 'Consultations are not enabled for this group');
  return exam;
}

/** The group's consultation targets and its default, without the applicant itself, by id. */
async function targetsOf(db: Reader, groupId: number, defaultTarget: number | null, applicantId: number): Promise<ConsultationBucketRef[]> {
  const listed = await db.select({ id: groupConsultationTargets.bucketId }).from(groupConsultationTargets)
    .where(eq(groupConsultationTargets.groupId, groupId));
  const ids = [...new Set([...listed.map((t) => t.id), ...(defaultTarget === null ? [] : [defaultTarget])])].filter((id) => id !== applicantId);
  if (ids.length === 0) return [];
  return db.select({ id: buckets.id, name: buckets.name }).from(buckets).where(inArray(buckets.id, ids)).orderBy(asc(buckets.id));
}

/** Other organisations of the group (joinedBucketIds' choices). */
async function joinableOf(db: Reader, groupId: number, applicantId: number): Promise<ConsultationBucketRef[]> {
  const rows = await db.select({ id: buckets.id, name: buckets.name }).from(buckets).where(eq(buckets.groupId, groupId)).orderBy(asc(buckets.id));
  return rows.filter((b) => b.id !== applicantId);
}

/** Starting a consultation (areas §7): the create screen's choices, its people, and the create itself. */
export async function consultationCreateRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  const { db } = deps;

  app.get('/consultations/targets', async (req): Promise<ConsultationTargets> => {
    const { examId } = parse(consultationTargetsQuery, req.query);
    const access = await authOf(req).access();
    const exam = await applicantExam(db, access, examId);
    const targets = await targetsOf(db, exam.groupId, exam.defaultTarget, exam.bucketId);
    const joinable = await joinableOf(db, exam.groupId, exam.bucketId);
    const defaultTargetId = targets.some((t) => t.id === exam.defaultTarget) ? exam.defaultTarget : null;
    return { targets, defaultTargetId, joinable };
  });

  // Accounts one may add as members or experts: of the caller's own organisations (in groups with consultations on)
  // and of those groups' consultation targets; any other organisation is 404.
  app.get('/consultations/people', async (req): Promise<ConsultationPerson[]> => {
    const { bucketId } = parse(consultationPeopleQuery, req.query);
    const access = await authOf(req).access();
    const own = await consultationScope(db, access);
    if (!own.includes(bucketId)) {
      const groupIds = [...new Set(own.map((b) => access.buckets.get(b)!.groupId))];
      const reachable = groupIds.length === 0 ? [] : [
        ...(await db.select({ id: groupConsultationTargets.bucketId }).from(groupConsultationTargets)
          .where(inArray(groupConsultationTargets.groupId, groupIds))).map((r) => r.id),
        ...(await db.select({ id: groups.defaultConsultationBucketId }).from(groups).where(inArray(groups.id, groupIds)))
          .map((r) => r.id).filter((id): id is number => id !== null),
      ];
      if (!reachable.includes(bucketId)) throw new ApiError('NotFound');
    }
    const rows = await db.select({ id: accounts.id, name: accounts.name, techTitle: accounts.techTitle, bucketName: buckets.name })
      .from(bucketMembers).innerJoin(accounts, eq(accounts.id, bucketMembers.accountId)).innerJoin(buckets, eq(buckets.id, bucketMembers.bucketId))
      .where(eq(bucketMembers.bucketId, bucketId)).orderBy(asc(accounts.name), asc(accounts.id));
    return rows;
  });

  app.post('/consultations', async (req, reply): Promise<ConsultationDetail> => {
    const input = parse(consultationCreateInput, req.body);
    const access = await authOf(req).access();
    const detail = await db.transaction(async (tx) => {
      const exam = await applicantExam(tx, access, input.examId);
      if (input.reportId !== null) {
        const [report] = await tx.select({ id: reports.id }).from(reports).where(and(eq(reports.id, input.reportId), eq(reports.examId, exam.id)));
        if (!report) throw paramsError('reportId', 'not a report of this exam');
      }
      const targets = await targetsOf(tx, exam.groupId, exam.defaultTarget, exam.bucketId);
      if (!targets.some((t) => t.id === input.targetBucketId)) {
        throw new ApiError('ConsultationTargetInvalid', undefined, { fields: [{ path: 'targetBucketId', message: 'not a consultation target of the group' }] });
      }
      const joinable = new Set((await joinableOf(tx, exam.groupId, exam.bucketId)).map((b) => b.id));
      input.joinedBucketIds.forEach((b, i) => {
        if (!joinable.has(b)) throw paramsError(`joinedBucketIds.${i}`, 'not another organisation of the group');
      });
      const joined = [...new Set([input.targetBucketId, ...input.joinedBucketIds])];
      await checkMembers(tx, { orgs: [exam.bucketId, ...joined], targetBucketId: input.targetBucketId }, input.members);
      const now = deps.clock.now();
      const [row] = await tx.insert(consultations).values({
        appliedBucketId: exam.bucketId, targetBucketId: input.targetBucketId, examId: exam.id, reportId: input.reportId,
        patientName: exam.patientName, patientGender: exam.patientGender, patientAge: exam.visitAge,
        patientTel: input.patientTel, patientEmail: input.patientEmail, reason: input.reason, note: input.note,
        status: 0, createdBy: access.accountId, created: now,
      }).returning();
      const id = row!.id;
      await tx.insert(consultationBuckets).values(joined.map((bucketId) => ({ consultationId: id, bucketId })));
      await tx.insert(consultationExams).values({ consultationId: id, examId: exam.id, addedBy: access.accountId, created: now });
      // The creator takes part as a member unless listed otherwise.
      const members = input.members.some((m) => m.accountId === access.accountId)
        ? input.members : [{ accountId: access.accountId, role: 'member' as const }, ...input.members];
      await tx.insert(consultationMembers).values(members.map((m) => ({
        consultationId: id, accountId: m.accountId, role: m.role, addedBy: access.accountId, created: now,
      })));
      const c = await loadConsultation(tx, access, id);
      await auditWrite(tx, deps, access, c, {
        action: 'create', after: {
          examId: exam.id, reportId: input.reportId, targetBucketId: input.targetBucketId, joinedBucketIds: joined, reason: input.reason, members,
        },
      }, now);
      return buildDetail(tx, deps.storage, c);
    });
    reply.code(201);
    return detail;
  });
}
