import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Action } from '../../contract/actions';
import { assertMember, can, type Access } from '../access/access';
import { exams } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { actorOf } from '../auth/actor';
import { tryCheck, type ViewClaims } from '../auth/permits';

/**
 * Who may see an exam's images: exam_get, or anyone who writes, approves or advises on its reports
 * (a collaborator has report actions only and still reads the images to report them).
 */
export const VIEW_ACTIONS: readonly Action[] = ['exam_get', 'report_upsert', 'report_approval', 'report_advice'];

export function assertCanView(access: Access, bucketId: number): void {
  assertMember(access, bucketId);
  if (!VIEW_ACTIONS.some((a) => can(access, a, bucketId))) throw new ApiError('Forbidden');
}

export async function liveExam(deps: Deps, examId: number) {
  const [exam] = await deps.db.select().from(exams).where(and(eq(exams.id, examId), isNull(exams.deletedTime)));
  if (!exam) throw new ApiError('NotFound');
  return exam;
}

/**
 * An exam's images are read with a bearer, a view token of that exam (viewer path, electronic film)
 * or a download permit of an account that may view them.
 */
export async function assertExamReadable(req: FastifyRequest, deps: Deps, examId: number, bucketId: number, token: string | undefined): Promise<void> {
  if (!req.auth && token) {
    const view = tryCheck<ViewClaims>(deps, 'view', token);
    if (view === 'expired') throw new ApiError('FileTokenExpired');
    if (view) {
      if (view.e !== examId) throw new ApiError('FileTokenInvalid');
      return;
    }
  }
  const actor = await actorOf(req, deps, { token, use: 'download' });
  assertCanView(await actor.access(), bucketId);
}
