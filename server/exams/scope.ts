import { ACTIONS, type Action } from '../../contract/actions';
import type { Access } from '../access/access';
import { ApiError } from '../http/errors';

/**
 * Who sees an organisation's exams: exam_get, or any report action (a collaborator holds report actions only
 * and must still find the exams it reports on). The same rule as reading a report (server/reports/load.ts).
 */
export const EXAM_READ_ACTIONS: readonly Action[] = ['exam_get', ...ACTIONS.report];

export function canReadExams(access: Access, bucketId: number): boolean {
  const grant = access.buckets.get(bucketId);
  return grant !== undefined && EXAM_READ_ACTIONS.some((a) => grant.actions.has(a));
}

/** The organisations whose exams the account may list: the scope every exam query starts from. */
export function readableBuckets(access: Access): number[] {
  return [...access.buckets.values()].filter((g) => canReadExams(access, g.bucketId)).map((g) => g.bucketId).sort((a, b) => a - b);
}

/** 404 outside the account's organisations, 403 inside one without exam or report rights. */
export function assertCanReadExam(access: Access, bucketId: number): void {
  if (!access.buckets.has(bucketId)) throw new ApiError('NotFound');
  if (!canReadExams(access, bucketId)) throw new ApiError('Forbidden');
}
